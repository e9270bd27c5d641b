"""A small, polite client of the Semantic Scholar Graph API (v1) with an on-disk response cache.

Endpoints used: ``GET /paper/search`` (relevance search, upstream TastyBench's endpoint:
ranked, 100 a call paged by ``offset``, and at most 1,000 results in all, a limit of the
endpoint (``semantic_scholar_paging``); the response is
``{"total", "offset", "next", "data"}``), ``GET /paper/search/bulk`` (unranked, up to 1,000
papers a call, a continuation ``token`` while more match, no overall limit; its query is a
boolean expression in which plain terms are ANDed, ``|`` is OR, ``-`` negates and quotes make
a phrase; the response is ``{"total", "token", "data"}``) and
``GET /paper/{paper_id}/citations`` (paged by ``offset``/``limit``, ``limit`` at most 1,000;
the response is ``{"offset", "next", "data": [{"citingPaper": {...}}]}``, ``next`` absent on
the last page). Base URL: ``S2_API_BASE`` (default :data:`DEFAULT_BASE`); key: ``S2_API_KEY``
(optional, sent as ``x-api-key``, never written anywhere).

Rate limits: with a key the introductory rate is 1 request per second across all endpoints,
so requests are spaced :data:`KEYED_INTERVAL` apart; without one the shared public pool is
used, and requests are spaced :data:`PUBLIC_INTERVAL` apart (the older per-address limit of
100 requests per 5 minutes). A 429 (or a 5xx) is retried after ``max(Retry-After, backoff)``
seconds, the backoff doubling from :data:`BACKOFF_BASE`, at most :data:`MAX_TRIES` tries; no
wait is longer than :data:`RETRY_AFTER_CAP` (a ``Retry-After: 3600`` would otherwise hold a
build for an hour), and each wait is announced in one line on stderr.

Every answer is checked for the shape the builder reads (``semantic_scholar_answers``) before
it is cached: a bad body stops the build in one sentence naming the request, and is not cached.

Every successful response is written to ``cache_dir`` (one JSON file per request, keyed by the
SHA-256 of the path and its sorted parameters, the key left out), so an interrupted build
resumes where it stopped and a re-run sends no request at all.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.builders.semantic_scholar_answers import Check, check_citations_page
from research_taste.builders.semantic_scholar_paging import bulk_pages, relevance_pages
from research_taste_evals.core.data import DataError

DEFAULT_BASE = "https://api.semanticscholar.org/graph/v1"
BASE_ENV = "S2_API_BASE"
KEY_ENV = "S2_API_KEY"
KEYED_INTERVAL = 1.0
PUBLIC_INTERVAL = 3.0
MAX_TRIES = 8
BACKOFF_BASE = 1.0
RETRIED_STATUSES = (429, 500, 502, 503, 504)
RETRY_AFTER_CAP = 120.0  # seconds: the longest a build waits before one retry
SEARCH_FIELDS = (
    "paperId",
    "title",
    "abstract",
    "publicationDate",
    "year",
    "citationCount",
    "externalIds",
)
CITATIONS_PAGE = 1000
# The citations endpoint lists at most this many citing papers (offset + limit), a known
# limitation with no workaround (allenai/s2-folks#27).
CITATIONS_CAP = 9999
TIMEOUT_SECONDS = 60.0


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def _today() -> dt.date:
    return dt.date.today()


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cache_key(path: str, params: Mapping[str, Any]) -> str:
    """SHA-256 of the request (path and sorted parameters): its cache file's name."""
    canonical = json.dumps([path, sorted((k, str(v)) for k, v in params.items())])
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _retry_after(value: str | None) -> float:
    try:
        return max(0.0, float(value)) if value is not None else 0.0
    except ValueError:  # an HTTP date: the backoff decides
        return 0.0


@dataclass
class RequestCounts:
    """What a build asked for: requests sent, answered from the cache, and retried."""

    network: int = 0
    cached: int = 0
    retried: int = 0
    retried_by_status: dict[str, int] = field(default_factory=dict)


