"""The cutoff a model's answers show: the month that best separates what it recognises.

The recognition probe (``core/recognition.py``) says, per dated item, whether the model named
it. A model whose training data ends in month m should recognise (some of) the items dated in
or before m and none after. :func:`estimate_cutoff` fits that step: over the candidate months
from the month before the earliest item to the newest item's month, the rule "dated in or before
m -> recognised, after m -> not" is scored by the share of items it gets right; the best m wins,
ties going to the latest m (the more cautious cutoff for clean items).

- Items dated only by year cannot be placed in a month: they are left out of the fit and
  counted (``year_only``).
- A model that recognises every item has no step inside the range: the estimate is undefined
  (NaN) with the reason "recognises every item, through YYYY-MM", and the run's clean cutoff
  is the newest item's month (:attr:`CutoffEstimate.through`), so no item is clean.
- A model that recognises none is fitted at the month before the earliest item (every item is
  after its cutoff).

A stated cutoff is a claim; "Dated Data" (Cheng et al. 2024) shows stated and effective cutoffs
differ, which is why the clean twin uses the later of the two (``core/recall_control.py``).
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
from collections.abc import Iterable
from dataclasses import dataclass

from research_taste_evals.core.dates import ItemDate

Month = tuple[int, int]


@dataclass(frozen=True)
class CutoffEstimate:
    """The fitted month (None when undefined), its agreement and n, and why it is undefined.

    Attributes:
        month: ``(year, month)`` of the fit, or None.
        agreement: Share of the fitted items the step rule gets right (NaN when no fit).
        n: Dated (by month or day) probed items in the fit.
        year_only: Probed items dated only by year, left out of the fit.
        reason: Why ``month`` is None (empty when it is defined).
        through: The month up to which the answers show recall: ``month``, or the newest
            item's month when every item is recognised; None when nothing was fitted.
    """

    month: Month | None
    agreement: float
    n: int
    year_only: int = 0
    reason: str = ""
    through: Month | None = None

    @property
    def yyyymm(self) -> float:
        """The month as a number (``202503``), NaN when undefined (the metric's value)."""
        return month_number(self.month)


def month_number(month: Month | None) -> float:
    """``(2025, 3)`` -> ``202503.0``; None -> NaN."""
    return float(month[0] * 100 + month[1]) if month else math.nan


def month_text(month: Month) -> str:
    """``(2025, 3)`` -> ``"2025-03"``."""
    return f"{month[0]:04d}-{month[1]:02d}"


def month_end(month: Month) -> dt.date:
    """The last day of the month (a ``YYYY-MM`` cutoff runs through the end of its month)."""
    return dt.date(month[0], month[1], calendar.monthrange(*month)[1])


def _previous(month: Month) -> Month:
    return (month[0] - 1, 12) if month[1] == 1 else (month[0], month[1] - 1)


def _next(month: Month) -> Month:
    return (month[0] + 1, 1) if month[1] == 12 else (month[0], month[1] + 1)


def estimate_cutoff(items: Iterable[tuple[ItemDate | None, bool | None]]) -> CutoffEstimate:
    """Fit the step "recognised up to m, not after" to ``(date, recognized)`` pairs.

    Pairs with no date or no probe answer (``recognized`` None: not probed, leaked, failed)
    are ignored; year-only dates are counted in ``year_only`` and left out (module docstring).
    """
    fitted: list[tuple[Month, bool]] = []
    year_only = 0
    for date, recognized in items:
        if date is None or recognized is None:
            continue
        if date.month is None:
            year_only += 1
            continue
        fitted.append(((date.year, date.month), bool(recognized)))
    if not fitted:
        why = "no probed item is dated by month"
        if year_only:
            why += f" ({year_only} dated only by year, left out)"
        return CutoffEstimate(None, math.nan, 0, year_only, why)
    newest = max(month for month, _ in fitted)
    if all(recognized for _, recognized in fitted):
        why = f"recognises every item, through {month_text(newest)}"
        return CutoffEstimate(None, math.nan, len(fitted), year_only, why, through=newest)
    best: tuple[int, Month] | None = None
    candidate = _previous(min(month for month, _ in fitted))
    while candidate <= newest:
        right = sum(1 for month, known in fitted if (month <= candidate) == known)
        if best is None or right >= best[0]:  # >=: ties go to the latest month
            best = (right, candidate)
        candidate = _next(candidate)
    assert best is not None
    return CutoffEstimate(best[1], best[0] / len(fitted), len(fitted), year_only, through=best[1])
