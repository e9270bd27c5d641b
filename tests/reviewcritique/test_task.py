from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)
from log_metrics import every_figure_of
from reviewcritique_responders import Responder, gold_responder, is_select

from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique
from research_taste_evals.reviewcritique.metrics import STRATEGIES
from research_taste_evals.reviewcritique.reviewcritique import review_critique

LLM_FILE = Path("reviewcritique/data/ReviewCritique_LLM.jsonl")


def _run(
    tmp_path: Path, model: str | Model, data_path: Path | None = None, **task_args: Any
) -> dict[str, float]:
    path = data_path or write_demo_reviewcritique(tmp_path / "data")
    task = review_critique(data_path=str(path), bertscore_model=OFFLINE_MODEL, **task_args)
    logs = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none")
    return every_figure_of(logs[0])


def test_gold_answers_score_f1_one_on_all_four_strategies(
    tmp_path: Path, scripted_model: Callable[[Responder], Model]
) -> None:
    path = write_demo_reviewcritique(tmp_path / "data")
    metrics = _run(tmp_path, scripted_model(gold_responder(path)), path)
    for strategy in STRATEGIES:
        assert metrics[f"{strategy}_f1"] == 1.0
        assert metrics[f"{strategy}_precision"] == 1.0
        assert metrics[f"{strategy}_unscored_segments"] == 0.0
        assert metrics[f"{strategy}_f1_ci_low"] == metrics[f"{strategy}_f1_ci_high"] == 1.0
    for prompt in ("labeling_all", "select_deficient"):
        # Identical explanations: ROUGE is exactly 1 and BERTScore ~1 on all 6 deficient ones.
        assert metrics[f"{prompt}_explained_segments"] == 6.0
        assert metrics[f"{prompt}_explanation_rouge2"] == pytest.approx(1.0)
        assert metrics[f"{prompt}_explanation_bertscore"] == pytest.approx(1.0, abs=1e-4)
        assert metrics[f"{prompt}_unparsed_rate"] == 0.0
    assert metrics["recall_by_type/either_no/Neglect"] == 1.0


def test_invalid_json_for_one_prompt_still_scores_the_other(
    tmp_path: Path, scripted_model: Callable[[Responder], Model]
) -> None:
    path = write_demo_reviewcritique(tmp_path / "data")
    gold = gold_responder(path)

    def respond(messages: list[ChatMessage]) -> str:
        return gold(messages) if is_select(messages) else "Segments 2 and 3 look deficient."

    metrics = _run(tmp_path, scripted_model(respond), path)
    assert metrics["labeling_all_unparsed_rate"] == 1.0
    assert metrics["labeling_all_reasked_rate"] == 1.0  # asked twice, unparsed both times
    assert metrics["select_deficient_unparsed_rate"] == 0.0
    assert metrics["select_deficient_reasked_rate"] == 0.0
    assert metrics["unparsed_rate"] == metrics["reasked_rate"] == 0.5  # 1 of 2 answers
    assert metrics["select_deficient_f1"] == 1.0
    # Headline: no Labeling-All decision, so its 6 deficient segments are all missed.
    assert metrics["labeling_all_recall"] == 0.0 and metrics["labeling_all_f1"] == 0.0
    assert metrics["labeling_all_undecided_deficient_segments"] == 6.0
    assert metrics["either_no_f1"] == 1.0  # Select-Deficient's flags alone
    assert metrics["both_no_recall"] == 0.0
    # Parsed-only: no segment was decided by both prompts, so every strategy is undefined.
    assert metrics["parsed_only_segments"] == 0.0
    for strategy in STRATEGIES:
        assert math.isnan(metrics[f"{strategy}_f1_parsed_only"])
    for strategy in ("labeling_all", "both_no", "either_no"):
        assert metrics[f"{strategy}_unscored_segments"] == 17.0
    assert metrics["select_deficient_unscored_segments"] == 0.0


def test_invented_ids_and_omissions_are_counted(
    tmp_path: Path, scripted_model: Callable[[Responder], Model]
) -> None:
    def respond(messages: list[ChatMessage]) -> str:
        if is_select(messages):
            return json.dumps({"deficient_segments": [{"id": 99, "explanation": "x"}]})
        return json.dumps({"segments": [{"id": 1, "reliability": "No", "explanation": "x"}]})

    metrics = _run(tmp_path, scripted_model(respond))
    assert metrics["select_deficient_invented_ids"] == 5.0  # one per review
    assert metrics["select_deficient_recall"] == 0.0
    assert metrics["labeling_all_omitted_segments"] == 17.0 - 5.0
    assert metrics["labeling_all_unscored_segments"] == 12.0
    assert metrics["labeling_all_invented_ids"] == 0.0


