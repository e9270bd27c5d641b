"""TastyBench papers from upstream's files: the citation series, their velocity (the ground
truth) and the text shown to the judge.

Upstream files (parviam/tastybench @ be72f06a, ``model-elicitation/data/``; the repository has
no license, so they are downloaded at run time, checksummed and cached, never vendored):

- ``llm_rl_yix_curate.csv``: the curated 37-paper ground truth. Columns read: ``paperId``,
  ``title``, ``pub_date``, ``b`` (upstream velocity), ``citation_dates`` and
  ``citation_counts`` (JSON lists: month starts and cumulative counts).
- ``llm_rl_yix_curate_with_ideas.csv``: ``paper_id``, ``abstract``, ``title``, ``idea`` for the
  same 37 papers (ideas extracted by gpt-oss-120b, upstream's curated prompt).
- ``llm_rl.csv``: the 97-paper set, same columns as the curated file; upstream ships no ideas
  or abstracts for it, so it needs a representations file (see ``tastybench_extract``).

``-T data_path=<dir>`` replaces the download with a local directory in the upstream layout
(``<dir>/model-elicitation/data/<file>``) or holding the files directly.

The rows every paper set shares (``built_set.py`` reads the built ones): each paper id once,
a ``pub_date`` neither in the future nor after its citation series starts, and the recall
controls' facts (:func:`recall_facts`: checked ``pub_date``s, which the post-cutoff metrics
read, and the texts that name their paper, for which the recognition probe is moot).

Citation velocity: upstream (``acceleration-proxies/citation_velocity.py``) builds, for each
paper, the cumulative citation count at every month start from the publication date to
publication + 60 weeks and fits ``counts = a + b t`` by least squares with t = 0, 1, ..., n-1;
``b`` is the velocity. The counts were fetched on 2025-11-08 (the results folders are
``20251108_013017`` and ``20251108_032707``), so for a recent paper the months after that date
are not observations: they repeat the last known count ("flat-filled"), which drags ``b`` down.
``windowed`` fits the same line to the months that had started by the fetch date only. Windows
then run from 2 to 14 months, and a short window means a recent paper, so ``windowed`` velocity
partly measures the publication era; ``common_window`` fits the same number of months after
publication for every paper and leaves out the papers observed for fewer months.

Short common windows for live sets (``schedule.SHORT_WINDOWS``: labels sooner, noisier): the
README, "Short windows for live sets".
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Json

from research_taste_evals.core.data import (
    DataError,
    PinnedFile,
    read_csv,
    resolve_data,
    sha256_of,
    validate_records,
)
from research_taste_evals.core.dates import date_range, parse_item_date, require_item_date
from research_taste_evals.core.leaks import name_leaks, title_names
from research_taste_evals.core.velocity import (
    common_window_velocity,
    observed_months,
    windowed_velocity,
)

logger = logging.getLogger(__name__)

VelocityMode = Literal["windowed", "upstream", "common_window"]

# Date of upstream's Semantic Scholar fetch (results folder names, see the module docstring).
UPSTREAM_FETCH_DATE = dt.date(2025, 11, 8)
# Upstream's series: the month starts within publication + 60 weeks, i.e. at most 14.
MAX_SERIES_MONTHS = 14
# Common window: 6 months after publication keeps 32 of the 37 curated papers (12 keeps 14).
DEFAULT_WINDOW_MONTHS = 6
UPSTREAM_REPO = "parviam/tastybench"
UPSTREAM_COMMIT = "be72f06afd1e75ffd2f3067c87a616e4de6e4633"
UPSTREAM_DATA_DIR = "model-elicitation/data"
_RAW_BASE = f"https://raw.githubusercontent.com/{UPSTREAM_REPO}/{UPSTREAM_COMMIT}/"

PaperSet = Literal["curated", "full"]
MIN_PAPERS = 2


def _upstream_file(name: str, sha256: str) -> PinnedFile:
    return PinnedFile(url=f"{_RAW_BASE}{UPSTREAM_DATA_DIR}/{name}", sha256=sha256, filename=name)


PAPER_FILES: dict[PaperSet, PinnedFile] = {
    "curated": _upstream_file(
        "llm_rl_yix_curate.csv", "eef443a0b0d2e0a6570bfac36ba7c7b6b30d03589c3413ac8104904b0fde7085"
    ),
    "full": _upstream_file(
        "llm_rl.csv", "0298d0cc7a662414d1821ee6fd9b06affbd2c9d16b4077ae10d477349ea87fed"
    ),
}
IDEA_FILES: dict[PaperSet, PinnedFile | None] = {
    "curated": _upstream_file(
        "llm_rl_yix_curate_with_ideas.csv",
        "81131d056ec07637f06d1df2e6caac827274ca6222ce12070f93bfee8825e0b4",
    ),
    "full": None,
}


@dataclass(frozen=True)
class Paper:
    """A paper as the task uses it: its id, the judge's text and its velocities."""

    paper_id: str
    title: str
    pub_date: str
    text: str
    velocity_upstream: float
    velocity_windowed: float
    velocity_common: float = float("nan")
    months_observed: int = 0
    field: str | None = None  # OpenReview sets: the primary area (schedule=matched pairs within)

    @cached_property
    def identity_leak(self) -> tuple[str, ...]:
        """The paper's own names (title, method name, coined words) found in ``text``."""
        return tuple(name_leaks(self.text, title_names(self.title)))

    def velocity(self, mode: VelocityMode) -> float:
        """The ground truth of ``mode`` (NaN when the paper lacks it)."""
        if mode == "upstream":
            return self.velocity_upstream
        if mode == "common_window":
            return self.velocity_common
        return self.velocity_windowed


