"""The ``tastybench build`` arguments, checked before any request: dates, ``--after``, the
query, the window (not in the future); ``--out`` is ``builders/out_dir.py``'s, with the names
this builder writes (:data:`WRITTEN_NAMES`)."""

from __future__ import annotations

import datetime as dt
import re

from research_taste_evals.core.data import DataError

WRITTEN_NAMES = frozenset({"papers.csv", "build_report.json", "cache"})
_AFTER = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")


def parse_date(value: str, flag: str) -> dt.date:
    """``YYYY-MM-DD`` as a date; a ``DataError`` naming ``flag`` otherwise."""
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise DataError(f"{flag} {value!r} is not a date in the form YYYY-MM-DD") from None


def parse_after(value: str, flag: str = "--after") -> dt.date:
    """The first day after ``YYYY-MM`` (the month's end) or ``YYYY-MM-DD``: a model's cutoff
    given as a month runs through the end of that month, as ``-T knowledge_cutoff`` does."""
    match = _AFTER.match(value.strip())
    try:  # 9999-12-31 has no next day: OverflowError, said as the others
        if not match:
            raise ValueError(value)
        year, month, day = int(match[1]), int(match[2]), match[3]
        if day is not None:
            return dt.date(year, month, int(day)) + dt.timedelta(days=1)
        dt.date(year, month, 1)  # a real month
        return dt.date(year + month // 12, month % 12 + 1, 1)
    except ValueError:
        raise DataError(
            f"{flag} {value!r} is not a month or day in the form YYYY-MM or YYYY-MM-DD"
        ) from None
    except OverflowError:
        raise DataError(
            f"{flag} {value!r} leaves no day after it (the last day a date can name is "
            "9999-12-31); give a real cutoff"
        ) from None


def check_window(date_from: dt.date, date_to: dt.date, today: dt.date, from_flag: str) -> None:
    """The window starts not after today, and no later than it ends."""
    if date_from > today:
        raise DataError(
            f"{from_flag} {date_from} is in the future (today is {today}): no paper is "
            "published in that window yet"
        )
    if date_from > date_to:
        raise DataError(f"{from_flag} {date_from} is after --to {date_to}")


def check_query(query: str) -> None:
    if not query.strip():
        raise DataError("--query is empty: give the search terms")
