"""Citation velocity: the least-squares slope of a paper's monthly cumulative citation counts.

A series is the cumulative count of citing papers at each month start from publication to
publication + ``SERIES_WEEKS`` weeks (:func:`citation_series`); the velocity is its slope over
the months that had started by the fetch date (:func:`windowed_velocity`), or over the same
first ``window_months`` months for every paper (:func:`common_window_velocity`, NaN for a paper
that lacks them). Shared by a family's loaders, the set builders and the rounds' labels.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from research_taste_evals.core.stats import NAN

MIN_SLOPE_POINTS = 2  # a slope needs two points
SERIES_WEEKS = 60  # the series' length after publication (4 x 15 months of weeks)


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


def observed_months(dates: Sequence[str], fetch_date: dt.date) -> int:
    """How many leading entries of ``dates`` (ISO month starts) had begun by ``fetch_date``.

    Raises:
        ValueError: a date is not ISO ``YYYY-MM-DD`` or the dates are not increasing.
    """
    parsed = [dt.date.fromisoformat(value) for value in dates]
    if any(later <= earlier for earlier, later in zip(parsed, parsed[1:], strict=False)):
        raise ValueError("citation dates are not strictly increasing")
    return sum(1 for value in parsed if value <= fetch_date)


def windowed_velocity(dates: Sequence[str], counts: Sequence[float], fetch_date: dt.date) -> float:
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
    window_months: int,
    fetch_date: dt.date,
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


def month_starts(pub_date: dt.date, fetch_date: dt.date) -> list[dt.date]:
    """Month starts on or after ``pub_date``, up to publication + 60 weeks and the fetch date."""
    end = min(pub_date + dt.timedelta(weeks=SERIES_WEEKS), fetch_date)
    month = pub_date.replace(day=1)
    if month < pub_date:
        month = (month + dt.timedelta(days=32)).replace(day=1)
    starts = []
    while month <= end:
        starts.append(month)
        month = (month + dt.timedelta(days=32)).replace(day=1)
    return starts


def citation_series(
    pub_date: dt.date, citing_dates: Sequence[dt.date], fetch_date: dt.date
) -> tuple[list[str], list[int]]:
    """Upstream's series: at each month start, the citing papers published on or before it."""
    starts = month_starts(pub_date, fetch_date)
    counts = [sum(1 for day in citing_dates if day <= start) for start in starts]
    return [start.isoformat() for start in starts], counts
