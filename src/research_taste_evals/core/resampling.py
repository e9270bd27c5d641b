"""Seeded bootstrap figures that resample whole rows: a rank correlation with its CI (vectorised
over resamples) and the difference between a subset's figure and the whole set's. The plain
statistics they resample are core/stats.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    DEFAULT_CI_LEVEL,
    NAN,
    RankMethod,
    kendall_tau,
    spearman,
)

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import


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
    import numpy as np

    if method not in RANK_CORRELATIONS:
        raise ValueError(f"method must be one of {sorted(RANK_CORRELATIONS)}, got {method!r}")
    correlate = RANK_CORRELATIONS[method]
    ids = sorted(
        key
        for key in ratings.keys() & truth.keys()
        if math.isfinite(ratings[key]) and math.isfinite(truth[key])
    )
    xs = np.array([float(ratings[key]) for key in ids])
    ys = np.array([float(truth[key]) for key in ids])
    rho = correlate(xs.tolist(), ys.tolist())
    if math.isnan(rho):
        return {"rho": rho, "ci_low": NAN, "ci_high": NAN, "n": float(len(ids))}
    # The same resamples as ``bootstrap_ci`` draws one by one (one seeded stream, in order),
    # correlated all at once: these CIs run inside Inspect's live metrics, on the event loop.
    picks = np.random.default_rng(seed).integers(0, len(ids), size=(resamples, len(ids)))
    values = _row_correlations(xs[picks], ys[picks], method)
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return {"rho": rho, "ci_low": NAN, "ci_high": NAN, "n": float(len(ids))}
    alpha = (1 - level) / 2
    low, high = np.quantile(values, [alpha, 1 - alpha])
    return {"rho": rho, "ci_low": float(low), "ci_high": float(high), "n": float(len(ids))}


ROWS_PER_BLOCK_ELEMENTS = 2_000_000  # bounds the (rows, n, n) sign arrays of tau (~16 MB each)


def _row_correlations(xs: np.ndarray, ys: np.ndarray, method: RankMethod) -> np.ndarray:
    """Each row's Spearman rho (average ranks) or Kendall tau-b; NaN for a constant side.

    Row-wise equal to :func:`spearman` / :func:`kendall_tau` (scipy's) on the same values.
    """
    import numpy as np

    if method == "spearman":
        from scipy.stats import rankdata  # imported here: slow import (registry start-up)

        rx, ry = rankdata(xs, axis=1), rankdata(ys, axis=1)
        rx -= rx.mean(axis=1, keepdims=True)
        ry -= ry.mean(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(
                (rx * ry).sum(axis=1) / np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
            )
    n = xs.shape[1]
    block = max(1, ROWS_PER_BLOCK_ELEMENTS // (n * n))
    out = np.empty(len(xs))
    for start in range(0, len(xs), block):
        sx = np.sign(xs[start : start + block, :, None] - xs[start : start + block, None, :])
        sy = np.sign(ys[start : start + block, :, None] - ys[start : start + block, None, :])
        # tau-b = (P - Q) / sqrt((P + Q + ties in y only) (P + Q + ties in x only)).
        concordance = (sx * sy).sum(axis=(1, 2))
        untied_x, untied_y = np.abs(sx).sum(axis=(1, 2)), np.abs(sy).sum(axis=(1, 2))
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + block] = concordance / np.sqrt(untied_x * untied_y)
    return out


# Bootstrap resamples drawn at once; bounds memory at chunk x units integers.
_BOOTSTRAP_CHUNK = 1000


def bootstrap_subset_difference(
    values: Sequence[float],
    in_a: Sequence[bool],
    in_b: Sequence[bool],
    *,
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    level: float = DEFAULT_CI_LEVEL,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> dict[str, float]:
    """Difference of means between two subsets of units, with a seeded bootstrap CI and p-value.

    Each resample draws all units with replacement (units in neither subset included, so the
    subset sizes vary as they would in a new sample), and recomputes
    delta* = mean(values in A) - mean(values in B). The CI is the percentile interval; the
    two-sided p-value is min(2 P(delta* <= 0), 1) when the observed delta >= 0, else
    min(2 P(delta* >= 0), 1); ``p_value_paper`` is the strict-inequality form some papers
    print. Resamples where a subset is empty are skipped.

    Args:
        values: One value per unit (e.g. 1.0 if the unit was answered correctly).
        in_a: Whether each unit belongs to subset A.
        in_b: Whether each unit belongs to subset B (disjoint from A).
        resamples: Bootstrap resamples B.
        level: Confidence level of the interval.
        seed: Seed of the resampling.

    Returns:
        {"delta", "ci_low", "ci_high", "p_value", "p_value_paper", "n_a", "n_b"}; NaN fields
        when undefined.
    """
    import numpy as np

    x = np.asarray(values, dtype=float)
    a = np.asarray(in_a, dtype=bool)
    b = np.asarray(in_b, dtype=bool)
    if not (len(x) == len(a) == len(b)):
        raise ValueError("values, in_a and in_b must have the same length")
    result = {"n_a": float(a.sum()), "n_b": float(b.sum())}
    if not a.any() or not b.any():
        return {
            "delta": NAN,
            "ci_low": NAN,
            "ci_high": NAN,
            "p_value": NAN,
            "p_value_paper": NAN,
            **result,
        }
    delta = float(x[a].mean() - x[b].mean())
    rng = np.random.default_rng(seed)
    deltas: list[np.ndarray] = []
    remaining = resamples
    while remaining > 0:
        size = min(_BOOTSTRAP_CHUNK, remaining)
        remaining -= size
        picks = rng.integers(0, len(x), size=(size, len(x)))
        count_a, count_b = a[picks].sum(axis=1), b[picks].sum(axis=1)
        sum_a, sum_b = (x * a)[picks].sum(axis=1), (x * b)[picks].sum(axis=1)
        ok = (count_a > 0) & (count_b > 0)
        deltas.append(sum_a[ok] / count_a[ok] - sum_b[ok] / count_b[ok])
    stars = np.concatenate(deltas)
    if len(stars) == 0:
        return {
            "delta": delta,
            "ci_low": NAN,
            "ci_high": NAN,
            "p_value": NAN,
            "p_value_paper": NAN,
            **result,
        }
    alpha = (1 - level) / 2
    low, high = np.quantile(stars, [alpha, 1 - alpha])
    # The printed formula counts resamples strictly beyond 0, so a difference that is 0 in
    # every resample (e.g. two identical subsets) gets p = 0; counting resamples at 0 as well
    # gives p = 1 there and agrees with it whenever no resample lands exactly on 0.
    strict = np.mean(stars < 0) if delta >= 0 else np.mean(stars > 0)
    inclusive = np.mean(stars <= 0) if delta >= 0 else np.mean(stars >= 0)
    return {
        "delta": delta,
        "ci_low": float(low),
        "ci_high": float(high),
        "p_value": min(2 * float(inclusive), 1.0),
        "p_value_paper": min(2 * float(strict), 1.0),
        **result,
    }
