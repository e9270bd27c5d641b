"""End to end: realistic answer shapes give the canonical metrics; unparsed answers are missed.

Issue #17: answers written the way chat and reasoning models write them (prose around a fence,
a ``<think>`` preamble, string ids, lowercase labels, a one-line fence with a note) must give
exactly the metrics of the canonical JSON answers with the same decisions, with unparsed rate
0; and a run where some answers stay unparsed has a headline recall below the parsed-only
recall by exactly the deficient segments it missed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, Model
from log_metrics import every_figure_of as metrics_of
from reviewcritique_responders import Responder, gold_responder, is_select, listing, prompt_of

from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique
from research_taste_evals.reviewcritique.metrics import STRATEGIES
from research_taste_evals.reviewcritique.reviewcritique import review_critique

# The demo review whose one deficient segment (of 3) the model fails to answer about.
FAILED_REVIEW_SEGMENT = "Low-resource languages are ignored."
DEMO_DEFICIENT = 6


def _shape(answer: dict[str, list[dict[str, object]]], call: int) -> str:
    """The canonical answer written in one of five shapes real models produce."""
    body = json.dumps(answer, indent=2)
    kind = call % 5
    if kind == 0:
        return f"Here is my assessment of each segment.\n\n```json\n{body}\n```\nHope this helps!"
    if kind == 1:
        return f"<think>\nSegment 1 summarises. {{not json}}\n</think>\n\n{json.dumps(answer)}"
    if kind == 2:  # ids as strings, labels lower case
        entries = [
            {**e, "id": str(e["id"]), **({"reliability": str(e["reliability"]).lower()}
                                          if "reliability" in e else {})}
            for e in next(iter(answer.values()))
        ]  # fmt: skip
        return json.dumps({next(iter(answer)): entries})
    if kind == 3:
        return f"```json\n{json.dumps(answer)}\n```\nNote: I judged each segment independently."
    return f"**Answer**\n{body}"


def _decision_responder(data_path: Path, flag: Callable[[dict[str, object]], bool]) -> Responder:
    """Canonical JSON answers flagging the segments ``flag`` picks (same decision both prompts)."""
    task = review_critique(data_path=str(data_path), bertscore_model=OFFLINE_MODEL)
    segments = {listing(str(s.input)): (s.metadata or {})["segments"] for s in task.dataset}

    def respond(messages: list[ChatMessage]) -> str:
        review = segments[listing(prompt_of(messages))]
        if is_select(messages):
            chosen = [{"id": s["id"], "explanation": "weak"} for s in review if flag(s)]
            return json.dumps({"deficient_segments": chosen})
        labels = [
            {"id": s["id"], "reliability": "No" if flag(s) else "Yes", "explanation": "weak"}
            for s in review
        ]
        return json.dumps({"segments": labels})

    return respond


def _metrics(tmp_path: Path, model: Model, data_path: Path, **args: object) -> dict[str, float]:
    task = review_critique(data_path=str(data_path), bertscore_model=OFFLINE_MODEL, **args)
    logs = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none")
    return metrics_of(logs[0])


def test_realistic_shapes_give_the_canonical_metrics(
    tmp_path: Path, scripted_model: Callable[[Responder], Model]
) -> None:
    path = write_demo_reviewcritique(tmp_path / "data")

    # A non-trivial decision: odd ids deficient (right on some segments, wrong on others).
    def flag(segment: dict[str, object]) -> bool:
        return int(str(segment["id"])) % 2 == 1

    canonical = _decision_responder(path, flag)
    calls: list[int] = []

    def shaped(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return _shape(json.loads(canonical(messages)), len(calls))

    reference = _metrics(tmp_path / "canonical", scripted_model(canonical), path)
    metrics = _metrics(tmp_path / "shaped", scripted_model(shaped), path)
    assert len(calls) == 10  # no re-ask was needed
    assert metrics["unparsed_rate"] == 0.0 and metrics["reasked_rate"] == 0.0
    for strategy in STRATEGIES:
        for figure in ("precision", "recall", "f1", "f1_parsed_only", "f1_ci_low"):
            key = f"{strategy}_{figure}"
            assert metrics[key] == pytest.approx(reference[key], nan_ok=True), key
    assert 0.0 < reference["either_no_f1"] < 1.0


def test_unparsed_review_counts_its_deficient_segments_as_missed(
    tmp_path: Path, scripted_model: Callable[[Responder], Model]
) -> None:
    path = write_demo_reviewcritique(tmp_path / "data")
    gold = gold_responder(path)

    def respond(messages: list[ChatMessage]) -> str:
        if FAILED_REVIEW_SEGMENT in prompt_of(messages):
            return "Segment 2 is the weak one, I think."  # no JSON: unparsed, twice
        return gold(messages)

    metrics = _metrics(tmp_path, scripted_model(respond), path)
    # 5 reviews x 2 prompts = 10 answers; the failed review's 2 were re-asked and stayed unparsed.
    assert metrics["unparsed_rate"] == pytest.approx(2 / 10)
    assert metrics["reasked_rate"] == pytest.approx(2 / 10)
    # Hand-worked: 6 deficient segments in the demo file, 1 in the failed review. Every other
    # answer is gold: parsed-only recall 5/5; headline recall counts the missed one, 5/6.
    assert metrics["parsed_only_segments"] == 17.0 - 3.0
    for strategy in STRATEGIES:
        missed = metrics[f"{strategy}_undecided_deficient_segments"]
        assert missed == 1.0
        assert metrics[f"{strategy}_recall_parsed_only"] == 1.0
        assert metrics[f"{strategy}_recall"] == pytest.approx(
            (DEMO_DEFICIENT - missed) / DEMO_DEFICIENT
        )
        assert metrics[f"{strategy}_precision"] == metrics[f"{strategy}_precision_parsed_only"]
        assert metrics[f"{strategy}_f1"] == pytest.approx(2 * 5 / (2 * 5 + 0 + 1))


def test_reask_zero_is_one_call_perprompt_of(
    tmp_path: Path, scripted_model: Callable[[Responder], Model]
) -> None:
    path = write_demo_reviewcritique(tmp_path / "data")
    gold = gold_responder(path)
    calls: list[str] = []

    def respond(messages: list[ChatMessage]) -> str:
        calls.append(prompt_of(messages))
        # The first Labeling-All answer per review is prose; a re-ask would get gold JSON.
        first = sum(c == calls[-1] for c in calls) == 1
        return "I am not sure." if first and not is_select(messages) else gold(messages)

    single = _metrics(tmp_path / "single", scripted_model(respond), path, reask=0)
    assert len(calls) == 10 and single["labeling_all_unparsed_rate"] == 1.0
    assert single["reasked_rate"] == 0.0
    calls.clear()
    again = _metrics(tmp_path / "again", scripted_model(respond), path)
    assert len(calls) == 15  # each Labeling-All answer asked once more
    assert again["labeling_all_reasked_rate"] == 1.0 and again["unparsed_rate"] == 0.0
    assert again["labeling_all_f1"] == 1.0
