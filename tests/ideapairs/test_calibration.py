"""Brier, ECE and MCE against hand-worked values, and the subset-difference bootstrap."""

from __future__ import annotations

import math

import pytest

from research_taste_evals.core.resampling import bootstrap_subset_difference
from research_taste_evals.ideapairs.calibration import (
    brier_score,
    calibration_bins,
    expected_calibration_error,
    maximum_calibration_error,
)

# P(class 1) and labels. Top-label confidences: .95 .85 .75 .62 .5 .92 -> bins 9 8 7 6 5 9.
# Correct: 1, 0, 1, 1, 0.5 (p = .5 predicts neither class), 0.
P = [0.95, 0.85, 0.25, 0.62, 0.5, 0.92]
Y = [1, 0, 0, 1, 1, 0]


def test_brier_hand_worked() -> None:
    # (.05^2 + .85^2 + .25^2 + .38^2 + .5^2 + .92^2) / 6 = 2.0283 / 6
    assert brier_score(P, Y) == pytest.approx(2.0283 / 6)


def test_ece_and_mce_hand_worked() -> None:
    # Bin 9 holds .95 (right) and .92 (wrong): conf .935, acc .5, gap .435, weight 2/6.
    # Bins 8, 7, 6, 5: gaps .85, .25, .38, 0, weight 1/6 each.
    expected = [(1, 0.5, 0.5), (1, 0.62, 1.0), (1, 0.75, 1.0), (1, 0.85, 0.0), (2, 0.935, 0.5)]
    for got, want in zip(calibration_bins(P, Y), expected, strict=True):
        assert got == pytest.approx(want)
    assert expected_calibration_error(P, Y) == pytest.approx((2 * 0.435 + 0.85 + 0.25 + 0.38) / 6)
    assert maximum_calibration_error(P, Y) == pytest.approx(0.85)


def test_calibration_is_nan_without_data_and_skips_nan_probabilities() -> None:
    assert math.isnan(brier_score([], []))
    assert math.isnan(expected_calibration_error([float("nan")], [1]))
    assert math.isnan(maximum_calibration_error([], []))
    assert brier_score([1.0, float("nan")], [1, 0]) == 0.0


def test_calibration_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="labels"):
        brier_score([0.5], [2])
    with pytest.raises(ValueError, match="probabilities"):
        brier_score([1.5], [1])


def test_bootstrap_subset_difference_is_seeded_and_two_sided() -> None:
    values = [1.0] * 30 + [0.0] * 10 + [1.0] * 10 + [0.0] * 30
    in_a = [True] * 40 + [False] * 40
    in_b = [False] * 40 + [True] * 40
    first = bootstrap_subset_difference(values, in_a, in_b, resamples=2000, seed=5)
    again = bootstrap_subset_difference(values, in_a, in_b, resamples=2000, seed=5)
    assert first == again
    assert first["delta"] == pytest.approx(0.5)
    assert first["ci_low"] < 0.5 < first["ci_high"]
    assert first["p_value"] < 0.01
    null = bootstrap_subset_difference([1.0, 0.0] * 40, in_a, in_b, resamples=2000, seed=5)
    assert null["delta"] == 0.0 and null["p_value"] > 0.5
    empty = bootstrap_subset_difference([1.0], [True], [False])
    assert math.isnan(empty["delta"]) and empty["n_a"] == 1.0


def test_bootstrap_p_value_of_a_difference_that_is_always_zero() -> None:
    # Identical subsets: every resample's delta is exactly 0. The printed formula (strict
    # inequality) gives p = 0 -- "significant" -- the inclusive headline gives p = 1.
    stats = bootstrap_subset_difference(
        [1.0] * 20, [True] * 10 + [False] * 10, [False] * 10 + [True] * 10
    )
    assert stats["delta"] == 0.0
    assert stats["p_value"] == 1.0
    assert stats["p_value_paper"] == 0.0
