"""The one HTTP client of the builders: budgeted, retried, announced, and its on-disk cache.

Semantic Scholar (``semantic_scholar.py``), arXiv (``ideapairs/papers.py``, also tastybench's
abstract fallback, and the arXiv rounds) and OpenReview (``openreview/client.py``) send every
request through :class:`HttpClient`:

- **budgeted**: requests are spaced ``min_interval`` seconds apart, counted from the previous
  answer (or refusal), and each request keeps its service's budgets (``builders/limits.py``:
  at most N requests in any window; OpenReview's PDFs have one of their own); a wait for the
  budget longer than :data:`ANNOUNCE_WAITS_OVER` seconds is announced in one line;
- **rate limits waited out**: a 429 whose answer says when its window resets (a
  ``Retry-After`` header, seconds or an HTTP date, or OpenReview's JSON body
  ``{"name": "RateLimitError", "details": {"resetTime": ...}}``, ISO-8601 or epoch
  milliseconds) is waited out to that time (no request at all is sent before it), announced in
  one line saying until when and how to stop and resume; a 429 that says nothing waits a
  doubling back-off up to the budget's window. A request gives up after
  :data:`MAX_RATE_LIMITED` refusals in a row (hours at a 30-minute window), never inside one;
- **retried**: a 5xx answer, a request that times out, and an answer cut mid-way (a
  body shorter than its ``Content-Length``, or a connection closed before the status line:
  :data:`CUT_SHORT`) are retried after
  ``max(Retry-After, backoff)`` seconds (the backoff doubling from ``backoff_base``), at most
  ``max_tries`` tries; no such wait is longer than :data:`RETRY_AFTER_CAP` (a 503's
  ``Retry-After: 3600`` would otherwise hold a build for an hour) and each is announced in one
  line;
- **one sentence** when the host cannot be reached (``cannot reach <service> at <url> (...):
  set <ENV_VAR> ...``), when an error status is not retried, and when retries run out.

The clock (epoch seconds: a reset time is absolute) and the sleep are injectable, so tests
share a fake clock with their fake server and never sleep.

The cache (:func:`cache_file`, :func:`write_atomic`) is one file per request, named by the
SHA-256 of its path and sorted parameters; callers write only answers they have checked.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path
from typing import Any

from research_taste.builders.limits import (
    Budget,
    Window,
    duration_text,
    reset_at,
    used_text,
    utc_text,
)
from research_taste_evals.core.data import DataError
from research_taste_evals.core.network import connect_timeout, host_of

RETRIED_STATUSES = (429, 500, 502, 503, 504)
RETRY_AFTER_CAP = 120.0  # seconds: the longest a build waits before retrying a 5xx or timeout
RATE_LIMITED = 429
MAX_RATE_LIMITED = 12  # 429s in a row for one request before it gives up (hours, not minutes)
RESET_MARGIN = 1.0  # seconds past an announced reset before asking again (clocks differ)
ANNOUNCE_WAITS_OVER = 30.0  # seconds: a longer wait for the budget is announced
TIMEOUT_SECONDS = 60.0
# An answer cut mid-way: the body ends before its Content-Length (IncompleteRead), or the
# connection closes or resets before the status line (RemoteDisconnected is a
# ConnectionResetError). urllib raises these from read() and getresponse() unwrapped.
# A malformed status line or header (BadStatusLine, LineTooLong: an answer cut inside its head)
# and an aborted connection are the same fault seen earlier: all are HTTPExceptions or resets.
CUT_SHORT: tuple[type[BaseException], ...] = (
    http.client.HTTPException,
    ConnectionResetError,
    ConnectionAbortedError,
)


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def announce(line: str) -> None:
    """One line on stderr (a retry's wait)."""
    print(line, file=sys.stderr, flush=True)


def cache_key(path: str, params: Mapping[str, Any]) -> str:
    """SHA-256 of the request (path and sorted parameters): its cache file's name."""
    canonical = json.dumps([path, sorted((k, str(v)) for k, v in params.items())])
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def cache_file(folder: Path, path: str, params: Mapping[str, Any], suffix: str = ".json") -> Path:
    """Where the answer to ``GET path?params`` is cached under ``folder``."""
    key = cache_key(path, params)
    return folder / key[:2] / f"{key}{suffix}"


def write_atomic(path: Path, payload: bytes) -> None:
    """Write ``payload`` through a ``.part`` file, so an interrupted write leaves no entry."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_bytes(payload)
    partial.replace(path)


def unreachable(url: str) -> str | None:
    """Why the host of ``url`` takes no TCP connection (None: it does), in at most
    ``core.network.connect_timeout()`` seconds: an offline machine fails at once instead of
    waiting out read timeouts and their retries."""
    address = host_of(url)
    if address is None:
        return None
    try:
        with socket.create_connection(address, timeout=connect_timeout()):
            return None
    except OSError as error:  # refused, unreachable, DNS failure, timeout
        return f"{type(error).__name__}: {error}"


def retry_after(header: str | None) -> float:
    """Seconds from a ``Retry-After`` header (0 for an HTTP date or nonsense: backoff decides)."""
    try:
        return max(0.0, float(header)) if header is not None else 0.0
    except ValueError:
        return 0.0


@dataclass
class RequestCounts:
    """What a build asked for: requests sent, answered from the cache, and retried."""

    network: int = 0
    cached: int = 0
    retried: int = 0
    retried_by_status: dict[str, int] = field(default_factory=dict)

    def as_report(self) -> dict[str, Any]:
        return {
            "network": self.network,
            "cached": self.cached,
            "retried": self.retried,
            "retried_by_status": dict(self.retried_by_status),
        }


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status, body and headers."""

    status: int
    body: bytes
    headers: Message | Mapping[str, str]

    def text(self, limit: int = 200) -> str:
        """The body on one line, at most ``limit`` characters (for messages)."""
        return " ".join(self.body.decode("utf-8", "replace").split())[:limit]


class HttpClient:
    """Budgeted, retried requests to one service (synchronous: the builders are command lines)."""

    def __init__(
        self,
        service: str,
        env_var: str,
        min_interval: float,
        max_tries: int,
        backoff_base: float = 1.0,
        user_agent: str = "research-taste builder",
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] | None = None,
        say: Callable[[str], None] | None = None,
        timeout: float = TIMEOUT_SECONDS,
        budget: Budget | None = None,
        budget_hint: str = "",
    ) -> None:
        self.service, self.env_var = service, env_var
        self.min_interval, self.max_tries, self.backoff_base = min_interval, max_tries, backoff_base
        self.user_agent, self.timeout = user_agent, timeout
        self.clock = clock
        self._sleep_with, self._say_with = sleep, say
        self.counts = RequestCounts()
        self.hint = ""  # said after "set <ENV_VAR> ..." when the host cannot be reached
        self.budget = budget
        self.budget_hint = budget_hint  # how to change the budget, said with its waits
        self.window = Window(budget) if budget is not None else None
        self._last: float | None = None
        self._resume_at = 0.0  # no request before this moment (an announced reset)
        self._reached: set[tuple[str, int]] = set()  # hosts this client has connected to

    def sleep(self, seconds: float) -> None:
        (self._sleep_with or _sleep)(seconds)

    def say(self, line: str) -> None:
        (self._say_with or announce)(line)

    def wait(self, seconds: float, why: str) -> None:
        """Count a retry, announce its wait in one line, and wait."""
        self.counts.retried += 1
        self.say(f"{self.service}: {why}: waiting {seconds:g} s before asking again")
        self.sleep(seconds)

    def _until(self, moment: float) -> float:
        """Sleep until ``moment`` (epoch seconds); the time after it (a fake sleep that does not
        move the clock still counts as having waited)."""
        now = self.clock()
        if moment > now:
            self.sleep(moment - now)
        return max(self.clock(), moment)

    def _pace(self, windows: Sequence[Window]) -> None:
        """Wait for the pace, an announced reset and every budget; then count the request in
        each budget."""
        now = self.clock()
        paced = now if self._last is None else self._last + self.min_interval
        budgets = [(window.free_at(now), window) for window in windows]
        at, busy = max(((moment, w) for moment, w in budgets), default=(now, None), key=_first)
        moment = max(paced, self._resume_at, at)
        if busy is not None and at >= moment and at - now > ANNOUNCE_WAITS_OVER:
            self.say(
                f"{self.service}: its budget of {busy.budget} is used up: waiting "
                f"{duration_text(at - now)}, until {utc_text(at)}{self._stop_hint()}"
            )
        sent = self._until(moment)
        for window in windows:
            window.record(sent)

    def _stop_hint(self) -> str:
        return f"; Ctrl-C stops, and the same command resumes from what is cached{self.budget_hint}"

    def _unreachable(self, url: str, reason: object) -> DataError:
        return DataError(
            f"cannot reach {self.service} at {url.split('?')[0]} ({reason}): set "
            f"{self.env_var} to a reachable base URL{self.hint}"
        )

    def request(
        self,
        url: str,
        shown: str,
        headers: Mapping[str, str] | None = None,
        data: bytes | None = None,
        answered: tuple[int, ...] = (),
        budgets: Sequence[Window] = (),
    ) -> Answer:
        """The answer to ``url`` (``shown``: the request as messages name it, e.g.
        ``GET /notes``); a POST when ``data`` is given. Statuses in ``answered`` are returned
        to the caller; 429s are waited out, 5xx and timeouts retried; other errors raise.
        ``budgets``: budgets this request keeps besides the client's own (OpenReview's PDFs).

        Raises:
            DataError: unreachable, an error status not retried, or retries exhausted (one
                sentence; an answer cut short is retried like a timeout).
        """
        address = host_of(url)
        if address is not None and address not in self._reached:
            reason = unreachable(url)
            if reason is not None:
                raise self._unreachable(url, reason)
            self._reached.add(address)
        sent = {"User-Agent": self.user_agent, **(headers or {})}
        windows = [w for w in (self.window, *budgets) if w is not None]
        attempt = limited = 0
        while True:
            self._pace(windows)
            self.counts.network += 1
            last = attempt == self.max_tries - 1
            try:
                try:
                    request = urllib.request.Request(url, data=data, headers=sent)
                    with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                        return Answer(answer.status, bytes(answer.read()), answer.headers)
                finally:
                    self._last = self.clock()  # the pace runs from the answer (or refusal)
            except urllib.error.HTTPError as error:
                failed = Answer(error.code, _error_body(error), error.headers)
                if error.code in answered:
                    return failed
                if error.code == RATE_LIMITED:
                    if limited == MAX_RATE_LIMITED - 1:
                        raise self._gave_up("429", shown, limited + 1) from error
                    self._rate_limited(failed, shown, limited, windows)
                    limited += 1
                    continue
                if error.code not in RETRIED_STATUSES:
                    raise DataError(
                        f"{self.service} answered {error.code} to {shown}: {failed.text()}; "
                        f"nothing was cached from it (check {self.env_var})"
                    ) from error
                if last:
                    raise self._gave_up(str(error.code), shown) from error
                self._retry(
                    str(error.code), shown, retry_after(failed.headers.get("Retry-After")), attempt
                )
            except TimeoutError as error:
                if last:
                    raise self._gave_up("nothing in time", shown) from error
                self._retry("timeout", shown, 0.0, attempt)
            except CUT_SHORT as error:
                if last:
                    raise self._gave_up("a truncated body", shown) from error
                self._retry("cut short", shown, 0.0, attempt)
            except urllib.error.URLError as error:
                if isinstance(error.reason, TimeoutError | socket.timeout) and not last:
                    self._retry("timeout", shown, 0.0, attempt)
                    attempt += 1
                    continue
                if isinstance(error.reason, CUT_SHORT) and not last:  # reset while sending
                    self._retry("cut short", shown, 0.0, attempt)
                    attempt += 1
                    continue
                raise self._unreachable(url, error.reason) from error
            attempt += 1

    def _rate_limited(
        self, answer: Answer, shown: str, limited: int, windows: Sequence[Window]
    ) -> None:
        """Wait out a 429: to its announced reset (plus :data:`RESET_MARGIN`), else a doubling
        back-off up to the budget's window; no request of this client goes before then."""
        self.counts.retried += 1
        by_status = self.counts.retried_by_status
        by_status["429"] = by_status.get("429", 0) + 1
        now = self.clock()
        reset = reset_at(answer.headers, answer.body, now)
        if reset is not None and reset > now:  # a reset now or past says nothing: back off
            until = reset + RESET_MARGIN
            why = "until its window resets"
        else:
            longest = max((w.budget.seconds for w in windows), default=RETRY_AFTER_CAP)
            until = now + min(self.backoff_base * 2**limited, max(longest, self.backoff_base))
            why = "(it did not say until when; a back-off up to the budget's window)"
        self._resume_at = max(self._resume_at, until)
        self.say(
            f"{self.service} answered 429 (rate limit) to {shown}{used_text(answer.body)}: waiting "
            f"{duration_text(until - now)} {why}, until {utc_text(until)}{self._stop_hint()}"
        )

    def _gave_up(self, status: str, shown: str, times: int | None = None) -> DataError:
        return DataError(
            f"{self.service} answered {status} to {shown} {times or self.max_tries} times; "
            "nothing was cached from it: wait and re-run the same command (the cache keeps what "
            f"was fetched), or check {self.env_var}"
        )

    def _retry(self, status: str, shown: str, asked: float, attempt: int) -> None:
        self.counts.retried += 1
        by_status = self.counts.retried_by_status
        by_status[status] = by_status.get(status, 0) + 1
        wait = min(max(asked, self.backoff_base * 2**attempt), RETRY_AFTER_CAP)
        capped = f" (its Retry-After {asked:g} s, capped)" if asked > wait else ""
        said = {"timeout": "no answer in time", "cut short": "cut its answer short"}.get(
            status, f"answered {status}"
        )
        self.say(
            f"{self.service} {said} to {shown}: waiting {wait:g} s{capped} before try "
            f"{attempt + 2} of {self.max_tries}"
        )
        self.sleep(wait)


def _first(pair: tuple[float, Any]) -> float:
    return pair[0]


def _error_body(error: urllib.error.HTTPError) -> bytes:
    """An error answer's body; what arrived of it when it was cut short (the status decides)."""
    try:
        return bytes(error.read())
    except http.client.IncompleteRead as cut:
        return bytes(cut.partial)
    except CUT_SHORT:
        return b""