@dataclass(frozen=True)
class LoadedPapers:
    papers: list[Paper]
    metadata: dict[str, Any]


Representation = Literal["idea", "abstract", "summary"]

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


def recall_facts(papers: Sequence[Paper], papers_path: Path, text_path: Path) -> dict[str, Any]:
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


def locate(pinned: PinnedFile, data_path: str | Path | None) -> tuple[Path, str]:
    """Local path of an upstream file and a provenance string (source + sha256).

    With ``data_path`` (a directory) the file is looked up in the upstream layout first, then
    directly inside the directory; otherwise the pinned file is downloaded (or read from cache).
    """
    if data_path is None:
        resolved = resolve_data(pinned, None)
        return resolved.path, f"{resolved.source}@{UPSTREAM_COMMIT[:12]}"
    root = resolve_data(None, data_path).path
    if not root.is_dir():
        raise DataError(f"{root}: data_path must be a directory (upstream layout)")
    for candidate in (root / UPSTREAM_DATA_DIR / pinned.filename, root / pinned.filename):
        if candidate.is_file():
            return candidate, f"local:{candidate} sha256:{sha256_of(candidate)}"
    raise DataError(
        f"{root}: no {pinned.filename} (looked in {UPSTREAM_DATA_DIR}/ and the folder itself)"
    )


def series_velocities(
    dates: Sequence[str], counts: Sequence[float], fetch: dt.date, window_months: int, where: str
) -> tuple[float, float, int]:
    """(windowed velocity, common-window velocity, month starts observed) of a citation series
    as of ``fetch``; ``where`` names the file and the paper.

    Raises:
        DataError: the series is malformed (field ``citation_dates``).
    """
    try:
        return (
            windowed_velocity(dates, counts, fetch),
            common_window_velocity(dates, counts, window_months, fetch),
            observed_months(dates, fetch),
        )
    except ValueError as error:
        raise DataError(f"{where}: field 'citation_dates': {error}") from error


def record_to_paper(
    record: PaperRecord,
    text: str,
    source: Path | str,
    window_months: int = DEFAULT_WINDOW_MONTHS,
) -> Paper:
    """Build a :class:`Paper` from a ground-truth row and the text shown to the judge.

    Reads ``paperId``, ``title``, ``pub_date``, ``b`` (the upstream velocity, kept as is) and
    ``citation_dates``/``citation_counts`` (the windowed and common-window velocities are
    recomputed from them).

    Raises:
        DataError: the citation series or ``pub_date`` is malformed (naming file, paper, field).
    """
    windowed, common, observed = series_velocities(
        record.citation_dates,
        record.citation_counts,
        UPSTREAM_FETCH_DATE,
        window_months,
        f"{source}: paper {record.paperId}",
    )
    return Paper(
        paper_id=record.paperId,
        title=record.title,
        pub_date=record.pub_date,
        text=text,
        velocity_upstream=record.b,
        velocity_windowed=windowed,
        velocity_common=common,
        months_observed=observed,
    )


def velocity_gaps(papers: Sequence[Paper], window_months: int) -> dict[str, Any]:
    """The metadata's papers without a windowed or a common-window velocity, and the window."""
    return {
        "papers_without_windowed_velocity": [
            paper.paper_id for paper in papers if math.isnan(paper.velocity_windowed)
        ],
        "window_months": window_months,
        "papers_without_common_window": [
            paper.paper_id for paper in papers if math.isnan(paper.velocity_common)
        ],
    }


def load_papers(
    paper_set: PaperSet,
    representation: Representation,
    data_path: str | Path | None = None,
    representations_path: str | Path | None = None,
    window_months: int = DEFAULT_WINDOW_MONTHS,
) -> LoadedPapers:
    """Load a paper set with its velocities and the chosen representation of each paper.

    Papers with no text in the representation source are dropped and listed in the metadata
    (``papers_without_text``), as upstream drops papers without an abstract. ``window_months``
    sets the common window of ``velocity=common_window``.

    Raises:
        DataError: a file is missing or malformed, there is no source for the representation,
            or fewer than two papers remain.
    """
    papers_path, papers_source = locate(PAPER_FILES[paper_set], data_path)
    records = validate_records(read_csv(papers_path), PaperRecord, source=papers_path)
    check_paper_rows(records, papers_path)
    if representations_path is not None:
        text_path = resolve_data(None, representations_path, what="representations_path").path
        text_source = f"local:{text_path} sha256:{sha256_of(text_path)}"
    else:
        pinned_texts = IDEA_FILES[paper_set]
        if pinned_texts is None or representation == "summary":
            raise DataError(
                f"paper_set '{paper_set}' has no upstream {representation}s: write them with "
                "`research-taste tastybench-extract` and pass -T representations_path=<csv>"
            )
        text_path, text_source = locate(pinned_texts, data_path)
    texts = load_representations(text_path, representation)
    papers = [
        record_to_paper(record, texts[record.paperId], papers_path, window_months)
        for record in records
        if record.paperId in texts
    ]
    missing = [record.paperId for record in records if record.paperId not in texts]
    if missing:
        logger.warning("%s: %d papers lack a %s; left out", text_path, len(missing), representation)
    if len(papers) < MIN_PAPERS:
        raise DataError(f"{text_path}: only {len(papers)} papers have a {representation}")
    unknown = sorted(set(texts) - {record.paperId for record in records})
    metadata = {
        "paper_set": paper_set,
        "papers": len(papers),
        "papers_source": papers_source,
        "representation_source": text_source,
        "papers_without_text": missing,
        "texts_for_unknown_papers": unknown,
        **velocity_gaps(papers, window_months),
        **recall_facts(papers, papers_path, text_path),
    }
    return LoadedPapers(papers=papers, metadata=metadata)
