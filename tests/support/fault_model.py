"""What the fault server injects and counts: the fault mix, request hashes, the counters."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

FAULT_KINDS = (
    "http_429",
    "http_500",
    "timeout",
    "truncated",
    "empty",
    "malformed",
    "no_choices",
)
HELD = "held"  # not a drawn fault: a request held by hold_after() and dropped on release
BODY_FAULTS = ("truncated", "empty", "malformed", "no_choices")

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
        no_choices: Share answered 200 with a well-formed completion whose ``choices`` is empty.
        hang_seconds: How long a ``timeout`` request is held.
        models: Only requests for these model names get faults (``None``: every model).
        echo_auth: HTTP error bodies quote the request's ``Authorization`` header (as some
            providers and proxies do), to check that a key echoed back is never stored.
        echo_key: HTTP error bodies quote the request's key alone (no ``Bearer``, no header
            name), as a provider complaining about an unknown key may.
    """

    latency: float = 0.0
    http_429: float = 0.0
    http_500: float = 0.0
    timeout: float = 0.0
    truncated: float = 0.0
    empty: float = 0.0
    malformed: float = 0.0
    no_choices: float = 0.0
    hang_seconds: float = 3.0
    models: frozenset[str] | None = None
    echo_auth: bool = False
    echo_key: bool = False

    def __post_init__(self) -> None:
        rates = [getattr(self, kind) for kind in _RATE_FIELDS]
        if any(rate < 0 for rate in rates) or sum(rates) > 1:
            raise ValueError(f"fault rates must be >= 0 and sum to <= 1, got {rates}")

    def draw(self, model: str, rng: random.Random, first: bool = False) -> str | None:
        """The fault kind for one request (``None``: answer it), one RNG draw per request.

        ``first``: the model's first request, which always gets a fault (its kind drawn in
        proportion to the rates) when any rate is set, so every model meets the fault mix
        however few calls it makes.
        """
        roll = rng.random()
        if self.models is not None and model not in self.models:
            return None
        if first:
            roll *= sum(getattr(self, name) for name in _RATE_FIELDS)
        for kind, name in zip(FAULT_KINDS, _RATE_FIELDS, strict=True):
            rate = getattr(self, name)
            if roll < rate:
                return kind
            roll -= rate
        return None


_RATE_FIELDS = FAULT_KINDS


def prompt_hash(messages: list[Message]) -> str:
    """A short stable hash of a request's messages (role and text)."""
    canonical = json.dumps(messages, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


@dataclass
class ServerStats:
    """What the server saw; read it under :attr:`FaultServer.lock` or after the run."""

    calls: Counter[str] = field(default_factory=Counter)  # per model
    faults: Counter[str] = field(default_factory=Counter)  # per kind
    faulted: Counter[str] = field(default_factory=Counter)  # faults per model
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
