"""Rank correlations and their bootstrap CIs."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from research_taste_evals.core.resampling import RANK_CORRELATIONS, rank_correlation_with_ci
from research_taste_evals.core.stats import (
    bootstrap_ci,
    cohen_kappa,
    kendall_tau,
    mean_and_stderr,
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


def test_spearman_needs_three_points_because_two_are_always_perfect() -> None:
    # Two distinct points always rank perfectly (+-1): NaN says "no information" instead.
    assert math.isnan(spearman([1, 2], [5, 9]))
    assert spearman([1, 2, 3], [5, 9, 7]) == pytest.approx(0.5)


def test_cohen_kappa_hand_worked() -> None:
    # p_o = 1/4; p_e = P(a=6) P(b=6) = 0.5 * 0.25 = 1/8; kappa = (1/4 - 1/8) / (7/8) = 1/7
    assert cohen_kappa([6, 6, 7, 5], [4, 6, 8, 3]) == pytest.approx(1 / 7)
    # quadratic weights on a 0..2 scale: one disagreement by 2 out of three items
    assert cohen_kappa([0, 1, 2], [0, 1, 0], labels=[0, 1, 2], weights="quadratic") == (
        pytest.approx(0.0)
    )


@pytest.mark.parametrize(("a", "b"), [([], []), ([3], [3]), ([2, 2, 2], [2, 2, 2])])
def test_cohen_kappa_undefined_is_nan(a: list[int], b: list[int]) -> None:
    assert math.isnan(cohen_kappa(a, b))


def test_cohen_kappa_length_mismatch_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        cohen_kappa([1, 2], [1])


def test_mean_and_stderr_skips_nan_and_is_nan_when_undefined() -> None:
    # values 1, 2, 3: sample variance 1, stderr = sqrt(1 / 3)
    mean, stderr = mean_and_stderr([1.0, NAN, 2.0, 3.0])
    assert mean == pytest.approx(2.0) and stderr == pytest.approx(math.sqrt(1 / 3))
    single = mean_and_stderr([4.0, NAN])
    assert single[0] == 4.0 and math.isnan(single[1])
    assert all(math.isnan(v) for v in mean_and_stderr([NAN]))
    assert all(math.isnan(v) for v in mean_and_stderr([]))


@pytest.mark.parametrize("method", ["spearman", "kendall"])
def test_rank_correlation_ci_equals_the_one_by_one_bootstrap(method: str) -> None:
    """The vectorised resamples give the CI of bootstrap_ci over the scalar correlation."""
    rng = np.random.default_rng(3)
    for size in (3, 5, 12, 40):
        ratings = {f"p{i}": float(v) for i, v in enumerate(rng.integers(0, 6, size=size))}
        truth = {f"p{i}": float(v) for i, v in enumerate(rng.normal(size=size).round(1))}
        fast = rank_correlation_with_ci(ratings, truth, method, resamples=200)  # type: ignore[arg-type]
        pairs = [(ratings[key], truth[key]) for key in sorted(ratings)]

        def statistic(sample: Sequence[object]) -> float:
            xs, ys = [p[0] for p in sample], [p[1] for p in sample]  # type: ignore[index]
            return RANK_CORRELATIONS[method](xs, ys)

        low, high = bootstrap_ci(pairs, statistic, resamples=200)
        assert fast["ci_low"] == pytest.approx(low, abs=1e-12)
        assert fast["ci_high"] == pytest.approx(high, abs=1e-12)
