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

Requests go through ``builders/http.py`` (one at a time, :data:`PACE_SECONDS` apart, the pace
arXiv's API terms of use ask for, https://info.arxiv.org/help/api/tou.html; 429, 5xx and
timeouts retried after Retry-After or a doubling back-off, capped and announced in one line;
an unreachable host is one sentence naming the variable and the ``--source FILE`` /
``--paper-texts`` routes). Bases from ``ARXIV_API_BASE`` and ``ARXIV_HTML_BASE``. A feed with
no entry at all for the ids asked is retried too, and never cached.

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

import datetime as dt
import json
import os
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.builders import limits
from research_taste.builders.http import HttpClient, RequestCounts, announce
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

API_ENV, DEFAULT_API = "ARXIV_API_BASE", "https://export.arxiv.org/api/query"
HTML_ENV, DEFAULT_HTML = "ARXIV_HTML_BASE", "https://arxiv.org/html"
PACE_SECONDS = limits.ARXIV.seconds / limits.ARXIV.requests  # arXiv API terms: one per 3 s
BATCH = 100
RETRIES = 3  # a 429, 5xx, timeout or empty feed is retried after Retry-After or a back-off
NOT_FOUND = 404
BAD_REQUEST = 400
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
    """Request counts and what was left out, for the build report."""

    http: RequestCounts = field(default_factory=RequestCounts)
    not_found: list[str] = field(default_factory=list)
    dropped: dict[str, str] = field(default_factory=dict)  # arXiv id -> why it was not asked
    unanswered: list[str] = field(default_factory=list)  # empty feeds after every retry
    text_errors: dict[str, str] = field(default_factory=dict)  # version -> why no full text

    @property
    def requests(self) -> int:
        return self.http.network

    @property
    def retried(self) -> int:
        return self.http.retried

    @property
    def cached(self) -> int:
        return self.http.cached


class _BadRequest(Exception):
    """HTTP 400 from the arXiv API (a malformed id in the batch); the error feed's reason."""


class ArxivFetcher:
    """Paced, cached access to the arXiv API and HTML renderings."""

    def __init__(
        self,
        cache: Path | None = None,
        pace: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        api_base: str | None = None,
        html_base: str | None = None,
    ) -> None:
        self.api = api_base or os.environ.get(API_ENV) or DEFAULT_API
        self.html = (html_base or os.environ.get(HTML_ENV) or DEFAULT_HTML).rstrip("/")
        self.folder = cache or cache_dir() / "ideapairs-papers"
        self.say: Callable[[str], None] = announce
        budget = limits.budget_of(None, limits.ARXIV_ENV, limits.ARXIV, limits.ARXIV_ENV)
        self.client = HttpClient(
            "arXiv",
            API_ENV,
            budget.seconds / budget.requests if pace is None else pace,
            RETRIES + 1,
            1.0,  # back-off 1, 2, 4 s, on top of the pace (or the server's Retry-After)
            USER_AGENT,
            clock,
            sleep,
            say=lambda line: self.say(line),
            timeout=TIMEOUT_SECONDS,
        )
        self.stats = FetchStats(self.client.counts)
        # how to do without arXiv, said with an unreachable host (the ideapairs routes)
        self.offline_hint = (
            ", or pass paper texts with --paper-texts DIR and leaderboards with --source FILE"
        )
        self.index_path = self.folder / "index.json"
        self.index: dict[str, Any] = (
            json.loads(self.index_path.read_text("utf-8")) if self.index_path.is_file() else {}
        )

    def _get(self, url: str, variable: str) -> bytes | None:
        """The body of ``url`` (None on 404); HTTP 400 raises :class:`_BadRequest`."""
        self.client.env_var, self.client.hint = variable, self.offline_hint
        answer = self.client.request(
            url, f"GET {url.split('?')[0]}", answered=(NOT_FOUND, BAD_REQUEST)
        )
        if answer.status == NOT_FOUND:
            return None
        if answer.status == BAD_REQUEST:
            body = answer.body.decode("utf-8", "replace")
            found = SUMMARY.search(body)
            raise _BadRequest(" ".join((found.group(1) if found else body).split())[:200])
        return answer.body

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
        self.stats.http.cached += len(wanted) - len(missing)
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
            self.client.wait(self.client.backoff_base * 2**attempt, "an empty feed")
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
            if entry and not _is_day(entry["date"]):  # never a paper date, never cached
                self.stats.dropped[arxiv_id] = (
                    f"arXiv answered <published>{entry['date']}...</published>, not a day"
                )
                continue
            self.index[arxiv_id] = entry["version"] if entry else None
            if entry:
                self._save(entry["version"], entry | {"full_text": None})
        self._write_index()

    def full_text(self, version: str) -> str:
        """The HTML rendering of ``version`` as text ("" when arXiv has none, cached; "" with
        the reason in ``stats.text_errors`` for a page that is not a rendering, not cached)."""
        record = self._load(version)
        if record.get("full_text") is not None:
            self.stats.http.cached += 1
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


def _is_day(text: str) -> bool:
    """Whether ``text`` is a day ``YYYY-MM-DD`` (arXiv's ``<published>``, cut to the day)."""
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10
