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
from research_taste.rounds.checks import (
    MAX_DAYS,
    MAX_JUDGE_DAYS,
    MAX_WINDOW_MONTHS,
    WINDOW_WHY,
    ItemGate,
    check_category,
    check_range,
    parse_day,
    prepare_out,
)
from research_taste.rounds.manifest import utc_iso, utc_now, write_round
from research_taste.rounds.resolve import new_labels_version, record_labels_version
from research_taste_evals.core.data import DataError
from research_taste_evals.core.rounds import RoundItem
from research_taste_evals.core.velocity import citation_series, common_window_velocity, month_starts

PAGE = 200
DEFAULT_DAYS = 7  # `round open --days`: a week's announcements
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
    check_category(category)
    check_range("--days", days, 1, MAX_DAYS)
    check_range("--window-months", window_months, 1, MAX_WINDOW_MONTHS, WINDOW_WHY)
    check_range("--judge-days", judge_days, 1, MAX_JUDGE_DAYS)
    prepare_out(Path(out), {"source": "arxiv", "category": category, "days": days})
    pace = PACE_SECONDS if min_interval is None else min_interval
    client = HttpClient("arXiv", API_ENV, pace, RETRIES + 1, user_agent=USER_AGENT)
    opened = now()
    start, end = (opened - dt.timedelta(days=days)).date(), opened.date()
    base = base_url or os.environ.get(API_ENV) or DEFAULT_API
    query = f"cat:{category} AND submittedDate:[{start:%Y%m%d}0000 TO {end:%Y%m%d}2359]"
    items: list[RoundItem] = []
    counts: dict[str, int] = {}
    gate = ItemGate(end, counts)
    offset, previous = 0, None
    while True:
        params = {
            "search_query": query,
            "sortBy": "submittedDate",
            "sortOrder": "ascending",
            "start": offset,
            "max_results": page_size,
        }
        entries = _listing_page(client, base, params, Path(out) / "cache" / "open")
        if entries and set(entries) == previous:
            # a server that ignores ``start`` answers every page alike: paging on never ends
            raise DataError(
                f"the arXiv API ({base}) answered start={offset} with the same papers as the "
                "page before (it ignores `start`); is ARXIV_API_BASE the arXiv API's query URL?"
            )
        previous = set(entries)
        for arxiv_id, entry in entries.items():
            reason = gate.reason(arxiv_id, entry["title"], entry["abstract"], entry["date"])
            published = parse_day(entry["date"])
            if reason is None and published is not None:
                if published < start or not entry["abstract"]:
                    reason = "outside_dates_or_no_abstract"
                elif due_date(published, window_months) <= end:
                    reason = "label_due"  # its window has passed: the label may exist already
            if reason is not None:
                gate.leave(reason)
                continue
            assert published is not None
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
    try:
        listed, _ = client.citation_dates(f"arXiv:{item.item_id}")
    except DataError as error:
        # One paper never stops a resolve: one Semantic Scholar does not know leaves the round
        # (dropped, ``not_found``); any other failure leaves it pending for the next resolve.
        status = "not_found" if " answered 404 " in str(error) else "fetch_failed"
        return {**row, "citations": "", "status": status, "problem": str(error)}
    citing, early = [], 0
    for day in listed:
        moment = parse_day(day)
        early += moment is not None and moment < published
        if moment is not None and moment >= published:  # undated or before the paper: not
            citing.append(moment)  # counted (a bad date upstream), the early ones reported
    months, counts = citation_series(published, citing, fetch)
    velocity = common_window_velocity(months, [float(c) for c in counts], window, fetch)
    # at its due date a series that cannot carry a slope never will: dropped (resolve.settle)
    status = "labelled" if math.isfinite(velocity) else "no_slope_at_due_date"
    row.update(citations=len(listed), status=status, early=early)
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
    failed = {row["item_id"]: row.pop("problem") for row in rows if "problem" in row}
    early = sum(row.pop("early", 0) for row in rows)
    for item_id, problem in failed.items():
        if progress:
            print(f"arXiv:{item_id}: {problem}")
    return record_labels_version(
        version,
        LABEL_COLUMNS,
        rows,
        horizon_reached=lambda row: row["status"] not in ("pending", "fetch_failed"),
        fetch_failed=sum(row["status"] == "fetch_failed" for row in rows),
        citations_before_paper=early,
    )
