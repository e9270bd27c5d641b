"""Reads from the OpenReview API v2 over plain HTTP, paced, retried and cached on disk.

Endpoints:

- ``GET /notes?invitation=<venue>/-/Submission&details=replies&sort=id&offset=O&limit=L``: a
  venue's submissions (withdrawn and desk-rejected ones included: only their ``venueid``
  changes), each with its public replies (reviews, decision, withdrawal and its reversion)
  under ``details.replies``. The answer is ``{"notes": [...], "count": N}`` (``count`` may be
  missing); ``venue.submissions`` pages it.
- ``GET /pdf?id=<submission id>``: the submission's PDF (404 when it has none).
- ``POST /login`` with ``{"id": <username>, "password": <password>}`` (openreview-py's
  ``Client.login_user``), answered ``{"token": ...}``: only when ``OPENREVIEW_USERNAME`` and
  ``OPENREVIEW_PASSWORD`` are both set; every later request then carries
  ``Authorization: Bearer <token>``. The token and password are never printed, logged,
  cached or written to the build report. Unauthenticated reads from datacenter addresses
  can be refused with 403: the build stops in one sentence naming those variables.

Base URL: ``OPENREVIEW_API_BASE`` (default :data:`DEFAULT_BASE`). Budgets: the API's requests
per window (``OPENREVIEW_BUDGET``, default ``builders/limits.OPENREVIEW``) and, for ``/pdf``
besides it, the PDFs per hour (``OPENREVIEW_PDF_BUDGET``); pacing, 429s waited out to their
``details.resetTime``, retries (5xx, timeouts; one line per wait) and the cache files are
``builders/http.py``'s.
The cache keeps only answers that were checked: a JSON answer without its ``notes`` list, or a
"PDF" that does not start with ``%PDF``, is never written.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
import urllib.parse
from collections.abc import Callable, Mapping
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
from research_taste_evals.core.data import DataError

DEFAULT_BASE = "https://api2.openreview.net"
BASE_ENV = "OPENREVIEW_API_BASE"
USERNAME_ENV, PASSWORD_ENV = "OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD"
MIN_INTERVAL = 1.0
MAX_TRIES = 6
BACKOFF_BASE = 2.0
USER_AGENT = "research-taste openreview build"
FORBIDDEN = 403


class OpenReviewClient:
    """Cached, paced requests to OpenReview API v2 (synchronous: a command-line builder)."""

    def __init__(
        self,
        cache_dir: str | Path,
        base_url: str | None = None,
        min_interval: float = MIN_INTERVAL,
        max_tries: int = MAX_TRIES,
        clock: Callable[[], float] = time.time,
        today: Callable[[], dt.date] = dt.date.today,
        notice: Callable[[str], None] = announce,
        environ: Mapping[str, str] | None = None,
        budget: str | limits.Budget | None = None,
        pdf_budget: str | limits.Budget | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        """``budget``, ``pdf_budget``: the command line's (``--budget``, ``--pdf-budget``);
        None reads ``OPENREVIEW_BUDGET``, ``OPENREVIEW_PDF_BUDGET``, else the defaults."""
        env = os.environ if environ is None else environ
        self.base_url = (base_url or env.get(BASE_ENV) or DEFAULT_BASE).rstrip("/")
        self.cache_dir = Path(cache_dir)
        self.fetch_dates: set[str] = set()
        self._today = today
        self.budget = limits.budget_of(
            budget, limits.OPENREVIEW_ENV, limits.OPENREVIEW, "--budget", env
        )
        self.pdf_budget = limits.budget_of(
            pdf_budget, limits.OPENREVIEW_PDF_ENV, limits.OPENREVIEW_PDFS, "--pdf-budget", env
        )
        self.pdfs = limits.Window(self.pdf_budget)
        self.http = HttpClient(
            "OpenReview",
            BASE_ENV,
            min_interval,
            max_tries,
            BACKOFF_BASE,
            USER_AGENT,
            clock,
            sleep=sleep,
            say=notice,
            budget=self.budget,
            budget_hint=f" (the budgets: {limits.OPENREVIEW_ENV}, {limits.OPENREVIEW_PDF_ENV})",
        )
        self._login = (env.get(USERNAME_ENV) or "", env.get(PASSWORD_ENV) or "")
        if bool(self._login[0]) != bool(self._login[1]):
            given, missing = (
                (USERNAME_ENV, PASSWORD_ENV) if self._login[0] else (PASSWORD_ENV, USERNAME_ENV)
            )
            raise DataError(
                f"{given} is set but {missing} is not: set both to log in to OpenReview, or "
                "neither to read public notes"
            )
        self._token: str | None = None

    @property
    def counts(self) -> RequestCounts:
        return self.http.counts

    @property
    def logged_in(self) -> bool:
        """Whether requests carry a login token (never the token itself)."""
        return self._token is not None

    def today(self) -> dt.date:
        return self._today()

    def _headers(self) -> dict[str, str]:
        username, password = self._login
        if self._token is None and username and password:
            self._token = self._log_in(username, password)
        return {"Authorization": f"Bearer {self._token}"} if self._token else {}

    def _log_in(self, username: str, password: str) -> str:
        payload = json.dumps({"id": username, "password": password}).encode("utf-8")
        answer = self.http.request(
            f"{self.base_url}/login",
            "POST /login",
            {"Content-Type": "application/json"},
            data=payload,
            answered=(400, 401, 403, 404),
        )
        try:
            token = json.loads(answer.body).get("token") if answer.status == 200 else None
        except (ValueError, AttributeError):
            token = None
        if not isinstance(token, str) or not token:
            raise DataError(
                f"OpenReview refused the login of {USERNAME_ENV} ({answer.status} to POST "
                f"/login at {self.base_url}); check {USERNAME_ENV} and {PASSWORD_ENV}, or "
                "unset both to read public notes without an account"
            )
        return token

    def _get(self, path: str, params: Mapping[str, Any], answered: tuple[int, ...] = ()) -> Any:
        url = f"{self.base_url}{path}?{urllib.parse.urlencode(params)}"
        shown = f"GET {path} ({urllib.parse.urlencode(params)})"
        budgets = (self.pdfs,) if path == "/pdf" else ()
        answer = self.http.request(
            url, shown, self._headers(), answered=(FORBIDDEN, *answered), budgets=budgets
        )
        if answer.status == FORBIDDEN and FORBIDDEN not in answered:
            who = (
                f"the account {USERNAME_ENV} names"
                if self.logged_in
                else f"unauthenticated reads (set {USERNAME_ENV} and {PASSWORD_ENV} to log in)"
            )
            raise DataError(
                f"OpenReview answered 403 to {shown}: it refuses {who} from this address "
                f"({answer.text(120)})"
            )
        return answer

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
            DataError: unreachable, refused, retries exhausted, or a body that is not a JSON
                object with that list (nothing cached).
        """
        response = self.get_json_or_none(path, params, listed, none_on=(), check=check)
        assert response is not None  # no status is answered with None
        return response

    def get_json_or_none(
        self,
        path: str,
        params: Mapping[str, Any],
        listed: str,
        none_on: tuple[int, ...],
        check: Callable[[list[Any]], str | None] = lambda _: None,
    ) -> dict[str, Any] | None:
        """:meth:`get_json`'s object, or None when OpenReview answers a status in ``none_on``
        (e.g. 403 or 404 for a review whose edits are not public); such an answer is not
        cached, and a 403 listed there is the caller's to read, not a refusal."""
        cached = cache_file(self.cache_dir, path, params)
        if cached.is_file():
            entry = json.loads(cached.read_text(encoding="utf-8"))
            self.counts.cached += 1
            self.fetch_dates.add(entry["fetched_on"])
            return dict(entry["response"])
        answer = self._get(path, params, answered=none_on)
        if answer.status in none_on:
            return None
        text = answer.body.decode("utf-8", "replace")
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
        write_atomic(cached, json.dumps({**entry, "response": response}).encode("utf-8"))
        return response

    def get_pdf(self, note_id: str) -> bytes | None:
        """The submission's PDF bytes; None when OpenReview has none (404). Bytes that are not
        a PDF are returned (the parser rejects them) but never cached."""
        params = {"id": note_id}
        cached = cache_file(self.cache_dir, "/pdf", params, ".pdf")
        if cached.is_file():
            self.counts.cached += 1
            return cached.read_bytes()
        answer = self._get("/pdf", params, answered=(404,))
        if answer.status == 404:
            return None
        if answer.body.startswith(b"%PDF"):
            write_atomic(cached, answer.body)
        return answer.body
