"""The dates of a pairs file: every record's paper dates checked before any model call (one
sentence naming the file, record and field) and the one-line note of what the dates span.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from research_taste_evals.core.data import DataError
from research_taste_evals.core.dates import date_range
from research_taste_evals.ideapairs.pairs_schema import PairRecord
from research_taste_evals.ideapairs.recall import idea_date


def check_dates(records: Sequence[PairRecord], path: Path) -> None:
    """Every idea's ``paper_date`` is a date (``year`` is required by the schema).

    Raises:
        DataError: naming the file, the record and the field of the first bad date.
    """
    today = dt.date.today()
    for record in records:
        for side in ("idea_a", "idea_b"):
            idea = getattr(record, side)
            where = f"{path}: record {record.record_id}: field '{side}.paper_date'"
            if idea.paper_date is not None and not idea.paper_date.strip():
                raise DataError(
                    f"{where}: empty; give YYYY-MM-DD or YYYY-MM, or leave the field out "
                    "(the idea is then dated by its year)"
                )
            date = idea_date(idea.paper_date, idea.year, where)
            if idea.paper_date is not None and date.year != idea.year:
                raise DataError(
                    f"{where}: {idea.paper_date} contradicts field '{side}.year' "
                    f"({idea.year}); correct one of them"
                )
            if (date.year, date.month or 1, date.day or 1) > (today.year, today.month, today.day):
                field = "paper_date" if idea.paper_date is not None else "year"
                raise DataError(
                    f"{where.replace('paper_date', field)}: {idea.paper_date or idea.year} is "
                    f"in the future (today is {today}); a published idea has a past date"
                )


def dates_note(records: Sequence[PairRecord]) -> str:
    """How the ideas are dated, for the log's metadata (``item_dates``)."""
    ideas = {i.idea_id: i for r in records for i in (r.idea_a, r.idea_b)}
    with_day = sum(1 for idea in ideas.values() if idea.paper_date)
    dated = date_range(idea_date(i.paper_date, i.year, i.idea_id) for i in ideas.values())
    span = f"{dated[0]} to {dated[1]}" if dated else "none"
    return f"{len(ideas)} ideas, {with_day} with paper_date, the rest by year; {span}"
