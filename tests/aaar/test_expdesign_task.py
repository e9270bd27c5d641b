"""End-to-end ExpDesign runs, offline: demo data, packaged MiniLM, scripted or baseline models."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, Model
from log_metrics import metrics_of

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.aaar.dataset.expdesign import EXPERIMENTS_KEY, EXPLANATIONS_KEY
from research_taste_evals.aaar.demo import DEMO_EXPDESIGN, write_demo_expdesign
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.core.reasons import GRADER_FAILED

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
DESIGN_MARKER = "### Your Experiment List:"
IDEA_MARKER = "### Experiment Idea:\n```\n"
LIST_MARKER = "### Experiment List:\n```\n"
P1, P2 = "## P1: ", "\n## P2: "


def _judged_item(messages: list[ChatMessage]) -> str:
    return messages[-1].text.rsplit(P1, 1)[-1].split(P2)[0]


def _run(task_kwargs: dict[str, object], model: object, judge: object) -> EvalLog:
    task = expdesign(embedding_model=OFFLINE_MODEL, **task_kwargs)  # type: ignore[arg-type]
    return inspect_eval(task, model=model, model_roles={"grader": judge}, display="none")[0]  # type: ignore[arg-type,dict-item]


@pytest.fixture
def demo_dir(tmp_path: Path) -> Path:
    return write_demo_expdesign(tmp_path)


def test_baselines_run_offline_and_record_embedding_model(demo_dir: Path) -> None:
    log = _run({"data_path": str(demo_dir)}, "baseline/copy-input", "baseline/word-overlap-judge")
    metrics = metrics_of(log)
    assert 0.0 < metrics["s_match_mean"] < 1.0
    assert 0.0 < metrics["rouge_1"] < 1.0 and 0.0 < metrics["rouge_l"] <= metrics["rouge_1"]
    assert metrics["judge_unparsed_rate"] == 0.0
    assert metrics["empty_prediction_rate"] == 0.0
    assert metrics["explanation_failure_rate"] == 0.0
    assert all(not math.isnan(metrics[k]) for k in ("en_f1", "en_precision", "en_recall"))
    meta = log.eval.metadata or {}
    block = meta["provenance"]
    assert block["embeddings"]["embedding_model"] == OFFLINE_MODEL
    assert block["embeddings"]["embedding_weights_of"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert block["paper_faithful"]["embeddings"] is False
    assert block["paper_faithful"]["judge_prompt"] is True and meta["judge_prompt"] == "v2"
    assert block["judge_decoding"] == {"temperature": 1.0, "top_p": 0.99, "max_tokens": 720}
    assert meta["explain_mode"] == "one_by_one" and meta["context_words"] == 3000
    assert log.stats.model_usage, "model usage was not recorded"
    assert log.samples is not None and len(log.samples) == len(DEMO_EXPDESIGN)


def test_entailment_scores_hand_worked(demo_dir: Path, scripted_model: ScriptedModel) -> None:
    """Three predicted items, the judge accepts one; it finds the first reference item only."""

    def model(messages: list[ChatMessage]) -> str:
        if DESIGN_MARKER in messages[-1].text:
            return "```\n1. alpha study\n2. beta study\n3. gamma study\n```"
        return "An explanation."

    def judge(messages: list[ChatMessage]) -> str:
        item = _judged_item(messages)
        first_references = {paper["output"][EXPERIMENTS_KEY][0] for paper in DEMO_EXPDESIGN}
        return "1" if item == "1. alpha study" or item in first_references else "0"

    metrics = metrics_of(
        _run({"data_path": str(demo_dir)}, scripted_model(model), scripted_model(judge))
    )
    p = 1 / 3
    recalls = [1 / len(paper["output"][EXPERIMENTS_KEY]) for paper in DEMO_EXPDESIGN]
    f1s = [2 * p * r / (p + r) for r in recalls]
    assert metrics["en_precision"] == pytest.approx(p)
    assert metrics["en_recall"] == pytest.approx(sum(recalls) / len(recalls))
    assert metrics["en_f1"] == pytest.approx(sum(f1s) / len(f1s))
    assert metrics["judge_unparsed_rate"] == 0.0


def test_unparseable_judge_answers_are_counted_never_silent(
    demo_dir: Path, scripted_model: ScriptedModel
) -> None:
    def model(messages: list[ChatMessage]) -> str:
        return "1. one\n2. two" if DESIGN_MARKER in messages[-1].text else "Because."

    def judge(messages: list[ChatMessage]) -> str:
        # Decides predicted items ("1. one", "2. two"); refuses to decide reference items.
        return "1" if _judged_item(messages).startswith(("1. ", "2. ")) else "I am not sure."

    strict = _run({"data_path": str(demo_dir)}, scripted_model(model), scripted_model(judge))
    metrics = metrics_of(strict)
    n_ref = sum(len(paper["output"][EXPERIMENTS_KEY]) for paper in DEMO_EXPDESIGN)
    assert metrics["judge_unparsed_rate"] == pytest.approx(
        n_ref / (n_ref + 2 * len(DEMO_EXPDESIGN))
    )
    assert metrics["en_precision"] == 1.0
    assert math.isnan(metrics["en_recall"]) and math.isnan(metrics["en_f1"])  # unknown, not 0
    assert strict.samples is not None and strict.samples[0].scores is not None
    score = next(iter(strict.samples[0].scores.values()))
    assert score.reason == GRADER_FAILED
    assert score.metadata is not None and None in score.metadata["recall_decisions"]
    assert {f["kind"] for f in score.metadata["judge_failures"]} == {"unparseable"}
    # The same answers read as upstream reads them, in the same log: unparsed -> 0.
    assert metrics["faithful_en_recall"] == 0.0 and metrics["faithful_en_f1"] == 0.0
    assert metrics["faithful_en_precision"] == 1.0
    assert metrics["judge_failure_rate"] == metrics["judge_unparsed_rate"]


def test_empty_prediction_scores_zero_without_judge_calls(
    demo_dir: Path, scripted_model: ScriptedModel
) -> None:
    judge_calls: list[str] = []

    def judge(messages: list[ChatMessage]) -> str:
        judge_calls.append(messages[-1].text)
        return "1"

    log = _run(
        {"data_path": str(demo_dir)},
        scripted_model(lambda _: "I would run some experiments."),
        scripted_model(judge),
    )
    metrics = metrics_of(log)
    assert metrics["empty_prediction_rate"] == 1.0
    assert (metrics["en_f1"], metrics["en_precision"], metrics["en_recall"]) == (0.0, 0.0, 0.0)
    assert judge_calls == []
    assert math.isnan(metrics["judge_unparsed_rate"])  # no judge answer at all


def _numbered_fixture(tmp_path: Path) -> Path:
    """One paper whose reference explanations carry the numbers the one-by-one answers get."""
    record = {
        "id": "fixture.1",
        "input": ["We propose a method.\n"],
        "output": {
            EXPERIMENTS_KEY: ["1. Compare with baselines.", "2. Ablate the loss."],
            EXPLANATIONS_KEY: ["1. To show it beats baselines.", "2. To show the loss matters."],
        },
    }
    path = tmp_path / "Experiment_Design" / "fixture.1" / "data_text.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(record))
    return tmp_path


def test_oracle_explainer_one_by_one_scores_one(
    tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    answers = {
        " Compare with baselines.": "To show it beats baselines.",
        " Ablate the loss.": "To show the loss matters.",
    }
    seen: list[str] = []

    def model(messages: list[ChatMessage]) -> str:
        text = messages[-1].text
        if IDEA_MARKER in text:
            idea = text.split(IDEA_MARKER, 1)[1].split("\n```", 1)[0]
            seen.append(idea)
            return answers[idea]
        return "1. x"

    log = _run(
        {"data_path": str(_numbered_fixture(tmp_path))},
        scripted_model(model),
        "baseline/word-overlap-judge",
    )
    metrics = metrics_of(log)
    # The leading "N." is stripped (its space kept) before an experiment is shown, as upstream.
    assert sorted(seen) == sorted(answers)
    assert metrics["s_match_mean"] == pytest.approx(1.0, abs=1e-5)
    assert metrics["rouge_1"] == pytest.approx(1.0) and metrics["rouge_l"] == pytest.approx(1.0)


def test_whole_list_mode_retries_then_counts_failure(
    tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    calls: list[str] = []

    def short_list(messages: list[ChatMessage]) -> str:
        text = messages[-1].text
        if LIST_MARKER in text and "### Explanation List:" in text:
            calls.append(text)
            return "1. Only one explanation."
        return "1. x"

    data = str(_numbered_fixture(tmp_path))
    log = _run(
        {"data_path": data, "explain_mode": "whole_list", "explanation_retries": 2},
        scripted_model(short_list),
        "baseline/word-overlap-judge",
    )
    metrics = metrics_of(log)
    assert len(calls) == 3  # first ask + 2 retries
    assert "1. Compare with baselines.\n2. Ablate the loss." in calls[0]
    assert metrics["explanation_failure_rate"] == 1.0
    assert metrics["s_match_mean"] == 0.0 and metrics["rouge_1"] == 0.0  # upstream: [] -> 0

    log = _run(
        {"data_path": data, "explain_mode": "whole_list"},
        "baseline/copy-input",
        "baseline/word-overlap-judge",
    )
    metrics = metrics_of(log)
    assert metrics["explanation_failure_rate"] == 0.0
    assert 0.0 < metrics["s_match_mean"] < 1.0


def test_bad_parameters_fail_fast(demo_dir: Path) -> None:
    with pytest.raises(ValueError, match="context_words"):
        expdesign(data_path=str(demo_dir), context_words=0, embedding_model=OFFLINE_MODEL)
    with pytest.raises(ValueError, match="explain_mode"):
        expdesign(data_path=str(demo_dir), explain_mode="all", embedding_model=OFFLINE_MODEL)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="judge_prompt"):
        expdesign(data_path=str(demo_dir), judge_prompt="v3", embedding_model=OFFLINE_MODEL)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="word_counting"):
        expdesign(data_path=str(demo_dir), word_counting="bytes", embedding_model=OFFLINE_MODEL)  # type: ignore[arg-type]
