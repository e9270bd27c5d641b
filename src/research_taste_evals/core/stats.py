"""Statistics shared by the benchmarks: pooled F1, seeded bootstrap CIs, rank correlations."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

import numpy as np
from scipy import stats as scipy_stats

NAN = float("nan")
DEFAULT_BOOTSTRAP_SEED = 20241029
DEFAULT_BOOTSTRAP_RESAMPLES = 1000
DEFAULT_CI_LEVEL = 0.95
# Fewer points than this make a rank correlation meaningless (two points are always +-1).
MIN_CORRELATION_POINTS = 3

RankMethod = Literal["spearman", "kendall"]


def precision_recall_f1(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """Binary precision, recall and F1 from (possibly fractional) pooled counts.

    Counts may be fractional because Inspect averages a sample's values over epochs; the ratios
    are scale-invariant, so this equals F1 pooled over every epoch's decisions. Undefined ratios
    (no predicted or no actual positives) are NaN, matching the counts rather than inventing 0.
    """
    precision = tp / (tp + fp) if tp + fp > 0 else NAN
    recall = tp / (tp + fn) if tp + fn > 0 else NAN
    if tp + fp + fn == 0:
        return precision, recall, NAN
    f1 = 2 * tp / (2 * tp + fp + fn)
    return precision, recall, f1


def bootstrap_ci(
    units: Sequence[object],
    statistic: Callable[[Sequence[object]], float],
    *,
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    level: float = DEFAULT_CI_LEVEL,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> tuple[float, float]:
    """Seeded percentile bootstrap CI of ``statistic`` over resampled ``units``.

    Resamples whose statistic is undefined (NaN) are skipped; if none is defined, (NaN, NaN).
    """
    if len(units) == 0:
        return NAN, NAN
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(resamples):
        picks = rng.integers(0, len(units), size=len(units))
        value = statistic([units[i] for i in picks])
        if not math.isnan(value):
            values.append(value)
    if not values:
        return NAN, NAN
    alpha = (1 - level) / 2
    low, high = np.quantile(values, [alpha, 1 - alpha])
    return float(low), float(high)


def _paired_arrays(x: Sequence[float], y: Sequence[float]) -> tuple[np.ndarray, np.ndarray] | None:
    """Float arrays of x and y, or None when a correlation is undefined on them.

    Undefined: fewer than ``MIN_CORRELATION_POINTS`` points, a non-finite value, or a constant
    side. Raises ValueError only on a programming error (lengths differ).
    """
    if len(x) != len(y):
        raise ValueError(f"correlation inputs differ in length: {len(x)} vs {len(y)}")
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    if len(xs) < MIN_CORRELATION_POINTS:
        return None
    if not (np.all(np.isfinite(xs)) and np.all(np.isfinite(ys))):
        return None
    if np.all(xs == xs[0]) or np.all(ys == ys[0]):
        return None
    return xs, ys


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation (average ranks for ties); NaN when undefined, never raises.

    Undefined means fewer than three points, a NaN/infinite value or a constant side.
    """
    arrays = _paired_arrays(x, y)
    if arrays is None:
        return NAN
    return float(scipy_stats.spearmanr(*arrays).statistic)


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b (tie-corrected); NaN when undefined (see ``spearman``), never raises."""
    arrays = _paired_arrays(x, y)
    if arrays is None:
        return NAN
    return float(scipy_stats.kendalltau(*arrays).statistic)


RANK_CORRELATIONS: dict[str, Callable[[Sequence[float], Sequence[float]], float]] = {
    "spearman": spearman,
    "kendall": kendall_tau,
}


def rank_correlation_with_ci(
    ratings: Mapping[str, float],
    truth: Mapping[str, float],
    method: RankMethod = "spearman",
    *,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    level: float = DEFAULT_CI_LEVEL,
) -> dict[str, float]:
    """Rank correlation between two {id: value} maps with a seeded percentile bootstrap CI.

    Only ids present in both maps with finite values count. The bootstrap resamples those ids
    (papers) with replacement; ids are taken in sorted order, so the CI does not depend on the
    maps' insertion order.

    Args:
        ratings: A rating per id (e.g. Elo or Bradley-Terry).
        truth: The reference value per id (e.g. citation velocity).
        method: "spearman" (rho) or "kendall" (tau-b).
        seed: Bootstrap seed.
        resamples: Bootstrap resamples.
        level: Confidence level of the interval.

    Returns:
        {"rho": correlation, "ci_low", "ci_high", "n": ids used}; NaN fields when undefined.
    """
    if method not in RANK_CORRELATIONS:
        raise ValueError(f"method must be one of {sorted(RANK_CORRELATIONS)}, got {method!r}")
    correlate = RANK_CORRELATIONS[method]
    ids = sorted(
        key
        for key in ratings.keys() & truth.keys()
        if math.isfinite(ratings[key]) and math.isfinite(truth[key])
    )
    pairs = [(float(ratings[key]), float(truth[key])) for key in ids]

    def statistic(sample: Sequence[object]) -> float:
        xs = [pair[0] for pair in sample]  # type: ignore[index]
        ys = [pair[1] for pair in sample]  # type: ignore[index]
        return correlate(xs, ys)

    rho = statistic(pairs)
    if math.isnan(rho):
        low, high = NAN, NAN
    else:
        low, high = bootstrap_ci(pairs, statistic, resamples=resamples, level=level, seed=seed)
    return {"rho": rho, "ci_low": low, "ci_high": high, "n": float(len(ids))}


PARTIAL_EPSILON = 1e-12


def partial_spearman(x: Sequence[float], y: Sequence[float], z: Sequence[float]) -> float:
    """Spearman correlation of ``x`` and ``y`` controlling for ``z`` (partial rank correlation).

    The first-order partial correlation formula applied to Spearman coefficients:
    (r_xy - r_xz r_yz) / sqrt((1 - r_xz^2) (1 - r_yz^2)). NaN when any coefficient is
    undefined (see ``spearman``) or ``z`` fully explains ``x`` or ``y`` (|r| = 1); never raises.
    """
    r_xy, r_xz, r_yz = spearman(x, y), spearman(x, z), spearman(y, z)
    denominator = (1.0 - r_xz**2) * (1.0 - r_yz**2)
    # |r| = 1 can come out as 1 - 1e-16: treat a vanishing denominator as zero.
    if any(math.isnan(value) for value in (r_xy, r_xz, r_yz)) or denominator <= PARTIAL_EPSILON:
        return NAN
    return float((r_xy - r_xz * r_yz) / math.sqrt(denominator))
