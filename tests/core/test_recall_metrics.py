"""Recall metric helpers: the headline on post-cutoff samples, and recognized_rate."""

from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.core.recall_metrics import (
    post_cutoff_values,
    recognition_values,
    unrecognized_items,
    unrecognized_values,
)


def _score(
    correct: float, post: bool | None, recall: dict[str, object] | None = None
) -> SampleScore:
    metadata = {"post_cutoff": post, "recall": recall or {}}
    return SampleScore(score=Score(value=correct, metadata=metadata), sample_id=id(metadata))


def _accuracy(scores: list[SampleScore]) -> dict[str, float]:
    values = [s.score.as_float() for s in scores]
    mean = sum(values) / len(values)
    return {"accuracy": mean, "accuracy_ci_low": mean - 0.1, "other": 5.0}


def test_post_cutoff_values_hand_worked() -> None:
    # Post-cutoff: 1, 0, 1 -> 2/3; the pre-cutoff 0s and the undated sample are left out.
    scores = [_score(1, True), _score(0, True), _score(1, True), _score(0, False), _score(0, None)]
    values = post_cutoff_values(scores, "accuracy", _accuracy)
    assert values == pytest.approx(
        {
            "accuracy_post_cutoff": 2 / 3,
            "accuracy_post_cutoff_ci_low": 2 / 3 - 0.1,
            "post_cutoff_samples": 3.0,
        }
    )
    # A known cutoff with no post-cutoff sample: NaN statistic, count 0.
    none_after = post_cutoff_values([_score(1, False)], "accuracy", _accuracy)
    assert math.isnan(none_after["accuracy_post_cutoff"]) and none_after["post_cutoff_samples"] == 0
    # No cutoff known: both NaN.
    unknown = post_cutoff_values([_score(1, None)], "accuracy", lambda s: 1.0)
    assert math.isnan(unknown["accuracy_post_cutoff"]) and math.isnan(
        unknown["post_cutoff_samples"]
    )


def test_recognition_values_over_distinct_unleaked_items() -> None:
    seen = {"recognized": True, "identity_leak": False}
    unseen = {"recognized": False, "identity_leak": False}
    leaked = {"recognized": None, "identity_leak": True}
    failed = {"recognized": None, "identity_leak": False}
    scores = [
        _score(1, None, {"a": seen, "b": unseen}),
        _score(1, None, {"a": seen, "c": unseen}),  # "a" again: counted once
        _score(1, None, {"d": leaked, "e": failed}),
    ]
    assert recognition_values(scores) == {
        "recognized_rate": pytest.approx(1 / 3),
        "recognized_items": 1.0,
        "probed_items": 3.0,
        "leaked_items": 1.0,
    }
    assert unrecognized_items(scores) == {"b", "c"}
    all_leak = recognition_values([_score(1, None, {"d": leaked})])
    assert math.isnan(all_leak["recognized_rate"]) and all_leak["leaked_items"] == 1
    assert math.isnan(recognition_values([_score(1, None)])["recognized_rate"])  # probe off
    assert unrecognized_items([_score(1, None)]) is None


def test_unrecognized_values_hand_worked() -> None:
    seen = {"recognized": True, "identity_leak": False}
    unseen = {"recognized": False, "identity_leak": False}
    leaked = {"recognized": None, "identity_leak": True}
    scores = [
        _score(1, None, {"a": unseen, "b": unseen}),  # kept
        _score(0, None, {"a": unseen, "c": seen}),  # one recognised: out
        _score(0, None, {"d": leaked, "b": unseen}),  # a leak is not "unrecognised": out
        _score(0, None, {"b": unseen, "e": unseen}),  # kept
    ]
    values = unrecognized_values(scores, "accuracy", lambda s: _accuracy(s)["accuracy"])
    assert values == {"accuracy_unrecognized": 0.5, "unrecognized_samples": 2.0}
    off = unrecognized_values([_score(1, None)], "accuracy", lambda s: 1.0)
    assert math.isnan(off["accuracy_unrecognized"]) and math.isnan(off["unrecognized_samples"])
