"""A fault-injecting, OpenAI-compatible ``/v1/chat/completions`` server for reliability tests.

Tasks reach it through Inspect's ``openai-api`` provider: ``--model openai-api/fault/<name>``
with ``FAULT_BASE_URL`` and ``FAULT_API_KEY`` in the environment (Inspect derives both variable
names from the service prefix, here ``fault``). Answers come from a *rule*, a callable on the
request's model name and messages, so an evaluated model, a grader panel and a judge can share
one server under distinct model names.

Faults are drawn per request from a seeded RNG of the request's model name (one stream per
model, so which of a model's requests fail does not depend on how concurrent calls of other
models interleave, and every model's share of faults is the same run after run; a model's
first request always gets one, so every model meets the mix): HTTP 429
and 500 (with a ``retry-after-ms`` header so the OpenAI client's own retries stay fast),
timeouts (the server holds the request longer than the client waits, then drops it), and 200
responses whose body is truncated JSON, empty, or not JSON at all. The server binds 127.0.0.1
only, answers at most ``max_requests`` requests, and stops by itself after ``lifetime``
seconds.

It counts calls, faults by kind, and successful answers per (model, prompt hash), so a test can
check that no answered call was made again (no sample scored twice, cached calls not repeated).
"""

from __future__ import annotations

import random
import threading
from types import TracebackType

from fault_http import QuietServer, handler_for
from fault_model import (
    BODY_FAULTS,
    FAULT_KINDS,
    HELD,
    Faults,
    Message,
    Rule,
    ServerStats,
    prompt_hash,
)
from local_server import LocalServer

__all__ = [
    "BODY_FAULTS",
    "FAULT_KINDS",
    "HELD",
    "FaultServer",
    "Faults",
    "Message",
    "Rule",
    "ServerStats",
    "prompt_hash",
]

LOOPBACK = "127.0.0.1"
SERVICE = "fault"  # openai-api/fault/<name> -> FAULT_BASE_URL, FAULT_API_KEY
BASE_URL_VAR = "FAULT_BASE_URL"
API_KEY_VAR = "FAULT_API_KEY"
DEFAULT_LIFETIME = 600.0
DEFAULT_MAX_REQUESTS = 20_000


class FaultServer:
    """The server, run in a daemon thread; use as a context manager.

    Args:
        rule: ``(model name, messages) -> answer text`` for every request that gets an answer.
        faults: The fault mix (change it between runs with :meth:`set_faults`).
        seed: Seeds the fault RNGs (one per model name).
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
        self._seed = seed
        self._rngs: dict[str, random.Random] = {}
        self._server = LocalServer(handler_for(self), lifetime, QuietServer)
        self._hold_after: int | None = None
        self._released = threading.Event()

    @property
    def port(self) -> int:
        return self._server.port

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
                self._seed, self._rngs = seed, {}

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
        self._server.start()
        return self

    def stop(self) -> None:
        """Stop serving, without waiting (a handler may call it: ``max_requests``)."""
        self._server.stop(wait=False)

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _rng(self, model: str) -> random.Random:
        """The fault stream of ``model`` (call under :attr:`lock`)."""
        if model not in self._rngs:
            self._rngs[model] = random.Random(f"{self._seed}:{model}")
        return self._rngs[model]

    def _admit(self, model: str, auth: str) -> tuple[str | None, Faults, bool]:
        """Count the call and draw its fault; the flag says the request budget is spent."""
        with self.lock:
            over = self.stats.total_calls >= self.max_requests
            self.stats.calls[model] += 1
            self.stats.auth_headers.add(auth)
            held = self._hold_after is not None and self.stats.total_answered >= self._hold_after
            kind = (
                None
                if over
                else HELD
                if held
                else self.faults.draw(model, self._rng(model), first=self.stats.calls[model] == 1)
            )
            if kind is not None:
                self.stats.faults[kind] += 1
                self.stats.faulted[model] += 1
            return kind, self.faults, over
