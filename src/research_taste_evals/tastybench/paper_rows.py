"""The rows of a TastyBench paper file and of a representations file, and their checks: each
``paperId`` once, and a ``pub_date`` neither in the future nor after its citation series starts
(``dataset.py`` reads upstream's files with them; ``built_set.py``/``review_set.py`` built sets).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, Json

from research_taste_evals.core.data import DataError, read_csv, validate_records
from research_taste_evals.core.dates import parse_item_date

# Upstream writes "N/A" when an extraction had no <idea> tags: not a representation.
MISSING_TEXT = ("", "N/A")


class PaperRecord(BaseModel):
    """One row of an upstream ground-truth CSV (``llm_rl_yix_curate.csv``, ``llm_rl.csv``)."""

    model_config = ConfigDict(extra="ignore")

    paperId: str = Field(min_length=1)
    title: str
    pub_date: str
    b: float
    citation_dates: Json[list[str]]
    citation_counts: Json[list[float]]


class RepresentationRecord(BaseModel):
    """One row of a representations CSV (upstream ``*_with_ideas.csv`` or ours)."""

    model_config = ConfigDict(extra="ignore")

    paper_id: str = Field(min_length=1)
    title: str | None = None
    abstract: str | None = None
    idea: str | None = None
    summary: str | None = None


def load_representations(path: Path, representation: str) -> dict[str, str]:
    """{paper_id: text} from a representations CSV; rows without the text are left out.

    Raises:
        DataError: the file lacks a ``paper_id`` or the representation column, or repeats a paper.
    """
    rows = read_csv(path)
    if rows and representation not in rows[0]:
        raise DataError(f"{path}: no '{representation}' column (columns: {sorted(rows[0])})")
    texts: dict[str, str] = {}
    for index, record in enumerate(validate_records(rows, RepresentationRecord, source=path)):
        if record.paper_id in texts:
            raise DataError(f"{path}: record {index}: field 'paper_id': {record.paper_id} repeated")
        text = (getattr(record, representation) or "").strip()
        if text not in MISSING_TEXT:
            texts[record.paper_id] = text
    return texts


def check_paper_rows(records: list[PaperRecord], path: Path) -> None:
    """Each ``paperId`` once: ids become Elo players (an empty file fails in validate_records).

    Raises:
        DataError: naming the file, the two records and the id.
    """
    first_row: dict[str, int] = {}
    for index, record in enumerate(records):
        if record.paperId in first_row:
            raise DataError(
                f"{path}: record {index}: field 'paperId': {record.paperId!r} repeats "
                f"record {first_row[record.paperId]}"
            )
        first_row[record.paperId] = index
        _check_pub_date(record, index, path)


def _check_pub_date(record: PaperRecord, index: int, path: Path) -> None:
    """``pub_date`` neither in the future nor after the month its citation series starts (a
    paper is not cited before it exists: the date, which decides post-cutoff, is wrong)."""
    where = f"{path}: record {index} (paper {record.paperId}): field 'pub_date'"
    try:
        date = parse_item_date(record.pub_date)
    except ValueError:
        date = None  # unreadable: named, with the paper, where the record is read (recall.py)
    if date is None:
        return
    today = dt.date.today()
    if (date.year, date.month or 1, date.day or 1) > (today.year, today.month, today.day):
        raise DataError(f"{where}: {record.pub_date} is in the future (today is {today})")
    # A review-label set (tastybench/built_set.py) has no citation series: its rows pass here too.
    first = min(getattr(record, "citation_dates", ()), default=None)
    if first and date.month is not None and f"{date.year:04d}-{date.month:02d}" > first[:7]:
        raise DataError(
            f"{where}: {record.pub_date} is after its citation series starts ({first[:7]}, "
            "field 'citation_dates'); correct the date"
        )
