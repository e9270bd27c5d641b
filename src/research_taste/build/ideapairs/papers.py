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
``ARXIV_HTML_BASE``. A 429 or 503 waits for the server's Retry-After (else a doubling
back-off) and is retried up to :data:`RETRIES` times; an unreachable host stops in one
sentence naming the variable and the ``--source FILE`` / ``--paper-texts`` routes.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import DataError, cache_dir
from research_taste_evals.core.network import unreachable_reason

API_ENV, DEFAULT_API = "ARXIV_API_BASE", "https://export.arxiv.org/api/query"
HTML_ENV, DEFAULT_HTML = "ARXIV_HTML_BASE", "https://arxiv.org/html"
PACE_SECONDS = 3.0
BATCH = 100
RETRIES = 3  # a 429 (too many requests) or 503 is retried after Retry-After or a back-off
NOT_FOUND = 404
BUSY = (429, 503)
TIMEOUT_SECONDS = 60.0
USER_AGENT = "research-taste-evals ideapairs builder (paper texts for idea extraction)"
_ATOM = {"a": "http://www.w3.org/2005/Atom"}
_VERSION = re.compile(r"v\d+$")
_SKIP_TAGS = {"script", "style", "nav", "header", "footer", "math", "annotation"}


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


class _Text(HTMLParser):
    """Visible text of an HTML page, one paragraph per block, without scripts and maths."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS:
            self.skip += 1
        elif tag in ("p", "h1", "h2", "h3", "h4", "li", "div", "section", "br"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """Plain text of an arXiv HTML rendering."""
    parser = _Text()
    parser.feed(html)
    paragraphs = (" ".join(p.split()) for p in "".join(parser.parts).split("\n"))
    return "\n".join(p for p in paragraphs if p)


def parse_atom(body: bytes, where: str) -> dict[str, dict[str, str]]:
    """Entries of an arXiv API Atom feed by unversioned id: version, title, abstract, date."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError as error:
        raise DataError(f"{where}: not an Atom feed: {error}") from error
    entries: dict[str, dict[str, str]] = {}
    for entry in root.findall("a:entry", _ATOM):
        url = (entry.findtext("a:id", "", _ATOM) or "").strip()
        if "/abs/" not in url:  # arXiv reports a malformed id as an entry titled "Error"
            continue
        version = url.split("/abs/", 1)[1]
        entries[_VERSION.sub("", version)] = {
            "version": version,
            "title": " ".join((entry.findtext("a:title", "", _ATOM) or "").split()),
            "abstract": " ".join((entry.findtext("a:summary", "", _ATOM) or "").split()),
            "date": (entry.findtext("a:published", "", _ATOM) or "")[:10],
        }
    return entries


def _retry_after(header: str | None, pace: float, attempt: int) -> float:
    """Seconds to wait after a 429/503: the server's Retry-After, else a doubling back-off."""
    if header and header.strip().isdigit():
        return float(header.strip())
    return max(pace, 1.0) * 2 ** (attempt + 1)


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
        self.index_path = self.folder / "index.json"
        self.index: dict[str, Any] = (
            json.loads(self.index_path.read_text("utf-8")) if self.index_path.is_file() else {}
        )

    def _get(self, url: str, variable: str) -> bytes | None:
        """The body of ``url`` (None on 404), paced; one sentence when the host is unreachable."""
        reason = unreachable_reason(url)
        if reason is not None:
            raise DataError(
                f"cannot reach {url.split('?')[0]} ({reason}); set {variable} to a reachable "
                "mirror, or pass paper texts with --paper-texts DIR and leaderboards with "
                "--source FILE"
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
                if error.code not in BUSY or attempt == RETRIES:
                    raise DataError(f"{url}: HTTP {error.code} {error.reason}") from error
                self.stats.retried += 1
                self.sleep(_retry_after(error.headers.get("Retry-After"), self.pace, attempt))
            except (urllib.error.URLError, TimeoutError) as error:
                raise DataError(
                    f"cannot fetch {url} ({error}); set {variable} to a reachable mirror, or "
                    "pass paper texts with --paper-texts DIR"
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
        """Title, abstract, date and pinned version of each arXiv id found (cache first)."""
        wanted = sorted(set(ids))
        missing = [i for i in wanted if i not in self.index]
        self.stats.cached += len(wanted) - len(missing)
        for start in range(0, len(missing), BATCH):
            batch = missing[start : start + BATCH]
            query = urllib.parse.urlencode({"id_list": ",".join(batch), "max_results": len(batch)})
            body = self._get(f"{self.api}?{query}", API_ENV)
            found = parse_atom(body or b"<feed xmlns='http://www.w3.org/2005/Atom'/>", self.api)
            for arxiv_id in batch:
                entry = found.get(arxiv_id)
                self.index[arxiv_id] = entry["version"] if entry else None
                if entry:
                    self._save(entry["version"], entry | {"full_text": None})
            self._write_index()
        result = {}
        for arxiv_id in wanted:
            if self.index.get(arxiv_id):
                result[arxiv_id] = self._load(self.index[arxiv_id])
            else:
                self.stats.not_found.append(arxiv_id)
        return result

    def full_text(self, version: str) -> str:
        """The HTML rendering of ``version`` as text ("" when arXiv has none); cached."""
        record = self._load(version)
        if record.get("full_text") is not None:
            self.stats.cached += 1
            return str(record["full_text"])
        body = self._get(f"{self.html}/{version}", HTML_ENV)
        text = html_to_text(body.decode("utf-8", "replace")) if body else ""
        self._save(version, record | {"full_text": text})
        return text
