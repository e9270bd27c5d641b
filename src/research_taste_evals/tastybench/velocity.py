"""Citation velocity: upstream's ``b`` and the windowed recomputation.

Upstream (``acceleration-proxies/citation_velocity.py``) builds, for each paper, the cumulative
citation count at every month start from the publication date to publication + 60 weeks and
fits ``counts = a + b t`` by least squares with t = 0, 1, ..., n-1; ``b`` is the velocity. The
counts were fetched on 2025-11-08 (the results folders are ``20251108_013017`` and
``20251108_032707``), so for a recent paper the months after that date are not observations:
they repeat the last known count ("flat-filled"), which drags ``b`` down. ``windowed`` fits the
same line to the months that had started by the fetch date only. Windows then run from 2 to 14
months, and a short window means a recent paper, so ``windowed`` velocity partly measures the
publication era; ``common_window`` fits the same number of months after publication for every
paper and leaves out the papers observed for fewer months.

Short common windows for live sets (README, "Velocity"): ``window_months=w`` fits the cumulative
counts at the first ``w`` month starts after publication, so a paper's label exists as soon as
its ``w``-th month start has passed (``w - 1`` to ``w`` months after publication). ``w = 3``
labels a paper about a quarter after it appears and ``w = 6`` half a year after, against 14
months for upstream's series; the price is noise: a slope over three points rests on the few
citations of a paper's first weeks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Literal

from research_taste_evals.core.stats import NAN

VelocityMode = Literal["windowed", "upstream", "common_window"]
VELOCITY_MODES: tuple[VelocityMode, ...] = ("windowed", "upstream", "common_window")

# Date of upstream's Semantic Scholar fetch (results folder names, see the module docstring).
UPSTREAM_FETCH_DATE = dt.date(2025, 11, 8)
# A slope needs at least two points.
MIN_SLOPE_POINTS = 2
# Upstream's series: the month starts within publication + 60 weeks, i.e. at most 14.
MAX_SERIES_MONTHS = 14
# Common window: 6 months after publication keeps 32 of the 37 curated papers (12 keeps 14).
DEFAULT_WINDOW_MONTHS = 6
# The short windows documented for live sets (labels in a quarter or half a year; noisier).
SHORT_WINDOWS = (3, 6)


def longest_common_window(months_observed: Sequence[int], min_papers: int = 2) -> int | None:
    """The longest ``window_months`` that at least ``min_papers`` papers have (at most
    ``MAX_SERIES_MONTHS``); None when no window of ``MIN_SLOPE_POINTS`` months is that common.

    Args:
        months_observed: Month starts each paper had by the fetch date (``observed_months``).
        min_papers: Papers the window must keep.
    """
    ranked = sorted(months_observed, reverse=True)
    if len(ranked) < min_papers:
        return None
    longest = min(ranked[min_papers - 1], MAX_SERIES_MONTHS)
    return longest if longest >= MIN_SLOPE_POINTS else None


def ols_slope(counts: Sequence[float]) -> float:
    """Least-squares slope of ``counts`` against t = 0..n-1 (upstream's ``np.polyfit(t, y, 1)``).

    NaN when there are fewer than two points. Upstream returns 0 for an all-zero series; the
    least-squares slope of an all-zero series is 0 too, so no special case is needed.
    """
    import numpy as np

    values = np.asarray(counts, dtype=float)
    if len(values) < MIN_SLOPE_POINTS:
        return NAN
    t = np.arange(len(values), dtype=float)
    t_centred = t - t.mean()
    return float(np.dot(t_centred, values - values.mean()) / np.dot(t_centred, t_centred))


def observed_months(dates: Sequence[str], fetch_date: dt.date = UPSTREAM_FETCH_DATE) -> int:
    """How many leading entries of ``dates`` (ISO month starts) had begun by ``fetch_date``.

    Raises:
        ValueError: a date is not ISO ``YYYY-MM-DD`` or the dates are not increasing.
    """
    parsed = [dt.date.fromisoformat(value) for value in dates]
    if any(later <= earlier for earlier, later in zip(parsed, parsed[1:], strict=False)):
        raise ValueError("citation dates are not strictly increasing")
    return sum(1 for value in parsed if value <= fetch_date)


def windowed_velocity(
    dates: Sequence[str], counts: Sequence[float], fetch_date: dt.date = UPSTREAM_FETCH_DATE
) -> float:
    """Upstream's slope, fitted only to the months that had started by ``fetch_date``.

    NaN when fewer than two months had started (the slope is undefined).

    Raises:
        ValueError: ``dates`` and ``counts`` differ in length, or ``dates`` are malformed.
    """
    if len(dates) != len(counts):
        raise ValueError(f"{len(dates)} citation dates but {len(counts)} citation counts")
    return ols_slope(list(counts)[: observed_months(dates, fetch_date)])


def common_window_velocity(
    dates: Sequence[str],
    counts: Sequence[float],
    window_months: int = DEFAULT_WINDOW_MONTHS,
    fetch_date: dt.date = UPSTREAM_FETCH_DATE,
) -> float:
    """Upstream's slope over the first ``window_months`` months of the series, the same window
    for every paper; NaN when fewer than ``window_months`` months had started by ``fetch_date``
    (the paper lacks the window and is left out of the correlation).

    Raises:
        ValueError: ``window_months`` is below 2, or ``dates``/``counts`` are malformed.
    """
    if window_months < MIN_SLOPE_POINTS:
        raise ValueError(f"window_months must be >= {MIN_SLOPE_POINTS}, got {window_months}")
    if len(dates) != len(counts):
        raise ValueError(f"{len(dates)} citation dates but {len(counts)} citation counts")
    if observed_months(dates, fetch_date) < window_months:
        return NAN
    return ols_slope(list(counts)[:window_months])


def months_after(dates: Sequence[str], fetch_date: dt.date) -> list[str]:
    """The entries of ``dates`` (ISO month starts) after ``fetch_date``: a built series stops at
    its fetch, so such months come from citing papers dated in the future."""
    return [value for value in dates if value > fetch_date.isoformat()]
