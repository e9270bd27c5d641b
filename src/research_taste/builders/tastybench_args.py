"""The ``tastybench build`` arguments, checked before any request: dates, ``--after``, the
query, the window (not in the future) and ``--out`` (a folder this builder may write)."""

from __future__ import annotations

import datetime as dt
import re
import tempfile
from pathlib import Path

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
    try:
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


def check_out_dir(out: Path) -> None:
    """``--out`` may be new, empty, or an earlier build's folder (to resume or redo it), and
    must be writable; the folder is created here, before any request is sent.

    Raises:
        DataError: it is a file, holds anything this builder does not write, or cannot be
            written.
    """
    if out.exists() and not out.is_dir():
        raise DataError(f"--out {out} is a file; give a folder (new, empty or an earlier build)")
    foreign = (
        sorted(p.name for p in out.iterdir() if p.name not in WRITTEN_NAMES) if out.exists() else []
    )
    if foreign:
        raise DataError(
            f"--out {out} holds files this builder did not write ({', '.join(foreign[:5])}); "
            "give a new or empty folder"
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        raise DataError(
            f"--out {out} cannot be written ({error.strerror or error}); give a folder you "
            "can write"
        ) from None
