"""A fake OpenReview conference that keeps OpenReview's limits as it answered users in 2026:
at most ``limit`` requests in a window of ``window`` seconds and ``pdf_limit`` PDFs in
``pdf_window``, a request past them answered 429 with OpenReview's body
``{"name": "RateLimitError", "status": 429, "details": {"limit", "remaining", "resetTime",
"used"}}`` and no ``Retry-After`` header. Windows are fixed: one starts at the first request
after the previous one ended (a refused request counts, as OpenReview's "102 requests,
surpassing the limit of 98" says).

The windows run on :class:`SharedClock`, the fake time the client sleeps on too (its sleep
moves it), so no test waits. Every request is recorded with its time (``sent``) and every
announced reset (``resets``: when the 429 was sent, the reset it named), so a test can check
that no request went before a reset. ``reset_forms`` alternates the reset's forms: epoch
milliseconds and ISO-8601. The venue is :mod:`fake_big_venue`'s, every submission with a PDF;
``decided`` adds each submission's decision.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from fake_big_venue import VENUE, BigVenue
from fake_openreview import make_pdf

EPOCH_START = dt.datetime(2025, 11, 20, 1, tzinfo=dt.UTC).timestamp()
PDF = make_pdf(["A submission.", "We train a model."])


class SharedClock:
    """Epoch seconds that pass only when someone sleeps; ``kill_at``: a sleep raises
    KeyboardInterrupt (a Ctrl-C during a wait between two requests, where a paced client
    spends its time) once ``served()`` has reached it."""

    def __init__(self, start: float = EPOCH_START) -> None:
        self.now = start
        self.sleeps: list[float] = []
        self.kill_at: int | None = None
        self.served = lambda: 0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if self.kill_at is not None and self.served() >= self.kill_at:
            self.kill_at = None
            raise KeyboardInterrupt("killed midway")
        self.sleeps.append(seconds)
        self.now += seconds


@dataclass
class FixedWindow:
    limit: int
    seconds: float
    start: float | None = None
    used: int = 0

    def take(self, now: float) -> bool:
        """Count a request at ``now``; whether it is within the limit."""
        if self.start is None or now >= self.start + self.seconds:
            self.start, self.used = now, 0
        self.used += 1
        return self.used <= self.limit

    def refusal(self, iso: bool) -> bytes:
        assert self.start is not None
        reset = self.start + self.seconds
        when: Any = (
            dt.datetime.fromtimestamp(reset, dt.UTC).isoformat().replace("+00:00", "Z")
            if iso
            else int(reset * 1000)
        )
        details = {"limit": self.limit, "remaining": 0, "resetTime": when, "used": self.used}
        body = {"name": "RateLimitError", "status": 429, "details": details}
        return json.dumps(body).encode("utf-8")


@dataclass
class RateLimitedVenue(BigVenue):
    clock: SharedClock = field(default_factory=SharedClock)
    api: FixedWindow = field(default_factory=lambda: FixedWindow(80, 1800.0))
    pdf: FixedWindow = field(default_factory=lambda: FixedWindow(30, 3600.0))
    decided: bool = False
    sent: list[tuple[float, str, str, int]] = field(default_factory=list)  # time, path, key, status
    resets: list[tuple[float, float]] = field(default_factory=list)  # (refused at, reset)

    def note(self, index: int) -> dict[str, Any]:
        note = super().note(index)
        note["content"]["pdf"] = {"value": f"/pdf/{note['id']}.pdf"}
        if self.decided:
            decision = {
                "id": f"{note['id']}-decision",
                "invitations": [f"{VENUE}/Submission{index}/-/Decision"],
                "cdate": note["cdate"],
                "content": {"decision": {"value": "Accept" if index % 2 else "Reject"}},
            }
            note["details"]["replies"].append(decision)
        return note

    def answer(self, path: str, params: dict[str, str], auth: str = "") -> tuple[int, str, bytes]:
        now = self.clock.now
        key = json.dumps([path, sorted(params.items())])
        window = self.api if self.api.take(now) else None
        if window is not None and path == "/pdf" and not self.pdf.take(now):
            window = None
            refused = self.pdf
        else:
            refused = self.api
        if window is None:
            iso = len(self.resets) % 2 == 1
            body = refused.refusal(iso)
            assert refused.start is not None
            self.resets.append((now, refused.start + refused.seconds))
            self.sent.append((now, path, key, 429))
            return 429, "application/json", body
        if path == "/pdf":
            answer = (200, "application/pdf", PDF)
        else:
            answer = super().answer(path, params, auth)
        self.sent.append((now, path, key, answer[0]))
        return answer


def rate_limited_venue(size: int, clock: SharedClock) -> RateLimitedVenue:
    venue = RateLimitedVenue(venue=VENUE, notes=[], size=size, clock=clock, retry_after="")
    clock.served = lambda: len(venue.sent)
    return venue
