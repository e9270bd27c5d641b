from __future__ import annotations

import math

from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.core.metrics import empty_prediction_rate, key_mean, key_ratio


def _scores(*values: object) -> list[SampleScore]:
    return [SampleScore(score=Score(value=v)) for v in values]  # type: ignore[arg-type]


def test_key_mean_skips_missing_nan_and_non_numbers() -> None:
    scores = _scores({"a": 1.0}, {"a": math.nan}, {"a": 0.0}, {"b": 5.0}, {"a": True}, 0.7)
    assert key_mean("a")(scores) == 0.5
    assert math.isnan(key_mean("missing")(scores))
    assert math.isnan(key_mean("a")([]))


def test_key_ratio_pools_over_samples() -> None:
    scores = _scores({"bad": 1, "calls": 4}, {"bad": 0, "calls": 6}, {"bad": math.nan, "calls": 0})
    assert key_ratio("bad", "calls")(scores) == 0.1
    assert math.isnan(key_ratio("bad", "calls")(_scores({"bad": 0, "calls": 0})))


def test_empty_prediction_rate() -> None:
    assert (
        empty_prediction_rate()(_scores({"empty_prediction": 1.0}, {"empty_prediction": 0.0}))
        == 0.5
    )
