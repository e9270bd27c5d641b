"""A new TastyBench paper set from Semantic Scholar, built as the TastyBench blog built its own.

Upstream (``acceleration-proxies/citation_velocity.py``, parviam/tastybench @ be72f06a) searched
Semantic Scholar for a query and a publication window, kept papers with at least
``--min-citations`` citations, and built each paper's cumulative citation count at every month
start from its publication date to publication + 60 weeks (``pd.date_range(..., freq="MS")``:
at most 14 points), counting the citing papers published on or before that month start; its
velocity ``b`` is the least-squares slope of that series against t = 0, 1, ... This builder
differs where upstream's series was not observed: the months after the fetch date are left out
(upstream repeated the last count, see ``tastybench/velocity.py``), so ``velocity`` here is
upstream's ``b`` on the observed months (``windowed_velocity`` of the task, the same code).
The citing papers come from the citations endpoint paged to the end (upstream read the first
1,000 nested in the search answer); citing papers without a publication date are left out of
the series and counted. Papers are dropped, each with its reason, when they have no
publication date, a 1 January date (upstream skips these as "only year known"), fall outside
the window, are below the citation floor, have no abstract (the judge reads it), or have more
citing papers than the citations endpoint lists (9,999). The search
sends upstream's filters (Computer Science; conference, journal and study papers) unless told
otherwise, with the date filter spelt as the API documents it (``publicationDateOrYear``;
upstream's ``publicationDateorYear`` was ignored, so its papers span 2023-01..2025-09).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.build.semantic_scholar import SemanticScholar
from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.tastybench.velocity import windowed_velocity

PAPERS_FILE = "papers.csv"
REPORT_FILE = "build_report.json"
CACHE_DIR = "cache"
WRITTEN_NAMES = frozenset({PAPERS_FILE, REPORT_FILE, CACHE_DIR})
COLUMNS = (
    "paper_id",
    "title",
    "pub_date",
    "abstract",
    "total_citations",
    "citation_dates",
    "citation_counts",
    "velocity",
    "fetch_date",
    "undated_citations",
)
# Upstream's search filters (citation_velocity.py); "" sends none.
UPSTREAM_FIELDS_OF_STUDY = "Computer Science"
UPSTREAM_PUBLICATION_TYPES = "Conference,JournalArticle,Study"
SERIES_WEEKS = 60  # upstream: 4 * max_months_cited (15) weeks
SOURCE = "Semantic Scholar Academic Graph API (bulk search + citations)"


@dataclass(frozen=True)
class SetRequest:
    """What to build: the search query, the publication window and the citation floor."""

    query: str
    date_from: dt.date
    date_to: dt.date
    min_citations: int
    fields_of_study: str = UPSTREAM_FIELDS_OF_STUDY
    publication_types: str = UPSTREAM_PUBLICATION_TYPES

    def search_filters(self) -> dict[str, str]:
        """The search's field and type filters (an empty one is not sent)."""
        return {"fieldsOfStudy": self.fields_of_study, "publicationTypes": self.publication_types}


@dataclass
class BuiltSet:
    rows: list[dict[str, Any]]
    dropped: dict[str, list[str]] = field(default_factory=dict)
    fetch_date: dt.date | None = None
    undated_citations: int = 0


def parse_date(value: str, flag: str) -> dt.date:
    """``YYYY-MM-DD`` as a date; a ``DataError`` naming ``flag`` otherwise."""
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise DataError(f"{flag} {value!r} is not a date in the form YYYY-MM-DD") from None


def month_starts(pub_date: dt.date, fetch_date: dt.date) -> list[dt.date]:
    """Month starts on or after ``pub_date``, up to publication + 60 weeks and the fetch date."""
    end = min(pub_date + dt.timedelta(weeks=SERIES_WEEKS), fetch_date)
    month = pub_date.replace(day=1)
    if month < pub_date:
        month = (month + dt.timedelta(days=32)).replace(day=1)
    starts = []
    while month <= end:
        starts.append(month)
        month = (month + dt.timedelta(days=32)).replace(day=1)
    return starts


def citation_series(
    pub_date: dt.date, citing_dates: Sequence[dt.date], fetch_date: dt.date
) -> tuple[list[str], list[int]]:
    """Upstream's series: at each month start, the citing papers published on or before it."""
    starts = month_starts(pub_date, fetch_date)
    counts = [sum(1 for day in citing_dates if day <= start) for start in starts]
    return [start.isoformat() for start in starts], counts


def drop_reason(paper: dict[str, Any], request: SetRequest, seen: set[str]) -> str | None:
    """Why a search result is not in the set (None: kept)."""
    if paper.get("paperId") in seen:
        return "duplicate_in_search"
    raw = paper.get("publicationDate")
    if not raw:
        return "no_publication_date"
    try:
        published = dt.date.fromisoformat(raw)
    except ValueError:
        return "no_publication_date"
    if (published.month, published.day) == (1, 1):
        return "year_only_date"
    if not request.date_from <= published <= request.date_to:
        return "outside_window"
    if int(paper.get("citationCount") or 0) < request.min_citations:
        return "below_min_citations"
    if not (paper.get("abstract") or "").strip():
        return "no_abstract"
    return None


