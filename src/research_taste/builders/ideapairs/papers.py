"""Paper texts and dates for ``ideapairs build --fetch-papers`` (issue 30, item 2).

Section 4 of Mule et al. extracts each idea from its paper. For every idea whose paper is on
arXiv this module fetches, into the cache (``<cache>/ideapairs-papers/``):

- the **abstract and dates** from the arXiv API (Atom, ``id_list`` in batches of
  :data:`BATCH`); the entry's ``<id>`` names the version fetched (``2106.01234v2``) and
  ``<published>`` the first version's date (to the day);
- the **full text**, where arXiv has an HTML rendering of that version
  (``<html base>/<id>v<n>``, converted to plain text); a 404 means abstract only.

Pinned by version: the cache maps each id to the version first fetched and keeps that
version's texts, so a re-run reads the cache and makes no request, and a later arXiv revision
does not change a built set. A paper not on arXiv (or not found there) takes its abstract and
date from a local copy of the PapersWithCode ``papers-with-abstracts`` table
(``--abstracts FILE``), matched by paper URL, then arXiv id, then title.

Requests are paced: one at a time, :data:`PACE_SECONDS` apart, the pace arXiv's API terms of
use ask for (https://info.arxiv.org/help/api/tou.html). Bases from ``ARXIV_API_BASE`` and
``ARXIV_HTML_BASE``. Transient answers (429, 5xx, timeouts, and a feed with no entry at all for
the ids asked) are retried up to :data:`RETRIES` times after the server's Retry-After (at most
:data:`RETRY_AFTER_CAP`, announced in one line) or a doubling back-off, and never cached; an
unreachable host stops in one sentence naming the variable and the ``--source FILE`` /
``--paper-texts`` routes.

Bad answers are errors, never "not found" and never text: a malformed id (arXiv answers the
whole batch with HTTP 400 and an error feed, or an "Error" entry) is dropped with its reason
and the rest of the batch asked again (halving the batch until the bad id is alone); an answer
that is not an Atom feed in arXiv's namespace stops the build in one sentence naming
``ARXIV_API_BASE``; an HTML page that is not a LaTeXML rendering, or is LaTeXML's failure
page, gives no full text for that paper (the abstract is kept), is listed with its reason, and
is not cached. An explicit version asked for (``2106.01234v1`` from the leaderboard's URL) is
the version fetched and pinned.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.builders.ideapairs.arxiv_answers import (
    LATEXML_FAILURES,
    LATEXML_MARKS,
    SUMMARY,
    VERSION_SUFFIX,
    html_to_text,
    is_arxiv_id,
    parse_atom,
)
from research_taste_evals.core.data import DataError, cache_dir
from research_taste_evals.core.network import unreachable_reason

API_ENV, DEFAULT_API = "ARXIV_API_BASE", "https://export.arxiv.org/api/query"
HTML_ENV, DEFAULT_HTML = "ARXIV_HTML_BASE", "https://arxiv.org/html"
PACE_SECONDS = 3.0
BATCH = 100
RETRIES = 3  # a 429, 5xx, timeout or empty feed is retried after Retry-After or a back-off
RETRY_AFTER_CAP = 120.0  # seconds: the longest one wait before a retry
NOT_FOUND = 404
BAD_REQUEST = 400
BUSY = (429, 500, 502, 503, 504)
TIMEOUT_SECONDS = 60.0
USER_AGENT = "research-taste-evals ideapairs builder (paper texts for idea extraction)"


@dataclass(frozen=True)
class Paper:
    """One paper's text and date, with where they came from."""

    key: str  # the builder's paper key (``splitting.paper_key``)
    version: str  # ``2106.01234v2``, or "" for a paper not on arXiv
    title: str
    abstract: str
    full_text: str
    date: str  # YYYY-MM-DD or YYYY-MM, "" when unknown
    source: str  # arxiv_full_text | arxiv_abstract | pwc_abstract

    @property
    def text(self) -> str:
        """What the extractor reads: title, abstract and (when fetched) the full text."""
        parts = [f"Title: {self.title}", f"Abstract: {self.abstract}"]
        return "\n\n".join(parts + ([self.full_text] if self.full_text else []))


