"""Fakes of the arXiv round's tests: an arXiv listing (``search_query`` by category and dates)
and a Semantic Scholar whose citations arrive month by month with an injected clock.

Paper ``i`` (published 2099-01-0<i>) is cited ``K[i]`` times in each month from its publication
on, each citing paper dated the 20th; the Graph API fake lists only those dated up to
``clock()``. Its velocity over a 3-month common window is therefore ``K[i]``.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from arxiv_server import ENTRY, FEED_HEAD
from fake_graph_api import FakeGraphApi
from local_server import LocalServer

UTC = dt.UTC
OPENED = dt.datetime(2099, 1, 8, 12, tzinfo=UTC)
# arXiv id -> (v1 date, citations per month, the hidden quality the scripted judge prefers)
PAPERS = {
    "9901.00001": ("2099-01-02", 5, 9),
    "9901.00002": ("2099-01-03", 1, 2),
    "9901.00003": ("2099-01-04", 3, 1),
    "9901.00004": ("2099-01-05", 2, 6),
    "9901.00005": ("2099-01-06", 4, 3),
    "9901.00006": ("2099-01-07", 6, 8),
}
OLD = ("9812.00009", "2098-12-01")  # announced before the round's days: left out


def feed(today: dt.date | None = None) -> bytes:
    """The listing; with ``today``, the papers are dated the 6 days before it instead."""

    def shown(index: int, day: str) -> str:
        return day if today is None else (today - dt.timedelta(days=6 - index)).isoformat()

    entries = [
        ENTRY.format(
            version=f"{arxiv_id}v1",
            published=shown(index, day),
            title=f"Paper {arxiv_id}",
            abstract=f"We study {arxiv_id}. Its quality {quality} is stated here.",
        )
        for index, (arxiv_id, (day, _, quality)) in enumerate(PAPERS.items())
    ]
    entries.append(
        ENTRY.format(version=f"{OLD[0]}v2", published=OLD[1], title="Old", abstract="Old.")
    )
    head = FEED_HEAD.format(ids="", count=len(entries))
    return (head + "".join(entries) + "</feed>\n").encode("utf-8")


@contextmanager
def paged_listing(
    today: dt.date | None = None,
    fail_once_at: int | None = None,
    extra: tuple[str, ...] = (),
    ignore_start: bool = False,
) -> Iterator[tuple[str, list[int]]]:
    """:func:`feed`'s entries at ``/api/query``, ``max_results`` at a time from ``start``; the
    first request from ``fail_once_at`` gets an HTTP 400 (not retried). ``extra``: further
    entries (:func:`entry`) after them; ``ignore_start``: every page is the first (a server that
    ignores ``start``). Yields the API base URL and the list of ``start`` values asked."""
    head, _, rest = feed(today).decode("utf-8").partition("  <entry>")
    entries = ["  <entry>" + part for part in ("  <entry>" + rest).split("  <entry>")[1:]]
    entries[-1] = entries[-1].removesuffix("</feed>\n")
    entries += list(extra)
    asked: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
            start, size = int(params.get("start", 0)), int(params.get("max_results", 10))
            asked.append(start)
            if start == fail_once_at and asked.count(start) == 1:
                self.send_error(400, "injected")
                return
            start = 0 if ignore_start else start
            body = (head + "".join(entries[start : start + size]) + "</feed>\n").encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/atom+xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with LocalServer(Handler, lifetime=120.0) as server:
        yield f"{server.base_url}/api/query", asked


def entry(arxiv_id: str, published: str, title: str = "A title", abstract: str = "Text.") -> str:
    """One listing entry (v1) as export.arxiv.org shapes it, with any fields (bad ones too)."""
    return ENTRY.format(
        version=f"{arxiv_id}v1", published=published, title=title, abstract=abstract
    )


@contextmanager
def arxiv_listing(today: dt.date | None = None) -> Iterator[str]:
    """:func:`paged_listing` without a fault; yields the API base URL."""
    with paged_listing(today) as (base, _):
        yield base


def citing_days(arxiv_id: str, until: dt.date) -> list[str]:
    day, per_month, _ = PAPERS[arxiv_id]
    published = dt.date.fromisoformat(day)
    out, month = [], published.replace(day=20)
    while month <= until:
        out += [month.isoformat()] * per_month
        month = (month + dt.timedelta(days=32)).replace(day=20)
    return out


@dataclass
class MonthlyCitations(FakeGraphApi):
    """Citations of ``arXiv:<id>`` dated up to ``clock()``."""

    now: Callable[[], dt.datetime] = field(default=lambda: OPENED)

    def answer(self, path: str, params: dict[str, str]) -> tuple[int, Any]:
        paper_id = urllib.parse.unquote(path.split("/")[2]).removeprefix("arXiv:")
        listed = citing_days(paper_id, self.now().date())
        offset = int(params.get("offset", 0))
        page = listed[offset : offset + 10]
        data = [
            {"citingPaper": {"paperId": f"{paper_id}-c{offset + i}", "publicationDate": day}}
            for i, day in enumerate(page)
        ]
        body: dict[str, Any] = {"offset": offset, "data": data}
        if offset + 10 < len(listed):
            body["next"] = offset + 10
        return 200, body
