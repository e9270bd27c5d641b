"""EqInfer's two release readings of the same answers, and upstream's decoding as the default.

Readings: ``subtask1_equation_model_eval_binary.py`` (API models: ``int()``, re-asks) and
``subtask1_equation_model_eval_binary.open_source.py`` (vLLM: exactly "0"/"1", one answer, the
wrong label forced). Decoding: each release script's ``OpenAIDecodingArguments``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput, get_model
from log_metrics import metrics_of
from mock_models import MOCK_MODEL, model_output

from research_taste_evals.aaar.demo import (
    DEMO_EQINFER,
    write_demo_eqinfer,
    write_demo_expdesign,
    write_demo_weakness,
)
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.aaar.parsing import faithful_binary, vllm_binary
from research_taste_evals.core.embeddings import OFFLINE_MODEL


def _recording_model(answer: str) -> tuple[Model, list[GenerateConfig]]:
    configs: list[GenerateConfig] = []

    def output(messages: list[ChatMessage], tools: Any, choice: Any, config: Any) -> ModelOutput:
        configs.append(config)
        return model_output(answer)

    return get_model(MOCK_MODEL, custom_outputs=output), configs


def test_vllm_reading_accepts_only_exact_digits() -> None:
    for answer, api, vllm in [
        ("1", 1, 1),
        (" 0\n", 0, 0),
        ("01", 1, None),
        ("+1", 1, None),
        ("**1**", None, None),
        ("1.", None, None),
    ]:
        assert (faithful_binary(answer), vllm_binary(answer)) == (api, vllm), answer


def _run(demo: Path, reader: str, **eval_args: Any) -> tuple[EvalLog, list[GenerateConfig]]:
    model, configs = _recording_model("01")
    task = eqinfer(data_path=str(demo), faithful_reader=reader)  # type: ignore[arg-type]
    return inspect_eval(task, model=model, display="none", **eval_args)[0], configs


def test_api_and_vllm_readings_of_the_same_answers(tmp_path: Path) -> None:
    """Every answer is "01": int() reads 1 (the API script), vLLM's exact match reads nothing
    and forces the wrong label. Strict reads nothing either, so both runs re-ask alike."""
    demo = write_demo_eqinfer(tmp_path)
    api_log, api_configs = _run(demo, "api")
    vllm_log, vllm_configs = _run(demo, "vllm")
    assert len(api_configs) == len(vllm_configs)  # the same calls, the same answers
    api, vllm = metrics_of(api_log), metrics_of(vllm_log)
    assert api["faithful_recall"] == 1.0 and api["faithful_precision"] == pytest.approx(0.25)
    assert api["faithful_forced_rate"] == 0.0
    assert vllm["faithful_f1"] == 0.0 and vllm["faithful_forced_rate"] == 1.0
    assert api["unparsed_rate"] == vllm["unparsed_rate"] == 1.0
    for log, reader in ((api_log, "api"), (vllm_log, "vllm")):
        assert log.samples and log.eval.metadata
        assert log.eval.metadata["provenance"]["faithful_reader"] == reader
        for sample in log.samples:
            meta = next(iter(sample.scores.values())).metadata  # type: ignore[union-attr]
            assert meta is not None
            assert (meta["faithful_api_prediction"], meta["faithful_vllm_prediction"]) == (1, None)
            assert meta["faithful_reader"] == reader


def test_eqinfer_decodes_as_upstream_by_default_and_flags_override(tmp_path: Path) -> None:
    demo = write_demo_eqinfer(tmp_path)
    log, configs = _run(demo, "api")
    assert configs and {(c.temperature, c.top_p, c.max_tokens) for c in configs} == {
        (1.0, 0.99, 200)
    }
    assert log.eval.metadata is not None
    recorded = log.eval.metadata["provenance"]["model_decoding"]
    assert (recorded["temperature"], recorded["top_p"], recorded["max_tokens"]) == (1.0, 0.99, 200)
    assert log.plan.config.temperature == 1.0 and log.plan.config.max_tokens == 200
    log, configs = _run(demo, "api", temperature=0.0, max_tokens=7)
    assert {(c.temperature, c.top_p, c.max_tokens) for c in configs} == {(0.0, 0.99, 7)}
    assert log.plan.config.temperature == 0.0 and log.plan.config.max_tokens == 7
    assert len(configs) >= 4 * len(DEMO_EQINFER)


@pytest.mark.parametrize("build", ["expdesign", "paper_weakness"])
def test_expdesign_and_weakness_default_to_upstream_decoding(tmp_path: Path, build: str) -> None:
    if build == "expdesign":
        task = expdesign(
            data_path=str(write_demo_expdesign(tmp_path)),
            judge_model="baseline/word-overlap-judge",
            embedding_model=OFFLINE_MODEL,
        )
    else:
        task = paper_weakness(
            data_path=str(write_demo_weakness(tmp_path)),
            embedding_model=OFFLINE_MODEL,
            itf_idf_model=OFFLINE_MODEL,
        )
    assert (task.config.temperature, task.config.top_p, task.config.max_tokens) == (1, 0.99, 720)
    block = task.metadata["provenance"]
    assert block["model_decoding"]["max_tokens"] == 720
    assert block["word_counting"]["tokenizer_rules"] == "3.6.7"
    assert block["word_counting"]["nltk_version"]
    assert block["paper_faithful"]["word_counting"] is True