@dataclass
class FetchStats:
    """Request counts for the build report."""

    requests: int = 0
    retried: int = 0
    cached: int = 0
    not_found: list[str] = field(default_factory=list)
    dropped: dict[str, str] = field(default_factory=dict)  # arXiv id -> why it was not asked
    unanswered: list[str] = field(default_factory=list)  # empty feeds after every retry
    text_errors: dict[str, str] = field(default_factory=dict)  # version -> why no full text


class _BadRequest(Exception):
    """HTTP 400 from the arXiv API (a malformed id in the batch); the error feed's reason."""


def _retry_after(header: str | None, pace: float, attempt: int) -> float:
    """Seconds to wait before a retry: the server's Retry-After, else a doubling back-off,
    at most :data:`RETRY_AFTER_CAP`."""
    if header and header.strip().isdigit():
        return min(float(header.strip()), RETRY_AFTER_CAP)
    return min(max(pace, 1.0) * 2 ** (attempt + 1), RETRY_AFTER_CAP)


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class ArxivFetcher:
    """Paced, cached access to the arXiv API and HTML renderings."""

    def __init__(
        self,
        cache: Path | None = None,
        pace: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api = os.environ.get(API_ENV) or DEFAULT_API
        self.html = (os.environ.get(HTML_ENV) or DEFAULT_HTML).rstrip("/")
        self.folder = cache or cache_dir() / "ideapairs-papers"
        self.pace = PACE_SECONDS if pace is None else pace
        self.sleep, self.clock = sleep, clock
        self.last: float | None = None
        self.stats = FetchStats()
        self.say: Callable[[str], None] = _say
        # how to do without arXiv, said with an unreachable host (the ideapairs routes)
        self.offline_hint = (
            ", or pass paper texts with --paper-texts DIR and leaderboards with --source FILE"
        )
        self.index_path = self.folder / "index.json"
        self.index: dict[str, Any] = (
            json.loads(self.index_path.read_text("utf-8")) if self.index_path.is_file() else {}
        )

    def _wait(self, seconds: float, why: str) -> None:
        self.stats.retried += 1
        self.say(f"arXiv: {why}: waiting {seconds:g} s before asking again")
        self.sleep(seconds)

    def _get(self, url: str, variable: str) -> bytes | None:
        """The body of ``url`` (None on 404), paced; transient answers retried; one sentence
        when the host is unreachable or stays busy."""
        reason = unreachable_reason(url)
        if reason is not None:
            raise DataError(
                f"cannot reach {url.split('?')[0]} ({reason}); set {variable} to a reachable "
                f"mirror{self.offline_hint}"
            )
        for attempt in range(RETRIES + 1):
            if self.last is not None:
                wait = self.pace - (self.clock() - self.last)
                if wait > 0:
                    self.sleep(wait)
            request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
            self.stats.requests += 1
            try:
                try:
                    with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                        return bytes(response.read())
                finally:
                    self.last = self.clock()  # the pace runs from the answer (or refusal)
            except urllib.error.HTTPError as error:
                if error.code == NOT_FOUND:
                    return None
                if error.code == BAD_REQUEST:
                    body = error.read().decode("utf-8", "replace")
                    found = SUMMARY.search(body)
                    text = " ".join((found.group(1) if found else body).split())[:200]
                    raise _BadRequest(text) from None
                if error.code not in BUSY or attempt == RETRIES:
                    raise DataError(
                        f"{url.split('?')[0]} answered HTTP {error.code} {error.reason}"
                        f"{f' {attempt + 1} times' if error.code in BUSY else ''}; nothing was "
                        f"cached from it: re-run later, or check {variable}"
                    ) from error
                after = _retry_after(error.headers.get("Retry-After"), self.pace, attempt)
                self._wait(after, f"HTTP {error.code} from {url.split('?')[0]}")
            except TimeoutError as error:
                if attempt == RETRIES:
                    raise DataError(
                        f"{url.split('?')[0]} did not answer within {TIMEOUT_SECONDS:g} s "
                        f"{RETRIES + 1} times ({error}); re-run later, or check {variable}"
                    ) from error
                self._wait(_retry_after(None, self.pace, attempt), "no answer in time")
            except urllib.error.URLError as error:
                if isinstance(error.reason, (TimeoutError, socket.timeout)) and attempt < RETRIES:
                    self._wait(_retry_after(None, self.pace, attempt), "no answer in time")
                    continue
                raise DataError(
                    f"cannot fetch {url.split('?')[0]} ({error.reason}); set {variable} to a "
                    f"reachable mirror{self.offline_hint}"
                ) from error
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _save(self, version: str, record: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{version.replace('/', '_')}.json"
        path.write_text(json.dumps(record, indent=1), encoding="utf-8")

    def _load(self, version: str) -> dict[str, Any]:
        path = self.folder / f"{version.replace('/', '_')}.json"
        return dict(json.loads(path.read_text(encoding="utf-8")))

    def _write_index(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = self.index_path.with_suffix(".part")
        partial.write_text(json.dumps(self.index, indent=1, sort_keys=True), encoding="utf-8")
        partial.replace(self.index_path)

    def metadata(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Title, abstract, date and pinned version of each arXiv id found (cache first). An id
        may name its version (``2106.01234v1``): that version is fetched. Malformed ids are
        dropped with the reason (``stats.dropped``), the others still asked."""
        wanted = sorted(set(ids))
        for arxiv_id in wanted:
            if not is_arxiv_id(arxiv_id):
                self.stats.dropped[arxiv_id] = (
                    "not an arXiv identifier (YYMM.NNNNN or arch/YYMMNNN)"
                )
        wanted = [i for i in wanted if i not in self.stats.dropped]
        missing = [i for i in wanted if i not in self.index]
        self.stats.cached += len(wanted) - len(missing)
        for start in range(0, len(missing), BATCH):
            self._ask(missing[start : start + BATCH])
        result = {}
        for arxiv_id in wanted:
            if self.index.get(arxiv_id):
                result[arxiv_id] = self._load(self.index[arxiv_id])
            elif arxiv_id not in self.stats.dropped:
                self.stats.not_found.append(arxiv_id)
        return result

    def _ask(self, batch: list[str]) -> None:
        """One ``id_list`` query; a 400 halves the batch until the malformed id is alone."""
        query = urllib.parse.urlencode({"id_list": ",".join(batch), "max_results": len(batch)})
        for attempt in range(RETRIES + 1):
            try:
                body = self._get(f"{self.api}?{query}", API_ENV)
            except _BadRequest as error:
                if len(batch) == 1:
                    self.stats.dropped[batch[0]] = f"arXiv answered HTTP 400: {error}"
                    return
                self._ask(batch[: len(batch) // 2])
                self._ask(batch[len(batch) // 2 :])
                return
            if body is None:
                raise DataError(f"{self.api} answered 404; is {API_ENV} the arXiv API's query URL?")
            found, errors = parse_atom(body, self.api)
            if found or errors:
                break
            if attempt == RETRIES:  # empty every time: asked again on the next run
                self.stats.unanswered.extend(batch)
                return
            self._wait(_retry_after(None, self.pace, attempt), "an empty feed")
        missing = [i for i in batch if VERSION_SUFFIX.sub("", i) not in found]
        if errors and missing:  # an "Error" entry: find the malformed id by halving
            if len(missing) == 1:
                self.stats.dropped[missing[0]] = f"arXiv error: {next(iter(errors.values()))}"
            else:
                self._ask(missing[: len(missing) // 2])
                self._ask(missing[len(missing) // 2 :])
            batch = [i for i in batch if i not in missing]
        for arxiv_id in batch:
            entry = found.get(VERSION_SUFFIX.sub("", arxiv_id))
            self.index[arxiv_id] = entry["version"] if entry else None
            if entry:
                self._save(entry["version"], entry | {"full_text": None})
        self._write_index()

    def full_text(self, version: str) -> str:
        """The HTML rendering of ``version`` as text ("" when arXiv has none, cached; "" with
        the reason in ``stats.text_errors`` for a page that is not a rendering, not cached)."""
        record = self._load(version)
        if record.get("full_text") is not None:
            self.stats.cached += 1
            return str(record["full_text"])
        try:
            body = self._get(f"{self.html}/{version}", HTML_ENV)
        except _BadRequest as error:
            self.stats.text_errors[version] = f"HTTP 400 ({error})"
            return ""
        page = body.decode("utf-8", "replace") if body else ""
        failure = next((mark for mark in LATEXML_FAILURES if mark in page), None)
        if body is not None and (failure or not any(m in page for m in LATEXML_MARKS)):
            self.stats.text_errors[version] = (
                f"LaTeXML failure page ({failure!r})"
                if failure
                else f"not a LaTeXML rendering (check {HTML_ENV})"
            )
            return ""
        text = html_to_text(page) if body else ""
        self._save(version, record | {"full_text": text})
        return text
