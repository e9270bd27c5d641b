"""Statistics shared by the benchmarks: pooled F1, seeded bootstrap CIs, rank correlations,
Cohen's kappa and mean with standard error. Undefined statistics are ``NAN``; nothing here raises
on degenerate data (only on a programming error such as inputs of different lengths)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
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
