"""Calibration of binary probabilities: Brier score, ECE and MCE over equal-width bins.

Brier is the mean squared error of P(class 1) against the 0/1 label (scikit-learn's
``brier_score_loss``). ECE and MCE are top-label calibration errors (Guo et al. 2017): each
prediction's confidence is the probability of the class it predicts, ``max(p, 1 - p)``, the
confidences are cut into equal-width bins over [0, 1], and each bin's mean confidence is compared
with the share of its predictions that are right. ECE weights the gaps by bin size; MCE is the
largest gap over non-empty bins. A probability of exactly 0.5 predicts neither class, so it
counts as half right (the expected accuracy of the coin flip it stands for).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from research_taste_evals.core.stats import NAN

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

DEFAULT_CALIBRATION_BINS = 10


def _clean(probabilities: Sequence[float], labels: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Finite (probability, label) pairs as arrays; raises ValueError on a programming error."""
    import numpy as np

    if len(probabilities) != len(labels):
        raise ValueError(f"{len(probabilities)} probabilities but {len(labels)} labels")
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray(labels, dtype=float)
    keep = np.isfinite(p) & np.isfinite(y)
    p, y = p[keep], y[keep]
    if np.any((p < 0) | (p > 1)):
        raise ValueError("probabilities must lie in [0, 1]")
    if np.any((y != 0) & (y != 1)):
        raise ValueError("labels must be 0 or 1")
    return p, y


def import_sklearn() -> None:
    """Import ``sklearn.metrics`` now (with pandas, most of a second); see ``import_scipy``."""
    import sklearn.metrics  # noqa: F401


def brier_score(probabilities: Sequence[float], labels: Sequence[int]) -> float:
    """Mean of (p - y)^2 with p = P(class 1); NaN when there is no finite pair."""
    p, y = _clean(probabilities, labels)
    if len(p) == 0:
        return NAN
    # imported here: sklearn (and the pandas it pulls) cost ~0.8 s at registry import
    from sklearn.metrics import brier_score_loss

    return float(brier_score_loss(y.astype(int), p, labels=[0, 1]))


def calibration_bins(
    probabilities: Sequence[float], labels: Sequence[int], bins: int = DEFAULT_CALIBRATION_BINS
) -> list[tuple[int, float, float]]:
    """(count, mean confidence, accuracy) of each non-empty top-label confidence bin, in order.

    Bin b holds confidences in [b/B, (b+1)/B); a confidence of exactly 1 goes to the last bin.
    """
    import numpy as np

    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    p, y = _clean(probabilities, labels)
    confidence = np.maximum(p, 1 - p)
    predicted_one = p > 0.5
    correct = np.where(p == 0.5, 0.5, (predicted_one == (y == 1)).astype(float))
    index = np.minimum((confidence * bins).astype(int), bins - 1)
    table = []
    for b in range(bins):
        members = index == b
        count = int(members.sum())
        if count:
            table.append((count, float(confidence[members].mean()), float(correct[members].mean())))
    return table


def expected_calibration_error(
    probabilities: Sequence[float], labels: Sequence[int], bins: int = DEFAULT_CALIBRATION_BINS
) -> float:
    """Sum over bins of |bin| / N * |accuracy - confidence|; NaN when there is no pair."""
    table = calibration_bins(probabilities, labels, bins)
    total = sum(count for count, _, _ in table)
    if total == 0:
        return NAN
    return float(sum(count / total * abs(acc - conf) for count, conf, acc in table))


def maximum_calibration_error(
    probabilities: Sequence[float], labels: Sequence[int], bins: int = DEFAULT_CALIBRATION_BINS
) -> float:
    """Largest |accuracy - confidence| over non-empty bins; NaN when there is no pair."""
    table = calibration_bins(probabilities, labels, bins)
    if not table:
        return NAN
    return float(max(abs(acc - conf) for _, conf, acc in table))
