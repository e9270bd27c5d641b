"""What every built TastyBench set shares: its two files, the row columns, the report check,
the one fetch date and the texts (``built_set.py``: citation sets from ``research-taste
tastybench build``; ``review_set.py``: review-label sets from ``research-taste openreview
build``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from research_taste_evals.core.data import DataError, read_json, sha256_of
from research_taste_evals.tastybench.dataset import Representation
from research_taste_evals.tastybench.paper_rows import load_representations

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
