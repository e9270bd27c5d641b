"""A new TastyBench paper set from Semantic Scholar, built as the TastyBench blog built its own.

Upstream (``acceleration-proxies/citation_velocity.py``, parviam/tastybench @ be72f06a)
searched Semantic Scholar with the relevance search (``--search relevance``, the default: its
first 1,000 ranked results at most; ``--search bulk`` reads every match, unranked, with the
terms ANDed) for a query and a publication window, kept papers with at least
``--min-citations`` citations, and built each paper's cumulative citation count at every month
start from its publication date to publication + 60 weeks (``pd.date_range(..., freq="MS")``:
at most 14 points), counting the citing papers published on or before that month start; its
velocity ``b`` is the least-squares slope of that series against t = 0, 1, ... This builder
differs where upstream's series was not observed: the months after the fetch date are left out
(upstream repeated the last count, see ``tastybench/dataset.py``), so ``velocity`` here is
upstream's ``b`` on the observed months (``windowed_velocity`` of the task, the same code).
The citing papers come from the citations endpoint paged to the end (upstream read the first
1,000 nested in the search answer); citing papers without a publication date are left out of
the series and counted, as are citing papers dated after the fetch date (a 2030 date is no
citation yet); when more than :data:`UNDATED_SHARE_MAX` of a paper's listed citing
papers are undated, its series is mostly missing and its velocity is left blank with the
reason (never ``0.0``). Each paper's listed citations are compared with its ``citationCount``
and short lists are flagged in the report. A paper without an abstract takes it from arXiv
through ``externalIds.ArXiv`` (the arXiv API, ``ARXIV_API_BASE``), counted per source.
Papers are dropped, each with its reason, when they have no publication date, a 1 January date
(upstream skips these as "only year known"), fall outside the window, are below the citation
floor, have no abstract from either source (the judge reads it), or have more citing papers
up to publication + 60 weeks than the citations endpoint lists (9,999; a paper over it is
first asked again with the endpoint's ``publicationDateOrYear`` filter up to that day). The search
sends upstream's filters (Computer Science; conference, journal and study papers) unless told
otherwise, with the date filter spelt as the API documents it (``publicationDateOrYear``;
upstream's ``publicationDateorYear`` was ignored, so its papers span 2023-01..2025-09).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_taste.builders.ideapairs.papers import ArxivFetcher
from research_taste.builders.out_dir import out_folder
from research_taste.builders.semantic_scholar import RELEVANCE_LIMIT, SemanticScholar
from research_taste.builders.tastybench_args import WRITTEN_NAMES, check_query, check_window
from research_taste.builders.tastybench_papers import (
    UNDATED_SHARE_MAX,
    BuiltSet,
    dated_citations,
    fill_abstracts,
    listed_citations,
    velocity_of,
)
from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.core.velocity import SERIES_WEEKS, citation_series

PAPERS_FILE = "papers.csv"
REPORT_FILE = "build_report.json"
CACHE_DIR = "cache"
ARXIV_CACHE = "arxiv"  # inside CACHE_DIR
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
    "velocity_note",
    "abstract_source",
)
# Upstream's search filters (citation_velocity.py); "" sends none.
UPSTREAM_FIELDS_OF_STUDY = "Computer Science"
UPSTREAM_PUBLICATION_TYPES = "Conference,JournalArticle,Study"
SOURCE = "Semantic Scholar Academic Graph API (search + citations)"
SEARCH_SEMANTICS = {
    "relevance": f"GET /paper/search: ranked by relevance, the first {RELEVANCE_LIMIT:,} "
    "results at most (upstream's endpoint)",
    "bulk": "GET /paper/search/bulk: every match, unranked; plain terms are ANDed "
    "(| is OR, - negates, quotes make a phrase)",
}


@dataclass(frozen=True)
class SetRequest:
    """What to build: the search query, the publication window and the citation floor."""

    query: str
    date_from: dt.date
    date_to: dt.date
    min_citations: int
    fields_of_study: str = UPSTREAM_FIELDS_OF_STUDY
    publication_types: str = UPSTREAM_PUBLICATION_TYPES
    search: str = "relevance"
    from_flag: str = "--from"  # the flag the window's start came from (--from or --after)

    def search_filters(self) -> dict[str, str]:
        """The search's field and type filters (an empty one is not sent)."""
        return {"fieldsOfStudy": self.fields_of_study, "publicationTypes": self.publication_types}


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
    return None


