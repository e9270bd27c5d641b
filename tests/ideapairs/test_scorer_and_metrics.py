"""Answer parsing, logprob probabilities, the pair value, and the dataset-level metrics."""

from __future__ import annotations

import math
from typing import Any

import pytest
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    Logprob,
    Logprobs,
    ModelOutput,
    TopLogprob,
)
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.ideapairs.metrics import (
    accuracy_summary,
    bias_summary,
    calibration_summary,
    ranking_summary,
)
from research_taste_evals.ideapairs.parsing import parse_answer, parse_confidence
from research_taste_evals.ideapairs.scorer import pair_value
from research_taste_evals.ideapairs.solvers import logprob_probability_b


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("Reasoning...\nAnswer: A\nConfidence: 0.7", "A"),
        ("**Answer:** B", "B"),
        ("answer: b", "B"),
        ("Answer: A\n...\nAnswer: B", None),  # contradictory
        ("I think A is better.", None),
        ("Answer: Idea A", "A"),
        ("**B**", "B"),  # a reply that is only the letter
        ("A or B", None),
    ],
)
def test_parse_answer_is_strict(text: str, answer: str | None) -> None:
    assert parse_answer(text) == answer


def test_parse_confidence() -> None:
    assert parse_confidence("Answer: A\nConfidence: 0.7") == 0.7
    assert parse_confidence("Confidence: 80%") == 0.8
    assert parse_confidence("Confidence: 7") is None
    assert parse_confidence("no confidence") is None


def _output(tokens: list[tuple[str, float, list[tuple[str, float]]]]) -> ModelOutput:
    content = [
        Logprob(token=t, logprob=lp, top_logprobs=[TopLogprob(token=a, logprob=b) for a, b in top])
        for t, lp, top in tokens
    ]
    text = "".join(t for t, _, _ in tokens)
    choice = ChatCompletionChoice(
        message=ChatMessageAssistant(content=text), logprobs=Logprobs(content=content)
    )
    return ModelOutput(model="m", choices=[choice])


def test_probability_from_logprobs_at_the_answer_letter() -> None:
    output = _output(
        [
            ("A", math.log(0.5), []),  # an "A" that is not the answer
            ("Answer", 0.0, []),
            (":", 0.0, []),
            (
                " B",
                math.log(0.6),
                [(" B", math.log(0.6)), (" A", math.log(0.3)), ("C", math.log(0.1))],
            ),
        ]
    )
    assert logprob_probability_b(output) == pytest.approx(0.6 / 0.9)
    assert logprob_probability_b(ModelOutput.from_content("m", "Answer: B")) is None
    bare = _output([("B", math.log(0.8), [("B", math.log(0.8)), ("A", math.log(0.2))])])
    assert logprob_probability_b(bare) == pytest.approx(0.8)


def _meta() -> dict[str, Any]:
    return {
        "better_id": "x",
        "worse_id": "y",
        "orders": {
            "original": {"idea_a": "x", "idea_b": "y", "label": "A"},
            "swapped": {"idea_a": "y", "idea_b": "x", "label": "B"},
        },
    }


def _answers(
    original: str, swapped: str, p_orig: float | None = None, p_swap: float | None = None
) -> dict[str, Any]:
    return {
        "original": {"completion": original, "p_b_logprobs": p_orig},
        "swapped": {"completion": swapped, "p_b_logprobs": p_swap},
    }


def test_pair_value_consistency_and_debiased_probability() -> None:
    value, details = pair_value(_meta(), _answers("Answer: A", "Answer: B", 0.2, 0.6))
    assert value["correct"] == 1.0 and value["consistent"] == 1.0 and value["verdict"] == 1.0
    # p~ = (p_orig + 1 - p_swap) / 2 = (0.2 + 0.4) / 2; y = 0 (the original's A is better).
    assert value["p_debiased"] == pytest.approx(0.3)
    assert value["y"] == 0.0 and value["p_from_logprobs"] == 1.0
    assert details["probability_sources"] == {"original": "logprobs", "swapped": "logprobs"}
    value, _ = pair_value(
        _meta(), _answers("Answer: A\nConfidence: 0.9", "Answer: A\nConfidence: 0.6")
    )
    assert value["correct"] == 0.0 and value["consistent"] == 0.0 and value["verdict"] == 0.0
    # Verbalised: P(B) = 1 - 0.9 in the original, 1 - 0.6 in the swap.
    assert value["p_debiased"] == pytest.approx((0.1 + 1 - 0.4) / 2)
    assert value["p_from_logprobs"] == 0.0
    value, _ = pair_value(_meta(), _answers("Answer: B", "Answer: A"))
    assert value["verdict"] == -1.0 and math.isnan(value["p_debiased"])