def test_epochs_with_answers_that_parse_only_sometimes(
    tmp_path: Path, scripted_model: Callable[[Responder], Model]
) -> None:
    path = write_demo_reviewcritique(tmp_path / "data")
    gold = gold_responder(path)
    calls: list[int] = []

    def respond(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return gold(messages) if len(calls) % 3 else "not json"

    task = review_critique(data_path=str(path), bertscore_model=OFFLINE_MODEL, reask=0)
    logs = inspect_eval(
        task, model=scripted_model(respond), epochs=2, log_dir=str(tmp_path), display="none"
    )
    metrics = every_figure_of(logs[0])  # the run succeeds: every epoch's value has the same keys
    assert len(calls) == 2 * 2 * 5
    failed = metrics["labeling_all_unparsed_rate"] + metrics["select_deficient_unparsed_rate"]
    assert failed * 5 * 2 == pytest.approx(len(calls) // 3)
    assert metrics["select_deficient_precision"] == 1.0  # gold answers whenever parsed


def test_flag_none_baseline_has_zero_recall_and_undefined_precision(tmp_path: Path) -> None:
    metrics = _run(tmp_path, "baseline/flag-none")
    assert metrics["labeling_all_recall"] == 0.0
    assert math.isnan(metrics["labeling_all_precision"])
    assert metrics["either_no_f1"] == 0.0
    assert math.isnan(metrics["labeling_all_explanation_rouge1"])  # nothing correctly flagged


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
@pytest.mark.upstream
def test_flag_all_on_upstream_llm_file_from_the_command_line(
    upstream_dir: Path, tmp_path: Path
) -> None:
    command = [
        sys.executable, "-m", "inspect_ai", "eval", "research_taste_evals/review_critique",
        "--model", "baseline/flag-all", "-T", "subset=llm",
        "-T", f"data_path={upstream_dir / LLM_FILE}",
        "-T", f"bertscore_model={OFFLINE_MODEL}", "-T", "bootstrap_resamples=200",
        "--log-dir", str(tmp_path), "--log-format", "json", "--display", "none",
    ]  # fmt: skip
    environment = {**os.environ, "HF_HUB_OFFLINE": "1"}
    subprocess.run(command, check=True, env=environment, capture_output=True, timeout=600)
    (log_file,) = tmp_path.glob("*.json")
    log = json.loads(log_file.read_text())
    # The logged figures, and those a test computes from the log's sample scores.
    metrics = every_figure_of(read_eval_log(str(log_file)))
    assert metrics["labeling_all_recall"] == 1.0
    assert metrics["labeling_all_precision"] == pytest.approx(226 / 1610)
    assert metrics["select_deficient_precision"] == pytest.approx(226 / 1610)
    metadata = log["eval"]["metadata"]
    assert metadata["segments"] == 1610
    assert metadata["bertscore_paper_faithful"] is False
    assert "NON-AI" in metadata["license"] and "NON-AI" in metadata["provenance"]["license"]
    # The local copy is byte-identical to the pinned upstream file; the prompt is ours.
    assert metadata["provenance"]["paper_faithful"] == {
        "data": True,
        "prompt": False,
        "bertscore": False,
    }


def test_structured_output_sends_each_prompts_schema(tmp_path: Path) -> None:
    path = write_demo_reviewcritique(tmp_path / "data")
    gold = gold_responder(path)
    seen: list[GenerateConfig] = []

    def output(
        messages: list[ChatMessage], tools: Any, choice: Any, config: GenerateConfig
    ) -> ModelOutput:
        seen.append(config)
        result = ModelOutput.from_content(model="mockllm/model", content=gold(messages))
        result.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return result

    metrics = _run(tmp_path, get_model("mockllm/model", custom_outputs=output), path)
    assert metrics["either_no_f1"] == 1.0
    names = sorted({c.response_schema.name for c in seen if c.response_schema})
    assert names == ["reviewcritique_labeling_all", "reviewcritique_select_deficient"]
    assert len(seen) == 2 * 5  # two prompts per review, five reviews
