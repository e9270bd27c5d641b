"""Item dates as precise as their source allows, and their comparison with a knowledge cutoff.

An item (a paper, an idea, a review) is dated by day (``2024-03-15``), by month (``2024-03``,
or an arXiv id ``2403.01234`` whose ``YYMM`` is its first version's month) or by year
(``2024``, a venue year). :func:`is_post_cutoff` compares at the item's precision:

- by day when the item has a day: published after the cutoff day;
- by month when it has only a month: a month after the cutoff's month (the cutoff's own month
  is not after it, since the item may predate the cutoff day);
- by year when it has only a year: a year after the cutoff's year.

So an item is post-cutoff only when every day it could have been published is after the cutoff.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass

from research_taste_evals.core.data import DataError

logger = logging.getLogger(__name__)

# New-style arXiv ids (April 2007 on): YYMM.NNNN or YYMM.NNNNN, optional version.
_ARXIV_NEW = re.compile(r"^(?:arxiv:)?(\d{2})(\d{2})\.\d{4,5}(?:v\d+)?$", re.IGNORECASE)
# Old-style ids: archive(.subject)/YYMMNNN (1991 to March 2007).
_ARXIV_OLD = re.compile(r"^(?:arxiv:)?[a-z\-]+(?:\.[a-z\-]+)?/(\d{2})(\d{2})\d{3}(?:v\d+)?$", re.I)
_ISO = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ].*)?$")
_YEAR_NUMBER = re.compile(r"^(\d{4})(?:\.0+)?$")


@dataclass(frozen=True)
class ItemDate:
    """A publication date known to the day, the month or only the year."""

    year: int
    month: int | None = None
    day: int | None = None

    def __post_init__(self) -> None:
        if self.day is not None and self.month is None:
            raise ValueError("a day needs a month")
        if self.month is not None:
            # Validates month and day (raises ValueError on 2024-13 or 2024-02-30).
            dt.date(self.year, self.month, self.day or 1)

    @property
    def precision(self) -> str:
        """``"day"``, ``"month"`` or ``"year"``."""
        return "day" if self.day is not None else "month" if self.month is not None else "year"

    def __str__(self) -> str:
        if self.month is None:
            return f"{self.year:04d}"
        if self.day is None:
            return f"{self.year:04d}-{self.month:02d}"
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


def _arxiv_year(yy: str) -> int:
    # Old-style ids start in 1991; new-style ids in 2007.
    return 1900 + int(yy) if int(yy) >= 91 else 2000 + int(yy)


def parse_item_date(value: object) -> ItemDate | None:
    """An :class:`ItemDate` from a date, a year or text; None for a missing value.

    Accepts ``datetime.date``/``datetime`` objects, an integer year, ``YYYY-MM-DD`` (a time
    after it is ignored), ``YYYY-MM``, ``YYYY`` (also ``2019.0``, as a CSV float column writes
    it), and arXiv ids (``2403.01234``, ``arXiv:2403.01234v2``, ``hep-th/9901001``) read as the
    id's year and month. ``None``, ``""`` and ``NaN`` are missing (None).

    Raises:
        ValueError: the value is none of these, or not a real date (``2024-13``).
    """
    if value is None:
        return None
    if isinstance(value, dt.datetime | dt.date):
        return ItemDate(value.year, value.month, value.day)
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a date")
    if isinstance(value, int):
        return ItemDate(value)
    if isinstance(value, float):
        if value != value:  # NaN: a missing CSV cell
            return None
        if value.is_integer():
            return ItemDate(int(value))
        raise ValueError(f"{value!r} is not a year")
    text = str(value).strip()
    if not text or text.lower() in ("nan", "none", "null"):
        return None
    for pattern in (_ARXIV_NEW, _ARXIV_OLD):
        match = pattern.match(text)
        if match:
            return ItemDate(_arxiv_year(match.group(1)), int(match.group(2)))
    match = _YEAR_NUMBER.match(text)
    if match:
        return ItemDate(int(match.group(1)))
    match = _ISO.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD, YYYY-MM, YYYY or an arXiv id)")
    year, month, day = (int(part) if part else None for part in match.groups())
    assert year is not None
    return ItemDate(year, month, day)


def require_item_date(value: object, where: str) -> ItemDate:
    """:func:`parse_item_date` for a loader: a missing or bad date is one ``DataError``.

    Args:
        value: The raw field.
        where: File, record and field, e.g. ``"papers.csv: record 3: field 'pub_date'"``.
    """
    try:
        parsed = parse_item_date(value)
    except ValueError as error:
        raise DataError(f"{where}: {error}") from error
    if parsed is None:
        raise DataError(f"{where}: no date (the source dates every other item)")
    return parsed


def is_post_cutoff(item: ItemDate, cutoff: dt.date) -> bool:
    """Was the item published after ``cutoff``, at the item's precision (module docstring)?"""
    if item.month is None:
        return item.year > cutoff.year
    if item.day is None:
        return (item.year, item.month) > (cutoff.year, cutoff.month)
    return dt.date(item.year, item.month, item.day) > cutoff


def post_cutoff(dates: Iterable[ItemDate | None], cutoff: dt.date | None) -> bool | None:
    """Is every item a sample shows post-cutoff? None when the cutoff or a date is unknown.

    A sample is post-cutoff only when ALL its items are (an idea pair with one known paper can
    be answered from memory of that paper).
    """
    if cutoff is None:
        return None
    known = list(dates)
    if not known or any(date is None for date in known):
        return None
    return all(is_post_cutoff(date, cutoff) for date in known if date is not None)


def date_range(dates: Iterable[ItemDate | None]) -> tuple[str, str] | None:
    """The earliest and latest of the dates as written (for logs and READMEs), or None."""
    known = sorted(
        (d for d in dates if d is not None), key=lambda d: (d.year, d.month or 0, d.day or 0)
    )
    return (str(known[0]), str(known[-1])) if known else None


def undated_source(task: str, why: str) -> dict[str, str]:
    """For a task whose source dates none of its items: one log line, and its metadata field.

    Such a task has no post-cutoff twins (nothing to compare with a cutoff); the log says so
    once, at task build, and the task's metadata records ``item_dates: "none: <why>"``.
    """
    logger.info("%s: no post-cutoff metrics: the items carry no dates (%s)", task, why)
    return {"item_dates": f"none: {why}"}