def _dated(values: Sequence[str | None]) -> tuple[list[dt.date], int]:
    dates, undated = [], 0
    for value in values:
        try:
            dates.append(dt.date.fromisoformat(value or ""))
        except ValueError:  # no date, or not a day: left out of the series and counted
            undated += 1
    return dates, undated


def build_set(client: SemanticScholar, request: SetRequest, progress: bool = True) -> BuiltSet:
    """Search, screen, fetch every kept paper's citations, and compute the series."""
    from tqdm import tqdm

    built = BuiltSet(rows=[])
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    search = client.bulk_search(
        request.query,
        request.date_from,
        request.date_to,
        min_citations=request.min_citations,
        filters=request.search_filters(),
    )
    for paper in tqdm(search, desc="search", unit="paper", disable=not progress):
        reason = drop_reason(paper, request, seen)
        seen.add(str(paper.get("paperId")))
        if reason is None:
            kept.append(paper)
        else:
            built.dropped.setdefault(reason, []).append(str(paper.get("paperId")))
    citing: dict[str, tuple[list[dt.date], int]] = {}
    for paper in tqdm(kept, desc="citations", unit="paper", disable=not progress):
        listed, truncated = client.citation_dates(paper["paperId"])
        if truncated:  # a series from part of the citations would be wrong, not just noisy
            built.dropped.setdefault("citations_over_api_limit", []).append(paper["paperId"])
        else:
            citing[paper["paperId"]] = _dated(listed)
    kept = [paper for paper in kept if paper["paperId"] in citing]
    built.fetch_date = min(dt.date.fromisoformat(day) for day in client.fetch_dates)
    for paper in kept:
        dates, undated = citing[paper["paperId"]]
        published = dt.date.fromisoformat(paper["publicationDate"])
        months, counts = citation_series(published, dates, built.fetch_date)
        velocity = windowed_velocity(months, counts, built.fetch_date)
        built.undated_citations += undated
        built.rows.append(
            {
                "paper_id": paper["paperId"],
                "title": " ".join(str(paper.get("title") or "").split()),
                "pub_date": published.isoformat(),
                "abstract": paper["abstract"].strip(),
                "total_citations": int(paper.get("citationCount") or 0),
                "citation_dates": json.dumps(months),
                "citation_counts": json.dumps(counts),
                "velocity": "" if math.isnan(velocity) else repr(velocity),
                "fetch_date": built.fetch_date.isoformat(),
                "undated_citations": undated,
            }
        )
    return built


def check_out_dir(out: Path) -> None:
    """``--out`` may be new, empty, or an earlier build's folder (to resume or redo it).

    Raises:
        DataError: it is a file, or a folder holding anything this builder does not write.
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


def write_set(
    out: Path, request: SetRequest, client: SemanticScholar, built: BuiltSet
) -> dict[str, Any]:
    """Write ``papers.csv`` (sorted by velocity, as upstream's ranking) and the build report."""
    out.mkdir(parents=True, exist_ok=True)
    rows = sorted(built.rows, key=lambda row: -float(row["velocity"] or "-inf"))
    papers = out / PAPERS_FILE
    with papers.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    report = {
        "source": SOURCE,
        "api_base": client.base_url,
        "api_key_used": client.keyed,
        "query": request.query,
        "window": {"from": request.date_from.isoformat(), "to": request.date_to.isoformat()},
        "min_citations": request.min_citations,
        "search_filters": request.search_filters(),
        "fetch_date": built.fetch_date.isoformat() if built.fetch_date else None,
        "series": f"month starts from publication to publication + {SERIES_WEEKS} weeks and "
        "the fetch date; velocity = least-squares slope (upstream's b on observed months)",
        "kept": len(rows),
        "dropped": {reason: len(ids) for reason, ids in sorted(built.dropped.items())},
        "dropped_ids": dict(sorted(built.dropped.items())),
        "undated_citations_left_out": built.undated_citations,
        "papers_without_velocity": [row["paper_id"] for row in rows if not row["velocity"]],
        "requests": {
            "network": client.counts.network,
            "cached": client.counts.cached,
            "retried": client.counts.retried,
            "retried_by_status": client.counts.retried_by_status,
        },
        "papers_sha256": sha256_of(papers),
    }
    (out / REPORT_FILE).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def build(
    request: SetRequest,
    out: str | Path,
    client: SemanticScholar | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Build the set into ``out`` (cache in ``out/cache``); returns the build report."""
    folder = Path(out)
    check_out_dir(folder)
    if request.date_from > request.date_to:
        raise DataError(f"--from {request.date_from} is after --to {request.date_to}")
    if request.min_citations < 0:
        raise DataError(f"--min-citations must be 0 or more, got {request.min_citations}")
    client = client or SemanticScholar(folder / CACHE_DIR)
    built = build_set(client, request, progress)
    return write_set(folder, request, client, built)
