"""Statistics shared by the benchmarks: pooled F1, seeded bootstrap CIs, rank correlations,
Cohen's kappa and mean with standard error. Undefined statistics are ``NAN``; nothing here raises
on degenerate data (only on a programming error such as inputs of different lengths)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import


NAN = float("nan")
DEFAULT_BOOTSTRAP_SEED = 20241029
DEFAULT_BOOTSTRAP_RESAMPLES = 1000
DEFAULT_CI_LEVEL = 0.95
# Fewer points than this make a rank correlation meaningless: two distinct points are always
# +-1, so a "perfect" correlation from two points is an artefact, reported as NaN instead.
MIN_CORRELATION_POINTS = 3
# Cohen's kappa needs at least two rated items (one item has no chance-agreement estimate).
MIN_KAPPA_ITEMS = 2
KappaWeights = Literal["linear", "quadratic"]

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
    import numpy as np

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
    import numpy as np

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


def import_scipy() -> None:
    """Import the scipy modules these statistics use, now (about a second).

    scipy is imported inside the functions that use it, so importing the task registry stays
    light; a task whose metrics use it calls this when its metrics are built, so the import is
    not paid on the event loop mid-run (Inspect computes metrics for its live display after the
    first sample completes).
    """
    import scipy.optimize
    import scipy.special
    import scipy.stats  # noqa: F401


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rank correlation (average ranks for ties); NaN when undefined, never raises.

    Undefined means fewer than ``MIN_CORRELATION_POINTS`` (three) points, a NaN/infinite value
    or a constant side. Three, not two: with two distinct points rho is always +-1, whatever
    the data, so it carries no information and is reported as NaN.
    """
    arrays = _paired_arrays(x, y)
    if arrays is None:
        return NAN
    # imported here: scipy costs ~1 s, paid by every registry import (bench/registry_import.py)
    from scipy import stats as scipy_stats

    return float(scipy_stats.spearmanr(*arrays).statistic)


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b (tie-corrected); NaN when undefined (see ``spearman``), never raises."""
    arrays = _paired_arrays(x, y)
    if arrays is None:
        return NAN
    from scipy import stats as scipy_stats  # imported here, see spearman

    return float(scipy_stats.kendalltau(*arrays).statistic)


def cohen_kappa(
    a: Sequence[int],
    b: Sequence[int],
    *,
    labels: Sequence[int] | None = None,
    weights: KappaWeights | None = None,
) -> float:
    """Cohen's kappa between two raters (scikit-learn); NaN when undefined, never raises.

    Args:
        a: The first rater's category per item.
        b: The second rater's category per item (same length as ``a``).
        labels: Every category of the scale (so weighted kappa knows the full range); default
            the categories that occur.
        weights: None (unweighted), "linear" or "quadratic" disagreement weights.

    Returns:
        Kappa, or NaN with fewer than ``MIN_KAPPA_ITEMS`` items or when chance agreement is
        total (e.g. both raters use a single category).
    """
    import numpy as np

    if len(a) != len(b):
        raise ValueError(f"kappa inputs differ in length: {len(a)} vs {len(b)}")
    if len(a) < MIN_KAPPA_ITEMS:
        return NAN
    # Imported here, not at the top: every task imports this module (for NAN), and
    # scikit-learn adds seconds to that import for the one command-line report that needs it.
    from sklearn.metrics import cohen_kappa_score

    # scikit-learn warns and divides by zero when chance agreement is total: that is NaN here.
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        value = float(
            cohen_kappa_score(
                list(a), list(b), labels=None if labels is None else list(labels), weights=weights
            )
        )
    return value if math.isfinite(value) else NAN


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


def mean_and_stderr(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (n-1 denominator) of the finite ``values``.

    NaN values are skipped. With no finite value both are NaN; with one the mean is that
    value and the standard error is NaN (undefined), never 0.
    """
    import numpy as np

    finite = np.asarray([v for v in values if not math.isnan(v)], dtype=float)
    if finite.size == 0:
        return NAN, NAN
    mean = float(finite.mean())
    if finite.size < 2:
        return mean, NAN
    return mean, float(finite.std(ddof=1) / math.sqrt(finite.size))


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
