"""A small, polite client of the Semantic Scholar Graph API (v1) with an on-disk response cache.

Endpoints used: ``GET /paper/search`` (relevance search, upstream TastyBench's endpoint:
ranked, 100 a call paged by ``offset``, and at most 1,000 results in all, a limit of the
endpoint (:func:`relevance_pages`); the response is
``{"total", "offset", "next", "data"}``), ``GET /paper/search/bulk`` (unranked, up to 1,000
papers a call, a continuation ``token`` while more match, no overall limit; its query is a
boolean expression in which plain terms are ANDed, ``|`` is OR, ``-`` negates and quotes make
a phrase; the response is ``{"total", "token", "data"}``) and
``GET /paper/{paper_id}/citations`` (paged by ``offset``/``limit``, ``limit`` at most 1,000;
the response is ``{"offset", "next", "data": [{"citingPaper": {...}}]}``, ``next`` absent on
the last page). Base URL: ``S2_API_BASE`` (default :data:`DEFAULT_BASE`); key: ``S2_API_KEY``
(optional, sent as ``x-api-key``, never written anywhere).

Rate limits (``builders/limits.py``, ``S2_BUDGET`` to change them): with a key the introductory
rate is 1 request per second across all endpoints, so requests are spaced
:data:`KEYED_INTERVAL` apart; without one the shared public pool is used, and requests are
spaced :data:`PUBLIC_INTERVAL` apart (the older per-address limit of 100 requests per 5
minutes). Pacing, 429s waited out to their Retry-After, retries (5xx, timeouts; each wait
announced in one line) and the cache files are ``builders/http.py``'s, shared with the arXiv and
OpenReview clients.

Every answer is checked for the shape the builder reads (``semantic_scholar_answers``) before
it is cached: a bad body stops the build in one sentence naming the request, and is not cached.

Every successful response is written to ``cache_dir`` (one JSON file per request, keyed by the
SHA-256 of the path and its sorted parameters, the key left out), so an interrupted build
resumes where it stopped and a re-run sends no request at all.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from research_taste.builders import limits
from research_taste.builders.http import (
    HttpClient,
    RequestCounts,
    announce,
    cache_file,
    write_atomic,
)
from research_taste.builders.semantic_scholar_answers import (
    Check,
    check_citations_page,
    check_search_page,
)
from research_taste_evals.core.data import DataError

__all__ = ["RELEVANCE_LIMIT", "SemanticScholar", "describe"]

DEFAULT_BASE = "https://api.semanticscholar.org/graph/v1"
BASE_ENV = "S2_API_BASE"
KEY_ENV = "S2_API_KEY"
KEYED_INTERVAL = limits.SEMANTIC_SCHOLAR_KEYED.seconds  # 1 request a second with a key
PUBLIC_INTERVAL = limits.SEMANTIC_SCHOLAR_PUBLIC.seconds
MAX_TRIES = 8
BACKOFF_BASE = 1.0
SEARCH_FIELDS = (
    "paperId",
    "title",
    "abstract",
    "publicationDate",
    "year",
    "citationCount",
    "externalIds",
)
RELEVANCE_PAGE = 100  # /paper/search: limit <= 100
RELEVANCE_LIMIT = 1000  # /paper/search returns at most the first 1,000 ranked results
CITATIONS_PAGE = 1000
# The citations endpoint lists at most this many citing papers (offset + limit), a known
# limitation with no workaround (allenai/s2-folks#27).
CITATIONS_CAP = 9999
TIMEOUT_SECONDS = 60.0


def _today() -> dt.date:
    return dt.date.today()


class SemanticScholar:
    """Cached, paced GET requests to the Graph API (synchronous: a command-line builder)."""

    def __init__(
        self,
        cache_dir: str | Path,
        base_url: str | None = None,
        api_key: str | None = None,
        min_interval: float | None = None,
        max_tries: int = MAX_TRIES,
        clock: Callable[[], float] = time.time,
        today: Callable[[], dt.date] | None = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get(BASE_ENV) or DEFAULT_BASE).rstrip("/")
        self._key = api_key if api_key is not None else os.environ.get(KEY_ENV) or None
        if min_interval is None:  # S2_BUDGET, else the keyed or public pace (builders/limits.py)
            default = limits.SEMANTIC_SCHOLAR_KEYED if self._key else limits.SEMANTIC_SCHOLAR_PUBLIC
            budget = limits.budget_of(None, limits.SEMANTIC_SCHOLAR_ENV, default, "S2_BUDGET")
            min_interval = budget.seconds / budget.requests
        self.cache_dir = Path(cache_dir)
        self.fetch_dates: set[str] = set()
        self._today = today or _today
        self.say: Callable[[str], None] = announce  # one line per retry wait (stderr)
        self.http = HttpClient(
            "Semantic Scholar",
            BASE_ENV,
            min_interval,
            max_tries,
            BACKOFF_BASE,
            "research-taste tastybench build",
            clock=clock,
            say=lambda line: self.say(line),
        )
        self.search_total: int | None = None  # the last search's ``total``

    @property
    def counts(self) -> RequestCounts:
        return self.http.counts

    @property
    def min_interval(self) -> float:
        return self.http.min_interval

    @property
    def max_tries(self) -> int:
        return self.http.max_tries

    @property
    def keyed(self) -> bool:
        return self._key is not None

    def get(
        self, path: str, params: Mapping[str, Any], check: Check | None = None
    ) -> dict[str, Any]:
        """The JSON answer to ``GET base/path?params``, from the cache when it holds it;
        ``check`` (raising ``DataError``) vets a new answer before it is cached."""
        cached = cache_file(self.cache_dir, path, params)
        if cached.is_file():
            entry = json.loads(cached.read_text(encoding="utf-8"))
            self.counts.cached += 1
            self.fetch_dates.add(entry["fetched_on"])
            if check is not None:  # a cache written before the checks existed
                check(entry["response"], f"{describe(path, params)} (cached in {cached})")
            return dict(entry["response"])
        response = self._send(path, params)
        if check is not None:
            check(response, describe(path, params))
        fetched_on = self._today().isoformat()
        self.fetch_dates.add(fetched_on)
        entry = {"path": path, "params": dict(params), "fetched_on": fetched_on}
        write_atomic(cached, json.dumps({**entry, "response": response}).encode("utf-8"))
        return response

    def _send(self, path: str, params: Mapping[str, Any]) -> dict[str, Any]:
        url = f"{self.base_url}{path}?{urllib.parse.urlencode(params)}"
        headers = {"Accept": "application/json"} | ({"x-api-key": self._key} if self._key else {})
        body = self.http.request(url, f"GET {path}", headers).body.decode("utf-8", "replace")
        try:
            answer = json.loads(body)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise DataError(
                f"Semantic Scholar answered {describe(path, params)} with something that is "
                f"not a JSON object ({' '.join(body.split())[:120]!r}); nothing was cached; is "
                f"{BASE_ENV} a Graph API base?"
            )
        return answer

    def search(
        self,
        mode: str,
        query: str,
        date_from: dt.date,
        date_to: dt.date,
        fields: tuple[str, ...] = SEARCH_FIELDS,
        min_citations: int | None = None,
        filters: Mapping[str, str] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Every paper ``mode`` (``relevance`` or ``bulk``) returns for ``query`` published in
        the window. ``filters``: further search parameters (``fieldsOfStudy``,
        ``publicationTypes``), the empty ones left out."""
        params: dict[str, Any] = {
            "query": query,
            "publicationDateOrYear": f"{date_from.isoformat()}:{date_to.isoformat()}",
            "fields": ",".join(fields),
            **{name: value for name, value in (filters or {}).items() if value},
        }
        if min_citations:
            params["minCitationCount"] = min_citations
        if mode == "relevance":
            return relevance_pages(self, params)
        if mode == "bulk":
            return bulk_pages(self, params)
        raise DataError(f"--search {mode!r}: expected relevance or bulk")

    def citation_dates(
        self, paper_id: str, until: dt.date | None = None
    ) -> tuple[list[str | None], bool]:
        """The publication date (or None) of every paper citing ``paper_id``, paging by
        ``offset`` until the answer has no ``next``; and whether the list stopped at the
        endpoint's cap (:data:`CITATIONS_CAP`) with more citing papers left unlisted.
        ``until``: only citing papers published up to that day (the endpoint's
        ``publicationDateOrYear`` filter, open at the start), which bounds a much-cited
        paper's list to the citations its series counts."""
        dates: list[str | None] = []
        offset = 0
        path = f"/paper/{urllib.parse.quote(paper_id, safe='')}/citations"
        bounds = {} if until is None else {"publicationDateOrYear": f":{until.isoformat()}"}
        while True:
            limit = min(CITATIONS_PAGE, CITATIONS_CAP - offset)
            if limit <= 0:
                return dates, True
            params = {"fields": "publicationDate", "offset": offset, "limit": limit, **bounds}
            page = self.get(path, params, check_citations_page)
            for entry in page["data"]:
                dates.append(entry["citingPaper"].get("publicationDate") or None)
            following = page.get("next")
            if following is None or not page["data"]:
                return dates, False
            if following <= offset:
                raise DataError(
                    f"Semantic Scholar's citations of {paper_id}: next {following} "
                    f"does not follow offset {offset}"
                )
            offset = following