def build_set(
    client: SemanticScholar,
    request: SetRequest,
    progress: bool = True,
    arxiv: ArxivFetcher | None = None,
) -> BuiltSet:
    """Search, screen, fill abstracts, fetch every kept paper's citations, compute the series."""
    from tqdm import tqdm

    built = BuiltSet(rows=[])
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    search = client.search(
        request.search,
        request.query,
        request.date_from,
        request.date_to,
        min_citations=request.min_citations,
        filters=request.search_filters(),
    )
    for paper in tqdm(search, desc="search", unit="paper", disable=not progress):
        reason = drop_reason(paper, request, seen)
        seen.add(str(paper["paperId"]))
        if reason is None:
            kept.append(paper)
        else:
            built.dropped.setdefault(reason, []).append(str(paper["paperId"]))
    built.search_total = client.search_total
    if arxiv is None:
        arxiv = ArxivFetcher(client.cache_dir / ARXIV_CACHE)
        arxiv.offline_hint = " (it gives the abstracts Semantic Scholar lacks)"
    fill_abstracts(kept, arxiv, built)
    kept = [paper for paper in kept if "abstract_source" in paper]
    citing: dict[str, list[str | None]] = {}
    for paper in tqdm(kept, desc="citations", unit="paper", disable=not progress):
        listed = listed_citations(client, paper, built)
        if listed is not None:
            citing[paper["paperId"]] = listed
    kept = [paper for paper in kept if paper["paperId"] in citing]
    if client.fetch_dates:
        built.fetch_date = min(dt.date.fromisoformat(day) for day in client.fetch_dates)
    for paper in kept:
        listed = citing[paper["paperId"]]
        assert built.fetch_date is not None  # the search answered
        dates, undated, future = dated_citations(listed, built.fetch_date)
        published = dt.date.fromisoformat(paper["publicationDate"])
        months, counts = citation_series(published, dates, built.fetch_date)
        cited = int(paper.get("citationCount") or 0)
        velocity, note = velocity_of(
            months, counts, built.fetch_date, len(listed), undated, cited, future
        )
        built.undated_citations += undated
        built.future_citations += future
        built.rows.append(
            {
                "paper_id": paper["paperId"],
                "title": " ".join(str(paper.get("title") or "").split()),
                "pub_date": published.isoformat(),
                "abstract": " ".join(paper["abstract"].split()),
                "total_citations": cited,
                "citation_dates": json.dumps(months),
                "citation_counts": json.dumps(counts),
                "velocity": "" if velocity is None else repr(velocity),
                "fetch_date": built.fetch_date.isoformat(),
                "undated_citations": undated,
                "velocity_note": note,
                "abstract_source": paper["abstract_source"],
            }
        )
    return built


def no_papers_message(request: SetRequest, built: BuiltSet) -> str:
    """One sentence for a build that kept no paper."""
    dropped = ", ".join(f"{reason} {len(ids)}" for reason, ids in sorted(built.dropped.items()))
    return (
        f"the {request.search} search for --query {request.query!r} from {request.date_from} to "
        f"{request.date_to} kept no paper ({dropped or 'the search returned none'}); widen the "
        "window, lower --min-citations or change the query (nothing was written but the cache)"
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
        "search": request.search,
        "search_semantics": SEARCH_SEMANTICS[request.search],
        "search_total": built.search_total,
        "search_limit_reached": request.search == "relevance"
        and (built.search_total or 0) > RELEVANCE_LIMIT,
        "fetch_date": built.fetch_date.isoformat() if built.fetch_date else None,
        "series": f"month starts from publication to publication + {SERIES_WEEKS} weeks and "
        "the fetch date; velocity = least-squares slope (upstream's b on observed months)",
        "kept": len(rows),
        "dropped": {reason: len(ids) for reason, ids in sorted(built.dropped.items())},
        "dropped_ids": dict(sorted(built.dropped.items())),
        "undated_citations_left_out": built.undated_citations,
        "future_dated_citations_left_out": built.future_citations,
        "papers_without_velocity": {
            row["paper_id"]: row["velocity_note"] for row in rows if not row["velocity"]
        },
        "undated_share_max": UNDATED_SHARE_MAX,
        "abstracts_by_source": dict(sorted(built.abstract_sources.items())),
        "arxiv_ids_dropped": dict(sorted(built.arxiv_dropped.items())),
        "short_citation_lists": dict(sorted(built.short_lists.items())),
        "citations_bounded_by_date": sorted(built.bounded),
        "requests": client.counts.as_report(),
        "papers_sha256": sha256_of(papers),
    }
    (out / REPORT_FILE).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def build(
    request: SetRequest,
    out: str | Path,
    client: SemanticScholar | None = None,
    progress: bool = True,
    arxiv: ArxivFetcher | None = None,
    today: Callable[[], dt.date] = dt.date.today,
) -> dict[str, Any]:
    """Build the set into ``out`` (cache in ``out/cache``); returns the build report.

    Every argument is checked before any request: the query, the search mode, the window (not
    ending before it starts, not starting in the future), the citation floor and ``--out``.

    Raises:
        DataError: a bad argument, an unusable answer, or no paper kept (one sentence each).
    """
    folder = Path(out)
    check_query(request.query)
    if request.search not in SEARCH_SEMANTICS:
        raise DataError(f"--search {request.search!r}: expected relevance or bulk")
    check_window(request.date_from, request.date_to, today(), request.from_flag)
    if request.min_citations < 0:
        raise DataError(f"--min-citations must be 0 or more, got {request.min_citations}")
    with out_folder(folder, WRITTEN_NAMES):  # a failed build leaves no empty folder behind
        client = client or SemanticScholar(folder / CACHE_DIR)
        built = build_set(client, request, progress, arxiv)
        if not built.rows:
            raise DataError(no_papers_message(request, built))
        return write_set(folder, request, client, built)