def _score(value: dict[str, float], **metadata: Any) -> SampleScore:
    return SampleScore(score=Score(value=value), sample_id="s", sample_metadata=metadata)


def test_accuracy_summary_counts_conditional_and_nan_when_empty() -> None:
    scores = [
        _score(
            {
                "correct": 1.0,
                "consistent": 1.0,
                "original_correct": 1.0,
                "swapped_correct": 1.0,
                "unparsed": 0.0,
            }
        ),
        _score(
            {
                "correct": 0.0,
                "consistent": 1.0,
                "original_correct": 0.0,
                "swapped_correct": 0.0,
                "unparsed": 0.0,
            }
        ),
        _score(
            {
                "correct": 0.0,
                "consistent": 0.0,
                "original_correct": 0.0,
                "swapped_correct": 0.0,
                "unparsed": 1.0,
            }
        ),
    ]
    summary = accuracy_summary(scores)
    assert summary["accuracy"] == pytest.approx(1 / 3)
    assert summary["conditional_accuracy"] == 0.5
    assert summary["unparsed_rate"] == pytest.approx(1 / 6)
    assert math.isnan(accuracy_summary([])["accuracy"])


def _ranked(
    board: str, better: str, worse: str, verdict: float, scores: dict[str, float]
) -> SampleScore:
    ideas = {i: {"unified_score": scores[i]} for i in (better, worse)}
    return _score(
        {"verdict": verdict},
        benchmark_id=board,
        split="test",
        ideas=ideas,
        better_id=better,
        worse_id=worse,
    )


def test_ranking_top1_needs_two_distinct_predicted_ranks() -> None:
    truth = {"a": 0.9, "b": 0.5, "c": 0.1}
    right = [
        _ranked("r", "a", "b", 1, truth),
        _ranked("r", "a", "c", 1, truth),
        _ranked("r", "b", "c", 1, truth),
    ]
    # Every comparison inconsistent: all ideas tie at rank 1, so Top-1 is not counted.
    tied = [
        _ranked("t", "a", "b", 0, truth),
        _ranked("t", "a", "c", 0, truth),
        _ranked("t", "b", "c", 0, truth),
    ]
    summary = ranking_summary(right + tied)
    assert summary["ranking/leaderboards"] == 2 and summary["ranking/leaderboards_top1"] == 1
    assert summary["top1_accuracy"] == 1.0
    # RMSE: 0 for the right board; ranks (1,1,1) vs (1,2,3) -> sqrt(5/3) for the tied one.
    assert summary["ranking/rmse_mean"] == pytest.approx(math.sqrt(5 / 3) / 2)


def test_calibration_summary_uses_pairs_with_probabilities() -> None:
    scores = [
        _score({"p_debiased": 0.9, "y": 1.0, "p_from_logprobs": 1.0}),
        _score({"p_debiased": 0.2, "y": 1.0, "p_from_logprobs": 0.0}),
        _score({"p_debiased": float("nan"), "y": 0.0, "p_from_logprobs": float("nan")}),
    ]
    summary = calibration_summary(scores)
    assert summary["calibration/pairs"] == 2
    assert summary["brier"] == pytest.approx((0.01 + 0.64) / 2)
    assert summary["calibration/logprob_share"] == 0.5


def test_bias_summary_splits_by_metadata_flags() -> None:
    scores = [_score({"correct": 1.0}, longer_better=True, newer_better=None)] * 20 + [
        _score({"correct": 0.0}, longer_better=False, newer_better=None)
    ] * 20
    summary = bias_summary(scores, resamples=500, seed=1)
    assert summary["length_bias/delta"] == 1.0 and summary["length_bias/n_a"] == 20
    assert math.isnan(summary["recency_bias/delta"])
