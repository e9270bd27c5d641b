"""A fault-injecting, OpenAI-compatible ``/v1/chat/completions`` server for reliability tests.

Tasks reach it through Inspect's ``openai-api`` provider: ``--model openai-api/fault/<name>``
with ``FAULT_BASE_URL`` and ``FAULT_API_KEY`` in the environment (Inspect derives both variable
names from the service prefix, here ``fault``). Answers come from a *rule*, a callable on the
request's model name and messages, so an evaluated model, a grader panel and a judge can share
one server under distinct model names.

Faults are drawn per request from a seeded RNG: HTTP 429 and 500 (with a ``retry-after-ms``
header so the OpenAI client's own retries stay fast), timeouts (the server holds the request
longer than the client waits, then drops it), and 200 responses whose body is truncated JSON,
empty, or not JSON at all. The server binds 127.0.0.1 only, answers at most ``max_requests``
requests, and stops by itself after ``lifetime`` seconds.

It counts calls, faults by kind, and successful answers per (model, prompt hash), so a test can
check that no answered call was made again (no sample scored twice, cached calls not repeated).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

LOOPBACK = "127.0.0.1"
SERVICE = "fault"  # openai-api/fault/<name> -> FAULT_BASE_URL, FAULT_API_KEY
BASE_URL_VAR = "FAULT_BASE_URL"
API_KEY_VAR = "FAULT_API_KEY"
DEFAULT_LIFETIME = 600.0
DEFAULT_MAX_REQUESTS = 20_000
RETRY_AFTER_MS = "20"  # honoured by the OpenAI client: its own retries wait 20 ms, not 0.5-8 s
FAULT_KINDS = ("http_429", "http_500", "timeout", "truncated", "empty", "malformed")
HELD = "held"  # not a drawn fault: a request held by hold_after() and dropped on release
BODY_FAULTS = ("truncated", "empty", "malformed")

Message = dict[str, str]
Rule = Callable[[str, list[Message]], str]


@dataclass(frozen=True)
class Faults:
    """What goes wrong, per request; rates are probabilities that must sum to at most 1.

    Attributes:
        latency: Seconds every answered request waits before it is answered.
        http_429: Share answered ``429 Too Many Requests``.
        http_500: Share answered ``500 Internal Server Error``.
        timeout: Share held for ``hang_seconds`` (longer than the client's timeout), then dropped.
        truncated: Share answered 200 with the answer's JSON cut in half.
        empty: Share answered 200 with an empty ``application/json`` body.
        malformed: Share answered 200 with a body that is not JSON.
        hang_seconds: How long a ``timeout`` request is held.
        models: Only requests for these model names get faults (``None``: every model).
    """

    latency: float = 0.0
    http_429: float = 0.0
    http_500: float = 0.0
    timeout: float = 0.0
    truncated: float = 0.0
    empty: float = 0.0
    malformed: float = 0.0
    hang_seconds: float = 3.0
    models: frozenset[str] | None = None

    def __post_init__(self) -> None:
        rates = [getattr(self, kind) for kind in _RATE_FIELDS]
        if any(rate < 0 for rate in rates) or sum(rates) > 1:
            raise ValueError(f"fault rates must be >= 0 and sum to <= 1, got {rates}")

    def draw(self, model: str, rng: random.Random) -> str | None:
        """The fault kind for one request (``None``: answer it), one RNG draw per request."""
        roll = rng.random()
        if self.models is not None and model not in self.models:
            return None
        for kind, name in zip(FAULT_KINDS, _RATE_FIELDS, strict=True):
            rate = getattr(self, name)
            if roll < rate:
                return kind
            roll -= rate
        return None


_RATE_FIELDS = ("http_429", "http_500", "timeout", "truncated", "empty", "malformed")


def prompt_hash(messages: list[Message]) -> str:
    """A short stable hash of a request's messages (role and text)."""
    canonical = json.dumps(messages, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


@dataclass
class ServerStats:
    """What the server saw; read it under :attr:`FaultServer.lock` or after the run."""

    calls: Counter[str] = field(default_factory=Counter)  # per model
    faults: Counter[str] = field(default_factory=Counter)  # per kind
    answered: Counter[tuple[str, str]] = field(default_factory=Counter)  # (model, prompt hash)
    rule_errors: list[str] = field(default_factory=list)
    auth_headers: set[str] = field(default_factory=set)

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    @property
    def total_faults(self) -> int:
        return sum(self.faults.values())

    @property
    def total_answered(self) -> int:
        return sum(self.answered.values())


class FaultServer:
    """The server, run in a daemon thread; use as a context manager.

    Args:
        rule: ``(model name, messages) -> answer text`` for every request that gets an answer.
        faults: The fault mix (change it between runs with :meth:`set_faults`).
        seed: Seeds the fault RNG.
        max_requests: Requests after which every further one gets 503 and the server stops.
        lifetime: Seconds after which the server stops by itself.
    """

    def __init__(
        self,
        rule: Rule,
        faults: Faults | None = None,
        seed: int = 0,
        max_requests: int = DEFAULT_MAX_REQUESTS,
        lifetime: float = DEFAULT_LIFETIME,
    ) -> None:
        self.rule = rule
        self.faults = faults or Faults()
        self.max_requests = max_requests
        self.lifetime = lifetime
        self.lock = threading.Lock()
        self.stats = ServerStats()
        self._rng = random.Random(seed)
        self._httpd = _QuietServer((LOOPBACK, 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None
        self._timer: threading.Timer | None = None
        self._stopped = threading.Event()
        self._hold_after: int | None = None
        self._released = threading.Event()

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}/v1"

    def env(self, api_key: str = "fault-test-key") -> dict[str, str]:
        """The environment variables Inspect's ``openai-api/fault/...`` provider reads."""
        return {BASE_URL_VAR: self.base_url, API_KEY_VAR: api_key}

    def set_faults(self, faults: Faults, seed: int | None = None) -> None:
        """Use ``faults`` from now on (and restart the fault RNG from ``seed`` when given)."""
        with self.lock:
            self.faults = faults
            if seed is not None:
                self._rng = random.Random(seed)

    def set_rule(self, rule: Rule) -> None:
        """Answer with ``rule`` from now on (one server can serve several tasks in turn)."""
        with self.lock:
            self.rule = rule

    def hold_after(self, answers: int | None) -> None:
        """Once ``answers`` requests were answered, hold every new request until
        :meth:`release`, then drop it unanswered (counted as fault ``held``): a clean moment
        to kill a client, with nothing answered in flight."""
        with self.lock:
            self._hold_after = answers
            self._released.clear()

    def release(self) -> None:
        self._released.set()

    def reset_stats(self) -> ServerStats:
        """Start counting afresh; returns the counts so far."""
        with self.lock:
            old, self.stats = self.stats, ServerStats()
        return old

    def start(self) -> FaultServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        self._timer = threading.Timer(self.lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self) -> None:
        if self._stopped.is_set():
            return
        self._stopped.set()
        if self._timer is not None:
            self._timer.cancel()
        threading.Thread(target=self._shutdown, daemon=True).start()

    def _shutdown(self) -> None:
        self._httpd.shutdown()  # blocks until serve_forever returns: never on its own thread
        self._httpd.server_close()

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _admit(self, model: str, auth: str) -> tuple[str | None, Faults, bool]:
        """Count the call and draw its fault; the flag says the request budget is spent."""
        with self.lock:
            over = self.stats.total_calls >= self.max_requests
            self.stats.calls[model] += 1
            self.stats.auth_headers.add(auth)
            held = self._hold_after is not None and self.stats.total_answered >= self._hold_after
            kind = None if over else HELD if held else self.faults.draw(model, self._rng)
            if kind is not None:
                self.stats.faults[kind] += 1
            return kind, self.faults, over


class _QuietServer(ThreadingHTTPServer):
    """Clients that hang up (a killed eval, a client timeout) are expected here, not errors."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _completion(model: str, text: str, messages: list[Message]) -> dict[str, Any]:
    prompt_tokens = sum(len(m["content"].split()) for m in messages) + 1
    completion_tokens = len(text.split()) + 1
    return {
        "id": f"chatcmpl-{prompt_hash(messages)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _handler_for(server: FaultServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet under pytest
            return

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("content-length", "0"))
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                request = json.loads(raw)
                model = str(request["model"])
                messages = [
                    {"role": str(m.get("role", "")), "content": _text(m.get("content"))}
                    for m in request["messages"]
                ]
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                self._send(400, {"error": {"message": f"bad request: {error}"}})
                return
            if request.get("stream"):
                self._send(400, {"error": {"message": "the fault server does not stream"}})
                return
            kind, faults, over = server._admit(model, self.headers.get("authorization", ""))
            if over:
                self._send(503, {"error": {"message": "fault server request budget spent"}})
                server.stop()
                return
            if kind == HELD:
                server._released.wait(server.lifetime)
                self.close_connection = True
                return
            if kind == "timeout":
                time.sleep(faults.hang_seconds)
                self.close_connection = True
                return
            if faults.latency:
                time.sleep(faults.latency)
            if kind == "http_429":
                self._send(429, {"error": {"message": "rate limited (injected)"}}, retry=True)
                return
            if kind == "http_500":
                self._send(500, {"error": {"message": "server error (injected)"}}, retry=True)
                return
            try:
                text = server.rule(model, messages)
            except Exception as error:  # a broken rule is the test's bug: say so loudly
                with server.lock:
                    server.stats.rule_errors.append(f"{model}: {type(error).__name__}: {error}")
                self._send(500, {"error": {"message": f"rule failed: {error}"}})
                return
            body = json.dumps(_completion(model, text, messages)).encode("utf-8")
            if kind == "truncated":
                self._send_raw(200, body[: len(body) // 2])
            elif kind == "empty":
                self._send_raw(200, b"")
            elif kind == "malformed":
                self._send_raw(200, b"<html>upstream proxy hiccup</html>{")
            else:
                with server.lock:
                    server.stats.answered[(model, prompt_hash(messages))] += 1
                self._send_raw(200, body)

        def _send(self, status: int, payload: dict[str, Any], retry: bool = False) -> None:
            headers = {"retry-after-ms": RETRY_AFTER_MS} if retry else {}
            self._send_raw(status, json.dumps(payload).encode("utf-8"), headers)

        def _send_raw(
            self, status: int, body: bytes, headers: dict[str, str] | None = None
        ) -> None:
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout): nothing to answer

    return Handler
