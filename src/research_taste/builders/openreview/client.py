"""Public reads from the OpenReview API v2 over plain HTTP, paced, retried and cached on disk.

Endpoints (no account: public notes only):

- ``GET /notes?invitation=<venue>/-/Submission&details=replies&offset=O&limit=L``: a venue's
  submissions (withdrawn and desk-rejected ones included: only their ``venueid`` changes),
  each with its public replies (reviews, decision, withdrawal) under ``details.replies``. The
  answer is ``{"notes": [...], "count": N}``; pages follow by ``offset`` until a short page.
- ``GET /pdf?id=<submission id>``: the submission's PDF (404 when it has none).

Base URL: ``OPENREVIEW_API_BASE`` (default :data:`DEFAULT_BASE`). Requests are spaced
:data:`MIN_INTERVAL` apart; a 429 or 5xx is retried after ``max(Retry-After, backoff)``
seconds (backoff doubling from :data:`BACKOFF_BASE`, the wait capped at
:data:`MAX_RETRY_AFTER` with one line on stderr), at most :data:`MAX_TRIES` tries. The cache
(one file per request, named by the SHA-256 of its path and sorted parameters, as
``builders/semantic_scholar.py``) keeps only answers that were checked: a JSON answer without its
``notes`` list, or a "PDF" that does not start with ``%PDF``, is never written.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from research_taste.builders.semantic_scholar import RequestCounts, cache_key
from research_taste_evals.core.data import DataError

DEFAULT_BASE = "https://api2.openreview.net"
BASE_ENV = "OPENREVIEW_API_BASE"
MIN_INTERVAL = 1.0
MAX_TRIES = 6
BACKOFF_BASE = 2.0
MAX_RETRY_AFTER = 120.0
RETRIED_STATUSES = (429, 500, 502, 503, 504)
TIMEOUT_SECONDS = 120.0
USER_AGENT = "research-taste openreview build"


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def _notice(line: str) -> None:
    print(line, file=sys.stderr)


def retry_after(header: str | None) -> float:
    """Seconds from a ``Retry-After`` header (0 for an HTTP date or nonsense: backoff decides)."""
    try:
        return max(0.0, float(header)) if header is not None else 0.0
    except ValueError:
        return 0.0


class OpenReviewClient:
    """Cached, paced GET requests to OpenReview API v2 (synchronous: a command-line builder)."""

    def __init__(
        self,
        cache_dir: str | Path,
        base_url: str | None = None,
        min_interval: float = MIN_INTERVAL,
        max_tries: int = MAX_TRIES,
        clock: Callable[[], float] = time.monotonic,
        today: Callable[[], dt.date] = dt.date.today,
        notice: Callable[[str], None] = _notice,
    ) -> None:
        self.base_url = (base_url or os.environ.get(BASE_ENV) or DEFAULT_BASE).rstrip("/")
        self.cache_dir = Path(cache_dir)
        self.min_interval, self.max_tries = min_interval, max_tries
        self.counts = RequestCounts()
        self.fetch_dates: set[str] = set()
        self._clock, self._today, self._notice = clock, today, notice
        self._last_sent: float | None = None

    def _cached(self, path: str, params: Mapping[str, Any], suffix: str) -> Path:
        key = cache_key(path, params)
        return self.cache_dir / key[:2] / f"{key}{suffix}"

    def get_json(
        self,
        path: str,
        params: Mapping[str, Any],
        listed: str,
        check: Callable[[list[Any]], str | None] = lambda _: None,
    ) -> dict[str, Any]:
        """The JSON object answering ``GET base/path?params``; it must hold a list ``listed``
        that ``check`` finds no problem with (``check`` returns a problem's description).

        Raises:
            DataError: unreachable, a non-retried error status, retries exhausted, or a body
                that is not a JSON object with that list (nothing cached).
        """
        cached = self._cached(path, params, ".json")
        if cached.is_file():
            entry = json.loads(cached.read_text(encoding="utf-8"))
            self.counts.cached += 1
            self.fetch_dates.add(entry["fetched_on"])
            return dict(entry["response"])
        body, _ = self._send(path, params)
        text = body.decode("utf-8", "replace")
        try:
            response = json.loads(text)
        except ValueError:
            response = None
        if not isinstance(response, dict) or not isinstance(response.get(listed), list):
            raise DataError(
                f"OpenReview answered GET {path} with a body that is not a JSON object holding "
                f"a '{listed}' list ({' '.join(text.split())[:120]!r}), so nothing was cached; "
                f"is {BASE_ENV} ({self.base_url}) an OpenReview API v2 base?"
            )
        problem = check(response[listed])
        if problem:
            raise DataError(
                f"OpenReview answered GET {path} ({urllib.parse.urlencode(params)}) with "
                f"{problem}, so nothing was cached; re-run later or check {BASE_ENV}"
            )
        fetched_on = self._today().isoformat()
        self.fetch_dates.add(fetched_on)
        entry = {"path": path, "params": dict(params), "fetched_on": fetched_on}
        self._write(cached, json.dumps({**entry, "response": response}).encode("utf-8"))
        return response

    def get_pdf(self, note_id: str) -> bytes | None:
        """The submission's PDF bytes; None when OpenReview has none (404). Bytes that are not
        a PDF are returned (the parser rejects them) but never cached."""
        params = {"id": note_id}
        cached = self._cached("/pdf", params, ".pdf")
        if cached.is_file():
            self.counts.cached += 1
            return cached.read_bytes()
        try:
            body, _ = self._send("/pdf", params, missing_ok=True)
        except _Missing:
            return None
        if body.startswith(b"%PDF"):
            self._write(cached, body)
        return body

    @staticmethod
    def _write(path: Path, payload: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_bytes(payload)
        os.replace(partial, path)

    def _pace(self) -> None:
        if self._last_sent is not None:
            wait = self._last_sent + self.min_interval - self._clock()
            if wait > 0:
                _sleep(wait)

    def _send(
        self, path: str, params: Mapping[str, Any], missing_ok: bool = False
    ) -> tuple[bytes, str]:
        url = f"{self.base_url}{path}?{urllib.parse.urlencode(params)}"
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        for attempt in range(self.max_tries):
            self._pace()
            self._last_sent = self._clock()
            self.counts.network += 1
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
                    return answer.read(), answer.headers.get("Content-Type", "")
            except urllib.error.HTTPError as error:
                if missing_ok and error.code == 404:
                    raise _Missing from error
                if error.code not in RETRIED_STATUSES:
                    text = " ".join(error.read().decode("utf-8", "replace").split())[:200]
                    raise DataError(
                        f"OpenReview answered {error.code} to GET {path} "
                        f"({urllib.parse.urlencode(params)}): {text}"
                    ) from error
                if attempt == self.max_tries - 1:
                    raise DataError(
                        f"OpenReview answered {error.code} to GET {path} {self.max_tries} times; "
                        "wait and re-run the same command (the cache keeps what was fetched)"
                    ) from error
                self._count_retry(str(error.code))
                asked = retry_after(error.headers.get("Retry-After"))
                wait = max(asked, BACKOFF_BASE * 2**attempt)
                if wait > MAX_RETRY_AFTER:
                    self._notice(
                        f"OpenReview answered {error.code} to GET {path} asking to wait "
                        f"{asked:.0f} s; waiting {MAX_RETRY_AFTER:.0f} s (the cap) and retrying"
                    )
                    wait = MAX_RETRY_AFTER
                _sleep(wait)
            except (urllib.error.URLError, OSError) as error:
                reason = getattr(error, "reason", error)
                raise DataError(
                    f"cannot reach the OpenReview API at {self.base_url} ({reason}); check the "
                    f"network or set {BASE_ENV} to a reachable OpenReview API v2 base URL"
                ) from error
        raise AssertionError("unreachable")  # the loop returns or raises

    def _count_retry(self, status: str) -> None:
        self.counts.retried += 1
        by_status = self.counts.retried_by_status
        by_status[status] = by_status.get(status, 0) + 1


class _Missing(Exception):
    """A 404 where absence is an answer (a submission without a PDF)."""
