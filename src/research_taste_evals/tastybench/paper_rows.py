"""The rows of every TastyBench paper file and their checks, shared by both loaders
(``dataset.py``: upstream's files; ``built_set.py``: the sets ``research-taste`` builds).

The rows of a paper file and of a representations file: each ``paperId`` once, and a
``pub_date`` neither in the future nor after its citation series starts.

What the loaders check for the recall controls (dates and names in the texts): both call
:func:`recall_facts`, so every paper set has checked ``pub_date``s (the post-cutoff metrics
read them) and an ``identity_leak`` list (texts that name their paper: the recognition probe
is moot for them; ``specs.py``).

What every built set shares: its two files, the row columns, the report check, the one fetch
date and the texts (citation sets from ``research-taste tastybench build``, review-label sets
from ``research-taste openreview build``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, Json

from research_taste_evals.core.data import (
    DataError,
    read_csv,
    read_json,
    sha256_of,
    validate_records,
)
from research_taste_evals.core.dates import date_range, parse_item_date, require_item_date

Representation = Literal["idea", "abstract", "summary"]
REPRESENTATIONS: tuple[Representation, ...] = ("idea", "abstract", "summary")

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
        date = None  # unreadable: named, with the paper, where the record is read (specs.py)
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


logger = logging.getLogger(__name__)


class DatedText(Protocol):
    """What the checks read of a ``dataset.Paper``."""

    @property
    def paper_id(self) -> str: ...
    @property
    def pub_date(self) -> str: ...
    @property
    def identity_leak(self) -> tuple[str, ...]: ...


def recall_facts(papers: Sequence[DatedText], papers_path: Path, text_path: Path) -> dict[str, Any]:
    """Checked ``pub_date`` range and ``identity_leak`` per paper (logged) for the task metadata.

    Raises:
        DataError: a paper's ``pub_date`` is missing or not a date (naming file, paper, field).
    """
    dates = [
        require_item_date(p.pub_date, f"{papers_path}: paper {p.paper_id}: field 'pub_date'")
        for p in papers
    ]
    leaks = {paper.paper_id: list(paper.identity_leak) for paper in papers if paper.identity_leak}
    if leaks:
        logger.warning(
            "%s: %d of %d texts name their own paper (identity_leak; not counted in "
            "recognized_rate): %s",
            text_path,
            len(leaks),
            len(papers),
            "; ".join(f"{pid}: {', '.join(found)}" for pid, found in leaks.items()),
        )
    if leaks and len(leaks) == len(papers):
        logger.warning("%s: every text names its paper: recognized_rate will be NaN", text_path)
    return {"identity_leak": leaks, "pub_date_range": date_range(dates)}


PAPERS_FILE = "papers.csv"
REPORT_FILE = "build_report.json"


class SetRow(BaseModel):
    """The columns every built set's ``papers.csv`` has (citation and OpenReview sets)."""

    model_config = ConfigDict(extra="ignore")

    paper_id: str = Field(min_length=1)
    title: str
    pub_date: str
    abstract: str

    @property
    def paperId(self) -> str:  # noqa: N802 (the name check_paper_rows reads)
        return self.paper_id


class _Fetched(Protocol):
    @property
    def fetch_date(self) -> dt.date: ...


def is_built_set(data_path: str | Path | None) -> bool:
    """Whether ``data_path`` is a folder written by a builder (it holds ``papers.csv``)."""
    return data_path is not None and (Path(data_path).expanduser() / PAPERS_FILE).is_file()


def read_report(folder: str | Path) -> dict[str, Any] | None:
    """The folder's ``build_report.json`` (None when there is none).

    Raises:
        DataError: the file is not JSON or not the builder's JSON object (naming the file).
    """
    path = Path(folder).expanduser().resolve() / REPORT_FILE
    if not path.is_file():
        return None
    try:
        report = read_json(path)
    except DataError as error:
        report = error
    if not isinstance(report, dict):
        raise DataError(
            f"{path}: not the builder's JSON object ({report}); rebuild the set with "
            f"research-taste tastybench build (or openreview build), or remove {REPORT_FILE}"
        )
    return report


def one_fetch_date(records: Sequence[_Fetched], path: Path) -> dt.date:
    """The set's one fetch date (every velocity or label is read as of that day).

    Raises:
        DataError: the rows name two or more fetch dates (field ``fetch_date``).
    """
    fetch_dates = sorted({record.fetch_date for record in records})
    if len(fetch_dates) != 1:
        found = ", ".join(day.isoformat() for day in fetch_dates)
        raise DataError(f"{path}: field 'fetch_date': one date expected, found {found}")
    return fetch_dates[0]


def set_texts(
    records: Sequence[Any],
    path: Path,
    representation: Representation,
    representations_path: str | Path | None,
    abstracts_only: str,
) -> tuple[dict[str, str], str, str]:
    """A set's texts by paper id (its abstracts, or the representations file's texts) and the
    sources of the papers file and of the texts (local path and sha256).

    Raises:
        DataError: an ``idea``/``summary`` asked for without a representations file
            (``abstracts_only`` says how to get one).
    """
    papers_source = f"local:{path} sha256:{sha256_of(path)}"
    if representations_path is not None:
        text_path = Path(representations_path).expanduser().resolve()
        texts = load_representations(text_path, representation)
        return texts, papers_source, f"local:{text_path} sha256:{sha256_of(text_path)}"
    if representation == "abstract":
        texts = {r.paper_id: r.abstract.strip() for r in records if r.abstract.strip()}
        return texts, papers_source, papers_source
    raise DataError(f"{path}: {abstracts_only}")
