"""TastyBench paper sets that ``research-taste`` builds, read with ``-T data_path=<folder>``.

A built folder is recognised by its ``papers.csv`` (:func:`is_built_set`; the task checks it
before the upstream loader) next to ``build_report.json``. Every built set shares the columns of
:class:`SetRow`, one fetch date and its texts: ``representation=abstract`` from ``papers.csv``
itself, ``idea``/``summary`` from the CSV that ``research-taste tastybench-extract --data-path
<folder>`` writes (``-T representations_path``).

A citation set (``research-taste tastybench build``): ``papers.csv`` adds ``total_citations,
citation_dates, citation_counts, velocity, fetch_date`` and the report the query, window, fetch
date and API base. Every velocity mode uses the set's own fetch date: ``upstream`` is the
builder's ``velocity`` (upstream's ``b`` on the months observed by then), ``windowed`` and
``common_window`` are recomputed from the series as for the upstream sets.

A review-label set (``research-taste openreview build``): its report names a ``label``
(``REVIEW_LABELS``: the mean reviewer rating, or the decision as an ordinal); ``papers.csv``
holds that label and no citation series, so every velocity mode's truth is the label and the
metrics and ``baseline/citation-oracle`` read it unchanged. ``pub_date`` is the submission
date, ``primary_area`` the field ``schedule=matched`` pairs within. The judge's prompt is
``reviews`` (``prompts.prompt_for_set``, ``docs/openreview.md``).
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, Json, field_validator

from research_taste_evals.core.data import (
    DataError,
    read_csv,
    read_json,
    sha256_of,
    validate_records,
)
from research_taste_evals.tastybench.dataset import (
    MIN_PAPERS,
    LoadedPapers,
    Paper,
    Representation,
    check_paper_rows,
    load_representations,
    recall_facts,
    series_velocities,
    velocity_gaps,
)

logger = logging.getLogger(__name__)

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


def one_fetch_date(
    records: Sequence[BuiltPaperRecord] | Sequence[ReviewPaperRecord], path: Path
) -> dt.date:
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


# The labels ``research-taste openreview build`` writes (its ``venue.LABELS``).
REVIEW_LABELS = ("mean_rating", "decision")


class ReviewPaperRecord(SetRow):
    """One row of an OpenReview-built set's ``papers.csv``."""

    primary_area: str = ""
    label: float | None
    fetch_date: dt.date

    @field_validator("label", mode="before")
    @classmethod
    def _empty_is_undefined(cls, value: Any) -> Any:
        return None if value == "" else value


def review_label(folder: str | Path) -> str | None:
    """The label of an OpenReview-built folder (``mean_rating``/``decision``); None for a
    folder whose report names no label (a citation set) or that has no report.

    Raises:
        DataError: the report is broken, or its ``label`` is not a known review label (one
            sentence naming the file and the field).
    """
    report = read_report(folder)
    label = None if report is None else report.get("label")
    if label is None:
        return None
    if label not in REVIEW_LABELS:
        path = Path(folder).expanduser().resolve() / REPORT_FILE
        raise DataError(
            f"{path}: field 'label': {label!r} is not a review label (known: "
            f"{', '.join(REVIEW_LABELS)}); rebuild the set with research-taste openreview build"
        )
    return str(label)


