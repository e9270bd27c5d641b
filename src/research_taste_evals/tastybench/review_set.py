"""A review-label TastyBench set, written by ``research-taste openreview build``.

Its ``build_report.json`` names a ``label`` (``REVIEW_LABELS``: the mean reviewer rating, or
the decision as an ordinal); ``papers.csv`` holds that label and no citation series, so every
velocity mode's truth is the label and the metrics and ``baseline/citation-oracle`` read it
unchanged. ``pub_date`` is the submission date, ``primary_area`` the field ``schedule=matched``
pairs within. The judge's prompt is ``reviews`` (``prompts.prompt_for_set``).
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path
from typing import Any

from pydantic import field_validator

from research_taste_evals.core.data import DataError, read_csv, sha256_of, validate_records
from research_taste_evals.tastybench.dataset import (
    MIN_PAPERS,
    LoadedPapers,
    Paper,
    Representation,
)
from research_taste_evals.tastybench.paper_rows import check_paper_rows
from research_taste_evals.tastybench.recall_facts import recall_facts
from research_taste_evals.tastybench.set_files import (
    PAPERS_FILE,
    REPORT_FILE,
    SetRow,
    one_fetch_date,
    read_report,
    set_texts,
)

logger = logging.getLogger(__name__)

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
        "build": {
            "report": str(folder.expanduser().resolve() / REPORT_FILE),
            **{key: report.get(key) for key in ("source", "venue", "fetch_date", "api_base")},
            "papers_unchanged_since_build": report.get("papers_sha256") == sha256_of(path),
        },
    }
    return LoadedPapers(papers=papers, metadata=metadata)
