"""Rank correlations and their bootstrap CIs."""

from __future__ import annotations

import math

import pytest

from research_taste_evals.core.stats import (
    kendall_tau,
    rank_correlation_with_ci,
    spearman,
)

NAN = float("nan")


def test_spearman_hand_worked() -> None:
    # ranks differ by d = (0, 1, 1, 0): rho = 1 - 6 * 2 / (4 * (16 - 1)) = 0.8
    assert spearman([1, 2, 3, 4], [10, 30, 20, 40]) == pytest.approx(0.8)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


def test_kendall_hand_worked() -> None:
    # 6 pairs, one discordant (2nd, 3rd): tau = (5 - 1) / 6
    assert kendall_tau([1, 2, 3, 4], [10, 30, 20, 40]) == pytest.approx(4 / 6)


@pytest.mark.parametrize("function", [spearman, kendall_tau])
@pytest.mark.parametrize(
    ("x", "y"),
    [
        ([], []),
        ([1, 2], [2, 1]),
        ([1, 2, 3], [5, 5, 5]),
        ([7, 7, 7], [1, 2, 3]),
        ([1, 2, NAN, 4], [1, 2, 3, 4]),
        ([1, 2, 3, math.inf], [1, 2, 3, 4]),
    ],
)
def test_degenerate_input_is_nan_not_an_error(function, x, y) -> None:
    assert math.isnan(function(x, y))


def test_length_mismatch_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        spearman([1, 2, 3], [1, 2])


def test_rank_correlation_with_ci_is_seeded_and_brackets_the_estimate() -> None:
    ratings = {f"p{i}": float(i) for i in range(20)}
    truth = {f"p{i}": float(i + (3 if i % 4 == 0 else 0)) for i in range(20)}
    first = rank_correlation_with_ci(ratings, truth, seed=7, resamples=200)
    again = rank_correlation_with_ci(dict(reversed(ratings.items())), truth, seed=7, resamples=200)
    other = rank_correlation_with_ci(ratings, truth, seed=8, resamples=200)
    assert first == again  # same seed, same CI, whatever the dict order
    assert (first["ci_low"], first["ci_high"]) != (other["ci_low"], other["ci_high"])
    assert first["rho"] == pytest.approx(spearman(list(ratings.values()), list(truth.values())))
    assert first["ci_low"] <= first["rho"] <= first["ci_high"] <= 1.0
    assert first["n"] == 20


def test_rank_correlation_with_ci_kendall_and_unmatched_ids() -> None:
    ratings = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0, "only_rated": 9.0}
    truth = {"a": 30.0, "b": 10.0, "c": 20.0, "d": 0.0, "e": NAN}
    result = rank_correlation_with_ci(ratings, truth, method="kendall", resamples=50)
    assert result["n"] == 4
    assert result["rho"] == pytest.approx(4 / 6)


def test_rank_correlation_with_ci_degenerate_is_nan() -> None:
    result = rank_correlation_with_ci({"a": 1.0, "b": 2.0}, {"a": 1.0, "b": 2.0})
    assert math.isnan(result["rho"]) and math.isnan(result["ci_low"])
    assert result["n"] == 2
    with pytest.raises(ValueError, match="method"):
        rank_correlation_with_ci({}, {}, method="pearson")  # type: ignore[arg-type]