def load_review_set(
    folder: Path, representation: Representation, representations_path: str | Path | None
) -> LoadedPapers:
    """An OpenReview-built folder as the task's papers: every velocity is the review label.

    Raises:
        DataError: malformed rows, repeated papers, ``idea``/``summary`` without a
            representations file, two fetch dates, or fewer than two papers with a text and
            a label.
    """
    path = folder.expanduser().resolve() / PAPERS_FILE
    records = validate_records(read_csv(path), ReviewPaperRecord, source=path)
    check_paper_rows(records, path)  # type: ignore[arg-type]
    fetch = one_fetch_date(records, path)  # one day's ratings, as citation sets
    texts, papers_source, text_source = set_texts(
        records,
        path,
        representation,
        representations_path,
        "an OpenReview set holds abstracts only; pass -T representation=abstract or "
        f"-T representations_path=<csv with {representation}s>",
    )
    papers = [
        Paper(
            paper_id=r.paper_id,
            title=r.title,
            pub_date=r.pub_date,
            text=texts[r.paper_id],
            velocity_upstream=r.label,
            velocity_windowed=r.label,
            velocity_common=r.label,
            field=r.primary_area or None,
        )
        for r in records
        if r.paper_id in texts and r.label is not None
    ]
    if len(papers) < MIN_PAPERS:
        raise DataError(f"{path}: only {len(papers)} papers have a {representation} and a label")
    label = review_label(folder)
    logger.info("%s: a review-label set (%s); its prompt is reviews", path, label)
    report = read_report(folder) or {}
    metadata = {
        "paper_set": "openreview",
        "label": label,
        "label_meaning": report.get("label_meaning"),
        "papers": len(papers),
        "papers_source": papers_source,
        "representation_source": text_source,
        "papers_without_text": [r.paper_id for r in records if r.paper_id not in texts],
        "papers_without_label": [r.paper_id for r in records if r.label is None],
        "primary_areas": len({r.primary_area for r in records if r.primary_area}),
        **recall_facts(papers, path, Path(representations_path) if representations_path else path),
        "velocity_fetch_date": fetch.isoformat(),
        "data_revision": f"OpenReview {report.get('venue')}, fetched {report.get('fetch_date')}",
        "build": build_provenance(folder, path, ("source", "venue", "fetch_date", "api_base")),
    }
    return LoadedPapers(papers=papers, metadata=metadata)


PROVENANCE_KEYS = ("source", "query", "window", "min_citations", "fetch_date", "api_base")


class BuiltPaperRecord(SetRow):
    """One row of a built set's ``papers.csv``."""

    total_citations: int
    citation_dates: Json[list[str]]
    citation_counts: Json[list[float]]
    velocity: float | None
    velocity_note: str = ""  # the builder's reason for no velocity (e.g. an undated series)
    fetch_date: dt.date

    @field_validator("velocity", mode="before")
    @classmethod
    def _empty_is_undefined(cls, value: Any) -> Any:
        return None if value == "" else value


def is_built_set(data_path: str | Path | None) -> bool:
    """Whether ``data_path`` is a folder written by a builder (it holds ``papers.csv``)."""
    return data_path is not None and (Path(data_path).expanduser() / PAPERS_FILE).is_file()


def read_built_set(folder: Path) -> tuple[Path, list[BuiltPaperRecord], dt.date]:
    """The rows of ``folder/papers.csv`` and the set's one fetch date.

    Raises:
        DataError: a row is malformed, a paper repeats, or the rows disagree on the fetch date.
    """
    path = folder.expanduser().resolve() / PAPERS_FILE
    records = validate_records(read_csv(path), BuiltPaperRecord, source=path)
    check_paper_rows(records, path)  # type: ignore[arg-type]
    return path, records, one_fetch_date(records, path)


def _paper(record: BuiltPaperRecord, text: str, fetch: dt.date, window: int, path: Path) -> Paper:
    dates, where = record.citation_dates, f"{path}: paper {record.paper_id}"
    # The builder stops its series at the fetch: later months come from citing papers dated in
    # the future.
    if future := [month for month in dates if month > fetch.isoformat()]:
        raise DataError(
            f"{where}: field 'citation_dates': {len(future)} month starts after the set's "
            f"fetch_date {fetch} (from {future[0]}): citing papers dated in the future; rebuild "
            "the set"
        )
    windowed, common, observed = series_velocities(
        dates, record.citation_counts, fetch, window, where
    )
    if record.velocity_note:  # the series cannot carry a slope in any mode (the builder)
        windowed = common = math.nan
    return Paper(
        paper_id=record.paper_id,
        title=record.title,
        pub_date=record.pub_date,
        text=text,
        velocity_upstream=math.nan if record.velocity is None else record.velocity,
        velocity_windowed=windowed,
        velocity_common=common,
        months_observed=observed,
    )