def relevance_pages(client: SemanticScholar, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Relevance search paged by ``offset`` to its end or :data:`RELEVANCE_LIMIT`."""
    offset = 0
    while offset < RELEVANCE_LIMIT:
        limit = min(RELEVANCE_PAGE, RELEVANCE_LIMIT - offset)
        page = client.get(
            "/paper/search", {**params, "offset": offset, "limit": limit}, check_search_page
        )
        client.search_total = page.get("total")
        yield from page["data"]
        following = page.get("next")
        if following is None or not page["data"]:
            return
        if following <= offset:
            raise DataError(
                f"Semantic Scholar's relevance search: next {following} does not follow "
                f"offset {offset}"
            )
        offset = following


def bulk_pages(client: SemanticScholar, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Bulk search following the continuation token to the end."""
    token: str | None = None
    seen: set[str] = set()
    while True:
        page = client.get(
            "/paper/search/bulk",
            {**params, **({"token": token} if token else {})},
            check_search_page,
        )
        client.search_total = page.get("total")
        yield from page["data"]
        token = page.get("token")
        if not token:
            return
        if token in seen:
            raise DataError(f"Semantic Scholar's bulk search repeated its token {token!r}")
        seen.add(token)


def describe(path: str, params: Mapping[str, Any]) -> str:
    """``GET path?params`` for messages, without the long ``fields`` list."""
    shown = {k: v for k, v in params.items() if k != "fields"}
    text = f"GET {path}?{urllib.parse.urlencode(shown)}" if shown else f"GET {path}"
    return text if len(text) <= 160 else text[:157] + "..."
