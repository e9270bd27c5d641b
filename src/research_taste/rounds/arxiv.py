"""arXiv rounds: open on a category's papers first announced in the last N days; resolve their
citation velocity from Semantic Scholar once each paper's window has passed.

Open asks the arXiv API (``ARXIV_API_BASE``, default the export API) for
``cat:<category> AND submittedDate:[<from> TO <to>]`` in date order and keeps each paper's v1
date (``published``), title and abstract; the pairing group is the category. Its pages go
through one paced client (arXiv's pace between pages), and each full page, once it parsed, into
the round's ``cache/open``: an open interrupted the same day resumes from the full pages it
already has. The listing is in ascending date order, so later announcements only change the
last, partial page, which is always fetched anew.

The label is the citation velocity over a common window: the slope of the monthly cumulative
citation counts over the first ``window_months`` month starts after publication
(``core/velocity.common_window_velocity`` on ``core/velocity.citation_series``,
the series ``tastybench build`` writes). A paper's label is due at its last month start of the
window; before that its label is empty (pending). The label's time is that due date: the end of
the citation window, the first moment the label could exist.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from research_taste.builders.http import HttpClient, cache_file, write_atomic
from research_taste.builders.ideapairs.arxiv_answers import parse_atom
from research_taste.builders.ideapairs.papers import (
    API_ENV,
    DEFAULT_API,
    PACE_SECONDS,
    RETRIES,
    USER_AGENT,
)
from research_taste.builders.semantic_scholar import SemanticScholar
from research_taste.rounds import JUDGE_DAYS
from research_taste.rounds.manifest import utc_iso, utc_now, write_round
from research_taste.rounds.resolve import new_labels_version, record_labels_version
from research_taste_evals.core.rounds import RoundItem
from research_taste_evals.core.velocity import citation_series, common_window_velocity, month_starts

PAGE = 200
DEFAULT_WINDOW_MONTHS = 6
LABEL_COLUMNS = ("item_id", "label", "label_time", "due", "citations", "status")


def due_date(published: dt.date, window_months: int) -> dt.date:
    """The last month start of the paper's window: its label is due then."""
    far = published + dt.timedelta(days=31 * (window_months + 1))
    return month_starts(published, far)[window_months - 1]


def _listing_page(
    client: HttpClient, base: str, params: dict[str, Any], cache: Path
) -> dict[str, dict[str, Any]]:
    """One page of the arXiv API's listing: from ``cache`` when an earlier open of the same
    query fetched it, else through the builders' one paced, retried client (the arXiv reader's
    pace and retries: builders/ideapairs/papers.py), cached once it parsed if it is full."""
    cached = cache_file(cache, base, params, ".xml")
    fetched = not cached.is_file()
    url = f"{base}?{urllib.parse.urlencode(params)}"
    body = client.request(url, "GET the arXiv listing").body if fetched else cached.read_bytes()
    entries, _ = parse_atom(body, f"the arXiv API ({base})")
    if fetched and len(entries) >= int(params["max_results"]):
        write_atomic(cached, body)
    return entries


def open_arxiv(
    category: str,
    days: int,
    out: str | Path,
    *,
    window_months: int = DEFAULT_WINDOW_MONTHS,
    base_url: str | None = None,
    now: Callable[[], dt.datetime] = utc_now,
    page_size: int = PAGE,
    min_interval: float | None = None,
    judge_days: int = JUDGE_DAYS,
) -> dict[str, Any]:
    """Open a round on ``category``'s papers first announced in the last ``days`` days
    (``judge_days``: the judging window, ``round.json``'s ``judge_by``)."""
    pace = PACE_SECONDS if min_interval is None else min_interval
    client = HttpClient("arXiv", API_ENV, pace, RETRIES + 1, user_agent=USER_AGENT)
    opened = now()
    start, end = (opened - dt.timedelta(days=days)).date(), opened.date()
    base = base_url or os.environ.get(API_ENV) or DEFAULT_API
    query = f"cat:{category} AND submittedDate:[{start:%Y%m%d}0000 TO {end:%Y%m%d}2359]"
    items: list[RoundItem] = []
    counts: dict[str, int] = {}
    offset = 0
    while True:
        params = {
            "search_query": query,
            "sortBy": "submittedDate",
            "sortOrder": "ascending",
            "start": offset,
            "max_results": page_size,
        }
        entries = _listing_page(client, base, params, Path(out) / "cache" / "open")
        for arxiv_id, entry in entries.items():
            published = dt.date.fromisoformat(entry["date"]) if entry["date"] else None
            if published is None or not start <= published <= end or not entry["abstract"]:
                counts["outside_dates_or_no_abstract"] = (
                    counts.get("outside_dates_or_no_abstract", 0) + 1
                )
                continue
            items.append(
                RoundItem(
                    arxiv_id, entry["title"], published.isoformat(), entry["abstract"], category
                )
            )
        offset += page_size
        if len(entries) < page_size:
            break
    return write_round(
        Path(out),
        items,
        opened_at=opened,
        source="arxiv",
        query={"category": category, "days": days, "search_query": query, "api_base": base},
        label_plan={
            "headline": f"citation velocity over the first {window_months} month starts after "
            "publication (common window)",
            "window_months": window_months,
            "label_time": "the end of the citation window (the label's due date)",
            "labels_due": max(
                (due_date(dt.date.fromisoformat(i.pub_date), window_months) for i in items),
                default=end,
            ).isoformat(),
            "prompt": "goodhart",
            "horizon": "the window has passed",
        },
        counts={"kept": len(items), "left_out": counts},
        judge_days=judge_days,
    )


def _label_row(
    client: SemanticScholar, item: RoundItem, window: int, fetch: dt.date
) -> dict[str, Any]:
    published = dt.date.fromisoformat(item.pub_date)
    due = due_date(published, window)
    row: dict[str, Any] = {"item_id": item.item_id, "label": "", "due": due.isoformat()}
    row["label_time"] = utc_iso(dt.datetime.combine(due, dt.time(), dt.UTC))
    if fetch < due:
        return {**row, "citations": "", "status": "pending"}
    listed, _ = client.citation_dates(f"arXiv:{item.item_id}")
    citing = [dt.date.fromisoformat(day[:10]) for day in listed if day]
    months, counts = citation_series(published, citing, fetch)
    velocity = common_window_velocity(months, [float(c) for c in counts], window, fetch)
    # at its due date a series that cannot carry a slope never will: dropped (resolve.settle)
    status = "labelled" if math.isfinite(velocity) else "no_slope_at_due_date"
    row.update(citations=len(listed), status=status)
    if math.isfinite(velocity):
        row["label"] = f"{velocity:.6g}"
    return row


def resolve_arxiv(
    out: str | Path,
    *,
    base_url: str | None = None,
    now: Callable[[], dt.datetime] = utc_now,
    min_interval: float | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Fetch the round's citation labels as they stand now into a new labels version."""
    version = new_labels_version(out, now)
    client = SemanticScholar(
        version.cache_dir, base_url, min_interval=min_interval, today=version.today
    )
    window = int(version.round_.manifest["label_plan"]["window_months"])
    from tqdm import tqdm

    items = tqdm(version.round_.items, desc="citations", unit="paper", disable=not progress)
    rows = [_label_row(client, item, window, version.today()) for item in items]
    return record_labels_version(
        version, LABEL_COLUMNS, rows, horizon_reached=lambda row: row["status"] != "pending"
    )