def build_provenance(
    folder: Path, papers_path: Path, keys: Sequence[str] = PROVENANCE_KEYS
) -> dict[str, Any]:
    """The build report's query, window, fetch date and API base (None when it is missing).

    Raises:
        DataError: the report is not the builder's JSON object (naming ``build_report.json``).
    """
    report = read_report(folder)
    if report is None:
        logger.warning("%s: no %s; the log carries no build provenance", folder, REPORT_FILE)
        return {"report": None}
    return {
        "report": str(folder.expanduser().resolve() / REPORT_FILE),
        **{key: report.get(key) for key in keys},
        "papers_unchanged_since_build": report.get("papers_sha256") == sha256_of(papers_path),
    }


def _check_not_a_review_set(root: Path, report: dict[str, Any] | None) -> None:
    """A folder whose report names no label but whose ``papers.csv`` has a review ``label`` and
    no citations is an OpenReview set that lost its report: say so, not "total_citations
    required"."""
    rows = read_csv(root.expanduser().resolve() / PAPERS_FILE)
    columns = set(rows[0]) if rows else set()
    if "label" in columns and "total_citations" not in columns:
        problem = "missing" if report is None else "field 'label' missing"
        raise DataError(
            f"{root.expanduser().resolve() / REPORT_FILE}: {problem}, and papers.csv has a "
            "review 'label' column (an OpenReview set, whose report names the label); rebuild "
            "the set with research-taste openreview build"
        )


def load_built_set(
    folder: str | Path,
    representation: Representation,
    representations_path: str | Path | None,
    window_months: int,
) -> LoadedPapers:
    """A built folder as the task's papers, with the set's fetch date in every velocity mode.

    Raises:
        DataError: malformed rows, ``idea``/``summary`` without a representations file, or
            fewer than two papers with a text.
    """
    root = Path(folder)
    if review_label(root) is not None:  # checks the report and its label first
        return load_review_set(root, representation, representations_path)
    _check_not_a_review_set(root, read_report(root))  # a broken report is named first
    path, records, fetch = read_built_set(root)
    texts, papers_source, text_source = set_texts(
        records,
        path,
        representation,
        representations_path,
        f"a built set holds abstracts only; write {representation}s with `research-taste "
        f"tastybench-extract --data-path {root} --kind {representation} --output <csv>` and "
        "pass -T representations_path=<csv>",
    )
    papers = [
        _paper(record, texts[record.paper_id], fetch, window_months, path)
        for record in records
        if record.paper_id in texts
    ]
    missing = [record.paper_id for record in records if record.paper_id not in texts]
    if len(papers) < MIN_PAPERS:
        raise DataError(f"{path}: only {len(papers)} papers have a {representation}")
    metadata = {
        "paper_set": "built",
        "papers": len(papers),
        "papers_source": papers_source,
        "representation_source": text_source,
        "papers_without_text": missing,
        "texts_for_unknown_papers": sorted(set(texts) - {r.paper_id for r in records}),
        **velocity_gaps(papers, window_months),
        **recall_facts(papers, path, Path(representations_path) if representations_path else path),
        "velocity_fetch_date": fetch.isoformat(),
        "data_revision": f"built set, fetched {fetch.isoformat()}",
        "build": build_provenance(root, path),
    }
    return LoadedPapers(papers=papers, metadata=metadata)


def built_titles_and_abstracts(folder: str | Path) -> tuple[dict[str, str], dict[str, str]]:
    """{paper_id: title} and {paper_id: abstract} of a built set (the extraction's sources)."""
    _, records, _ = read_built_set(Path(folder))
    titles = {record.paper_id: record.title for record in records}
    return titles, {record.paper_id: record.abstract.strip() for record in records}