class SemanticScholar:
    """Cached, paced GET requests to the Graph API (synchronous: a command-line builder)."""

    def __init__(
        self,
        cache_dir: str | Path,
        base_url: str | None = None,
        api_key: str | None = None,
        min_interval: float | None = None,
        max_tries: int = MAX_TRIES,
        clock: Callable[[], float] = time.monotonic,
        today: Callable[[], dt.date] | None = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get(BASE_ENV) or DEFAULT_BASE).rstrip("/")
        self._key = api_key if api_key is not None else os.environ.get(KEY_ENV) or None
        if min_interval is None:
            min_interval = KEYED_INTERVAL if self._key else PUBLIC_INTERVAL
        self.min_interval = min_interval
        self.max_tries = max_tries
        self.cache_dir = Path(cache_dir)
        self.counts = RequestCounts()
        self.fetch_dates: set[str] = set()
        self._clock, self._today = clock, today or _today
        self.say: Callable[[str], None] = _say
        self._last_sent: float | None = None
        self.search_total: int | None = None  # the last search's ``total``

    @property
    def keyed(self) -> bool:
        return self._key is not None

    def get(
        self, path: str, params: Mapping[str, Any], check: Check | None = None
    ) -> dict[str, Any]:
        """The JSON answer to ``GET base/path?params``, from the cache when it holds it;
        ``check`` (raising ``DataError``) vets a new answer before it is cached."""
        key = cache_key(path, params)
        cached = self.cache_dir / key[:2] / f"{key}.json"
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
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(".part")
        partial.write_text(json.dumps({**entry, "response": response}), encoding="utf-8")
        os.replace(partial, cached)
        return response

    def _pace(self) -> None:
        if self._last_sent is not None:
            wait = self._last_sent + self.min_interval - self._clock()
            if wait > 0:
                _sleep(wait)

    def _send(self, path: str, params: Mapping[str, Any]) -> dict[str, Any]:
        url = f"{self.base_url}{path}?{urllib.parse.urlencode(params)}"
        headers = {"Accept": "application/json", "User-Agent": "research-taste tastybench build"}
        if self._key:
            headers["x-api-key"] = self._key
        for attempt in range(self.max_tries):
            self._pace()
            self._last_sent = self._clock()
            self.counts.network += 1
            try:
                with urllib.request.urlopen(
                    urllib.request.Request(url, headers=headers), timeout=TIMEOUT_SECONDS
                ) as answer:
                    body = answer.read().decode("utf-8", "replace")
                try:
                    answer_json = json.loads(body)
                except ValueError:
                    answer_json = None
                if not isinstance(answer_json, dict):
                    raise DataError(
                        f"Semantic Scholar answered {describe(path, params)} with something "
                        f"that is not a JSON object ({' '.join(body.split())[:120]!r}); nothing "
                        f"was cached; is {BASE_ENV} a Graph API base?"
                    )
                return answer_json
            except urllib.error.HTTPError as error:
                if error.code not in RETRIED_STATUSES:
                    text = " ".join(error.read().decode("utf-8", "replace").split())[:300]
                    raise DataError(
                        f"Semantic Scholar answered {error.code} to GET {path}: {text}"
                    ) from error
                if attempt == self.max_tries - 1:
                    raise DataError(
                        f"Semantic Scholar answered {error.code} to GET {path} {self.max_tries} "
                        f"times; wait and re-run (the cache keeps what was fetched), or set "
                        f"{KEY_ENV} for a dedicated rate"
                    ) from error
                status = str(error.code)
                self.counts.retried += 1
                self.counts.retried_by_status[status] = (
                    self.counts.retried_by_status.get(status, 0) + 1
                )
                asked = _retry_after(error.headers.get("Retry-After"))
                wait = min(max(asked, BACKOFF_BASE * 2**attempt), RETRY_AFTER_CAP)
                capped = f" (its Retry-After {asked:g} s, capped)" if asked > wait else ""
                self.say(
                    f"Semantic Scholar answered {error.code} to GET {path}: waiting {wait:g} s"
                    f"{capped} before try {attempt + 2} of {self.max_tries}"
                )
                _sleep(wait)
            except (urllib.error.URLError, OSError) as error:
                reason = getattr(error, "reason", error)
                raise DataError(
                    f"cannot reach the Semantic Scholar Graph API at {self.base_url} ({reason}); "
                    f"check the network or set {BASE_ENV} to a reachable Graph API base URL"
                ) from error
        raise AssertionError("unreachable")  # the loop returns or raises

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


def describe(path: str, params: Mapping[str, Any]) -> str:
    """``GET path?params`` for messages, without the long ``fields`` list."""
    shown = {k: v for k, v in params.items() if k != "fields"}
    text = f"GET {path}?{urllib.parse.urlencode(shown)}" if shown else f"GET {path}"
    return text if len(text) <= 160 else text[:157] + "..."
