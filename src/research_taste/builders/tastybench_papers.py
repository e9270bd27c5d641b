"""The kept papers of a TastyBench build: abstracts (Semantic Scholar, else arXiv through
``externalIds.ArXiv``), each paper's listed citations (compared with its ``citationCount``,
bounded by date over the endpoint's cap) and its velocity or the reason it has none."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from research_taste.builders.ideapairs.papers import ArxivFetcher
from research_taste.builders.semantic_scholar import CITATIONS_CAP, SemanticScholar
from research_taste_evals.core.velocity import SERIES_WEEKS, windowed_velocity

# Above this share of undated citing papers the series misses most of the paper's citations
# (they are left out of it), so its slope says more about the dating than about the paper: the
# velocity is left blank with the reason. A paper whose citations are all undated has none.
UNDATED_SHARE_MAX = 0.5


@dataclass
class BuiltSet:
    rows: list[dict[str, Any]]
    dropped: dict[str, list[str]] = field(default_factory=dict)
    fetch_date: dt.date | None = None
    undated_citations: int = 0
    future_citations: int = 0  # citing papers dated after the fetch date, left out
    abstract_sources: dict[str, int] = field(default_factory=dict)
    arxiv_dropped: dict[str, str] = field(default_factory=dict)
    short_lists: dict[str, dict[str, int]] = field(default_factory=dict)
    bounded: list[str] = field(default_factory=list)
    search_total: int | None = None


def arxiv_id_of(paper: dict[str, Any]) -> str:
    """The paper's arXiv id from ``externalIds.ArXiv`` ("" when it has none)."""
    external = paper.get("externalIds") or {}
    value = external.get("ArXiv") if isinstance(external, dict) else None
    return value.strip() if isinstance(value, str) else ""


def fill_abstracts(papers: list[dict[str, Any]], arxiv: ArxivFetcher, built: BuiltSet) -> None:
    """Give each paper an abstract, from Semantic Scholar, else from arXiv through
    ``externalIds.ArXiv``; count each source, and drop (with the reason) papers with none."""
    missing = [p for p in papers if not (p.get("abstract") or "").strip() and arxiv_id_of(p)]
    found = arxiv.metadata(arxiv_id_of(p) for p in missing) if missing else {}
    built.arxiv_dropped.update(arxiv.stats.dropped)
    for paper in papers:
        if (paper.get("abstract") or "").strip():
            source = "semantic_scholar"
        elif (found.get(arxiv_id_of(paper)) or {}).get("abstract"):
            paper["abstract"], source = found[arxiv_id_of(paper)]["abstract"], "arxiv"
        else:  # why arXiv did not give it either, when it was asked
            asked = arxiv_id_of(paper)
            reason = (
                "no_abstract_arxiv_id_dropped"
                if asked in arxiv.stats.dropped
                else "no_abstract_arxiv_unanswered"
                if asked in arxiv.stats.unanswered
                else "no_abstract"
            )
            built.dropped.setdefault(reason, []).append(paper["paperId"])
            continue
        paper["abstract_source"] = source
        built.abstract_sources[source] = built.abstract_sources.get(source, 0) + 1


def series_end(published: dt.date) -> dt.date:
    """The last day of a paper's series (publication + 60 weeks)."""
    return published + dt.timedelta(weeks=SERIES_WEEKS)


def listed_citations(
    client: SemanticScholar, paper: dict[str, Any], built: BuiltSet
) -> list[str | None] | None:
    """The citing papers' dates, bounded by date when the full list passes the endpoint's cap
    (None: over the cap even then, dropped with the reason); short lists flagged."""
    paper_id, cited = paper["paperId"], int(paper.get("citationCount") or 0)
    until = series_end(dt.date.fromisoformat(paper["publicationDate"]))
    truncated = True
    if cited <= CITATIONS_CAP:
        listed, truncated = client.citation_dates(paper_id)
    if truncated:  # only the citing papers the series counts, which may fit under the cap
        listed, truncated = client.citation_dates(paper_id, until=until)
        if truncated:  # a series from part of the citations would be wrong, not just noisy
            built.dropped.setdefault("citations_over_api_limit", []).append(paper_id)
            return None
        built.bounded.append(paper_id)
    elif len(listed) < cited:
        built.short_lists[paper_id] = {"listed": len(listed), "citationCount": cited}
    return listed


def velocity_of(
    months: list[str],
    counts: list[int],
    fetch: dt.date,
    listed: int,
    undated: int,
    cited: int,
    future: int = 0,
) -> tuple[float | None, str]:
    """The series' slope, or None with the reason when the series cannot carry one (citing
    papers undated or dated after the fetch date count alike: their citing day is unknown)."""
    if listed == 0 and cited > 0:
        return None, f"no citing paper listed (citationCount {cited})"
    if listed and (undated + future) / listed > UNDATED_SHARE_MAX:
        after = f" or dated after the fetch date ({future})" if future else ""
        return None, (
            f"{undated + future} of {listed} citing papers undated{after} (more than "
            f"{UNDATED_SHARE_MAX:.0%})"
        )
    velocity = windowed_velocity(months, counts, fetch)
    if math.isnan(velocity):
        return None, "fewer than two observed month starts"
    return velocity, ""


def dated_citations(
    values: Sequence[str | None], fetch_date: dt.date
) -> tuple[list[dt.date], int, int]:
    """The citing papers' days, the number undated (no day, or not a day) and the number dated
    after the fetch date; both left out of the series and counted."""
    dates, undated, future = [], 0, 0
    for value in values:
        try:
            day = dt.date.fromisoformat(value or "")
        except ValueError:
            undated += 1
            continue
        if day > fetch_date:
            future += 1
        else:
            dates.append(day)
    return dates, undated, future
