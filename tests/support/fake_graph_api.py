"""A fake Semantic Scholar Graph API on 127.0.0.1 serving answers shaped like the real ones.

Relevance search: ``{"total", "offset", "next", "data"}``, :data:`SEARCH_PAGE` papers a page;
bulk search: ``{"total", "token", "data": [paper, ...]}`` with a continuation token;
citations: ``{"offset", "next", "data": [{"citingPaper": {"paperId", "publicationDate"}}]}``
with ``next`` absent on the last page, and the ``publicationDateOrYear`` filter (``:YYYY-MM-DD``)
applied as the real endpoint does (undated citing papers do not match it). Chosen requests
first answer 429 with ``Retry-After: 0`` (``retry_after`` sets another); ``bad`` serves a
recorded-style bad body (a string or an object) once for a chosen request.

The papers (window 2025-07-01..2025-09-30, floor 20; series cut at the fetch date 2026-01-15):

- ``KEEP-A`` 2025-07-10: month starts 2025-08-01 .. 2026-01-01, counts [0, 2, 5, 9, 14, 20]
  (3 citing papers dated 2025-10-01 count on that month start; 3 dated 2026-01-10 come after
  the last month start; 2 undated), velocity 70 / 17.5 = 4.
- ``KEEP-B`` 2025-08-01 (a month start: its own first point): [9, 9, 11, 11, 15, 16] (8 citing
  papers dated 2025-07-25 count at every point; 4 dated 2026-02-01, after the fetch date, are
  left out and counted, under half of its 20), velocity 26.5 / 17.5.
- ``KEEP-C`` 2025-09-15: 2025-10-01 .. 2026-01-01, [3, 10, 18, 30] (5 undated), 44.5 / 5 = 8.9.
- ``KEEP-K`` 2025-07-01 (first day of the window): 2025-07-01 .. 2026-01-01,
  [0, 0, 0, 1, 1, 1, 2] with 20 of its 22 citing papers undated: no velocity (the slope of
  the 2 dated ones would be 9 / 28).
- dropped: ``OUT-WINDOW`` 2025-06-20, ``LOW-CITED`` (5 citations), ``NO-ABSTRACT``,
  ``NO-DATE`` (publicationDate null).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from local_server import LocalServer

FETCH_DATE = "2026-01-15"
WINDOW = ("2025-07-01", "2025-09-30")
LIFETIME = 300.0  # seconds: the server stops by itself after this
PAGE = 10  # the fake's citation page: smaller than the client's limit, as a real last page is
SEARCH_PAGE = 4  # the fake relevance search's page (the client asks for 100)
TRUTH = {"KEEP-C": 44.5 / 5, "KEEP-A": 70 / 17.5, "KEEP-B": 26.5 / 17.5, "KEEP-K": None}
DROPPED = {
    "outside_window": ["OUT-WINDOW"],
    "below_min_citations": ["LOW-CITED"],
    "no_abstract": ["NO-ABSTRACT"],
    "no_publication_date": ["NO-DATE"],
}
UNDATED = 2 + 5 + 20
FUTURE = 4  # KEEP-B's citing papers dated after the fetch date


def _cites(*groups: tuple[int, str | None]) -> list[str | None]:
    return [day for count, day in groups for _ in range(count)]


CITATIONS = {
    "KEEP-A": _cites(
        (2, "2025-08-15"),
        (3, "2025-10-01"),
        (4, "2025-10-20"),
        (5, "2025-11-30"),
        (6, "2025-12-02"),
        (3, "2026-01-10"),
        (2, None),
    ),
    "KEEP-B": _cites(
        (1, "2025-08-01"),
        (2, "2025-09-15"),
        (4, "2025-11-11"),
        (1, "2025-12-31"),
        (4, "2026-02-01"),
        (8, "2025-07-25"),
    ),
    "KEEP-C": _cites(
        (3, "2025-09-20"), (7, "2025-10-15"), (8, "2025-11-15"), (12, "2025-12-15"), (5, None)
    ),
    "KEEP-K": _cites((1, "2025-09-10"), (1, "2025-12-05"), (20, None)),
}


def _paper(
    pid: str, date: str | None, cited: int, abstract: str | None = "An abstract.", arxiv: str = ""
) -> dict:
    return {
        "paperId": pid,
        "title": f"Title of {pid}",
        "abstract": abstract and f"{abstract} ({pid})",
        "publicationDate": date,
        "year": 2025,
        "citationCount": cited,
        "externalIds": {"ArXiv": arxiv, "CorpusId": 1} if arxiv else {"CorpusId": 1},
    }


# With ``arxiv_paper``: a paper whose abstract only arXiv has (26 of 60 real records had none).
ARXIV_PAPER = _paper("FROM-ARXIV", "2025-08-20", 30, abstract=None, arxiv="2508.01234")
CITATIONS_FROM_ARXIV = [f"2025-{m:02d}-05" for m in (9, 10, 11, 12) for _ in range(5)] + [None]


SEARCH_PAGES = [
    [
        _paper("KEEP-A", "2025-07-10", 25),
        _paper("OUT-WINDOW", "2025-06-20", 50),
        _paper("KEEP-B", "2025-08-01", 20),
        _paper("LOW-CITED", "2025-08-10", 5),
    ],
    [
        _paper("NO-ABSTRACT", "2025-07-20", 60, abstract=None),
        _paper("KEEP-C", "2025-09-15", 35),
        _paper("NO-DATE", None, 30),
        _paper("KEEP-K", "2025-07-01", 22),
    ],
]


@dataclass
class FakeGraphApi:
    """The server's state: what it was asked, and which requests answer 429 first."""

    base_url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    throttle: dict[str, int] = field(default_factory=dict)  # "path?offset|token" -> 429s left
    always_throttle: bool = False
    clock: Any = None  # records the client's fake clock at each request when set
    retry_after: str = "0"
    bad: dict[str, Any] = field(default_factory=dict)  # marker -> a bad body, served once
    arxiv_paper: bool = False
    total: int | None = None  # the search's reported total (default: the papers served)

    def papers(self) -> list[dict[str, Any]]:
        return [*SEARCH_PAGES[0], *SEARCH_PAGES[1], *([ARXIV_PAPER] if self.arxiv_paper else [])]

    def answer(self, path: str, params: dict[str, str]) -> tuple[int, Any]:
        marker = f"{path}?{params.get('offset') or params.get('token') or ''}"
        if self.always_throttle or self.throttle.get(marker, 0) > 0:
            self.throttle[marker] = self.throttle.get(marker, 0) - 1
            return 429, {"message": "Too Many Requests"}
        if marker in self.bad:
            return 200, self.bad.pop(marker)
        papers = self.papers()
        total = len(papers) if self.total is None else self.total
        if path == "/paper/search/bulk":
            page = 1 if params.get("token") == "page-2" else 0
            data = papers[:4] if page == 0 else papers[4:]
            return 200, {"total": total, "token": "page-2" if page == 0 else None, "data": data}
        if path == "/paper/search":
            offset = int(params["offset"])
            size = min(SEARCH_PAGE, int(params["limit"]))
            body = {"total": total, "offset": offset, "data": papers[offset : offset + size]}
            return 200, body | ({"next": offset + size} if offset + size < len(papers) else {})
        paper_id = urllib.parse.unquote(path.split("/")[2])
        offset = int(params.get("offset", 0))
        size = min(PAGE, int(params.get("limit", PAGE)))
        listed = CITATIONS_FROM_ARXIV if paper_id == "FROM-ARXIV" else CITATIONS[paper_id]
        until = params.get("publicationDateOrYear", ":").split(":")[1]
        if until:  # the endpoint's date filter: dated citing papers up to that day
            listed = [day for day in listed if day is not None and day <= until]
        citing = listed[offset : offset + size]
        data = [
            {"citingPaper": {"paperId": f"{paper_id}-c{offset + i}", "publicationDate": day}}
            for i, day in enumerate(citing)
        ]
        body = {"offset": offset, "data": data}
        if offset + size < len(listed):
            body["next"] = offset + size
        return 200, body


def _handler(api: FakeGraphApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            url = urllib.parse.urlsplit(self.path)
            path = url.path.removeprefix("/graph/v1")
            params = dict(urllib.parse.parse_qsl(url.query))
            api.requests.append(
                {
                    "path": path,
                    "params": params,
                    "api_key": self.headers.get("x-api-key"),
                    "at": api.clock.now if api.clock is not None else None,
                }
            )
            status, body = api.answer(path, params)
            payload = (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            if status == 429:
                self.send_header("Retry-After", api.retry_after)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


class FakeClock:
    """Time that passes only when the client sleeps (pacing checked without waiting)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@contextmanager
def serving(api: FakeGraphApi, lifetime: float = LIFETIME) -> Iterator[FakeGraphApi]:
    """Serve ``api`` on a random 127.0.0.1 port in a thread; stopped on leaving the block, or by
    itself after ``lifetime`` seconds if the block never ends (``local_server``)."""
    with LocalServer(_handler(api), lifetime) as server:
        api.base_url = f"{server.base_url}/graph/v1"
        yield api
