"""Each service's request budget: its documented limit, the one place the numbers live.

A budget is ``N/PERIOD``: at most N requests in any PERIOD (``90/30m``, ``36/1h``, ``1/3s``).
:class:`Window` keeps it: it holds a request back until the last PERIOD holds fewer than N, so
no window the server counts (a fixed one starting anywhere) sees more than N.

- **OpenReview API** (:data:`OPENREVIEW`, env ``OPENREVIEW_BUDGET``, ``--budget``): OpenReview
  answered users in 2026 "102 requests, surpassing the limit of 98 requests. Please try again in
  30 minutes" (later 144 a window); its limits are not published, so the default is 90 per
  30 minutes, under the lowest window reported, leaving room for a person browsing from the
  same address. Raise it when OpenReview grants an account more.
- **OpenReview PDFs** (:data:`OPENREVIEW_PDFS`, env ``OPENREVIEW_PDF_BUDGET``,
  ``--pdf-budget``): 36 an hour, the PDF limit OpenReview reported in the same answers; a PDF
  also counts against the API budget.
- **arXiv API** (:data:`ARXIV`, env ``ARXIV_BUDGET``): one request every 3 seconds on one
  connection (https://info.arxiv.org/help/api/tou.html).
- **Semantic Scholar** (:data:`SEMANTIC_SCHOLAR_KEYED`, env ``S2_BUDGET``): 1 request a second
  across all endpoints with an API key (https://www.semanticscholar.org/product/api, "Rate
  limits": the introductory rate); without a key the shared public pool, paced at one every
  3 seconds (:data:`SEMANTIC_SCHOLAR_PUBLIC`, the older 100 per 5 minutes per address).

A budget given on the command line wins over the environment, which wins over the default.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import math
import os
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from typing import Any

from research_taste_evals.core.data import DataError

UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}
BUDGET_FORM = re.compile(r"^\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)?\s*([smh])\s*$")


@dataclass(frozen=True)
class Budget:
    """At most ``requests`` requests in any ``seconds``."""

    requests: int
    seconds: float

    def __str__(self) -> str:
        return f"{self.requests} per {duration_text(self.seconds)}"

    def duration(self, requests: int, min_interval: float = 0.0) -> float:
        """Seconds ``requests`` take at this budget from a fresh window, spaced at least
        ``min_interval`` apart: full windows waited out, then the last one's spacing."""
        if requests <= 0:
            return 0.0
        spacing = max(min_interval, 0.0)
        full, last = divmod(requests - 1, self.requests)
        within = (self.requests - 1) * spacing
        return full * max(self.seconds, within + spacing) + last * spacing


OPENREVIEW = Budget(90, 1800.0)
OPENREVIEW_PDFS = Budget(36, 3600.0)
ARXIV = Budget(1, 3.0)
SEMANTIC_SCHOLAR_KEYED = Budget(1, 1.0)
SEMANTIC_SCHOLAR_PUBLIC = Budget(1, 3.0)
OPENREVIEW_ENV, OPENREVIEW_PDF_ENV = "OPENREVIEW_BUDGET", "OPENREVIEW_PDF_BUDGET"
ARXIV_ENV, SEMANTIC_SCHOLAR_ENV = "ARXIV_BUDGET", "S2_BUDGET"


def duration_text(seconds: float) -> str:
    """``3 s``, ``30 min``, ``1 h``, ``2 h 05 min``."""
    if seconds < 60:
        return f"{seconds:g} s"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    return f"{hours} h" if rest == 0 else f"{hours} h {rest:02d} min"


def parse_budget(text: str, named: str) -> Budget:
    """``N/PERIOD`` (``90/30m``, ``36/1h``, ``1/3s``) as a :class:`Budget`.

    Raises:
        DataError: one sentence naming ``named`` (the option or variable) when it is not one.
    """
    match = BUDGET_FORM.match(text)
    requests = int(match.group(1)) if match else 0
    seconds = float(match.group(2) or 1) * UNITS[match.group(3)] if match else 0.0
    if requests < 1 or seconds <= 0:
        raise DataError(
            f"{named} {text!r}: not a request budget; give N/PERIOD, at least 1 request in a "
            "period in s, m or h (like 90/30m, 36/1h, 1/3s)"
        )
    return Budget(requests, seconds)


def budget_of(
    given: str | Budget | None,
    env_var: str,
    default: Budget,
    flag: str,
    environ: Mapping[str, str] | None = None,
) -> Budget:
    """The budget to keep: ``given`` (the command line's ``flag``), else ``env_var``'s, else
    ``default``."""
    if isinstance(given, Budget):
        return given
    if given:
        return parse_budget(given, flag)
    value = (os.environ if environ is None else environ).get(env_var)
    return parse_budget(value, env_var) if value else default


class Window:
    """The send times of the last ``budget.seconds``: when the next request may go."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.sent: deque[float] = deque()

    def free_at(self, now: float) -> float:
        """The earliest moment from ``now`` at which one more request keeps the budget."""
        while self.sent and self.sent[0] <= now - self.budget.seconds:
            self.sent.popleft()
        if len(self.sent) < self.budget.requests:
            return now
        return self.sent[-self.budget.requests] + self.budget.seconds

    def record(self, moment: float) -> None:
        self.sent.append(moment)


def _moment(value: Any) -> float | None:
    """Epoch seconds of a reset time: epoch milliseconds (OpenReview's ``resetTime`` as a
    number, or digits) or an ISO-8601 time (``Z`` or an offset; naive read as UTC)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) or (isinstance(value, str) and value.strip().isdigit()):
        number = float(value)
        return number / 1000 if number > 1e11 else number  # milliseconds, else seconds
    if isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        return (moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)).timestamp()
    return None


def reset_at(headers: Message | Mapping[str, str], body: bytes, now: float) -> float | None:
    """When a 429's window resets, in epoch seconds (None: the answer does not say): its
    ``Retry-After`` (seconds from ``now``, or an HTTP date), else OpenReview's JSON
    ``details.resetTime``."""
    header = headers.get("Retry-After")
    if header is not None and header.strip():
        try:
            return now + max(0.0, float(header))
        except ValueError:
            try:
                return email.utils.parsedate_to_datetime(header).timestamp()
            except (TypeError, ValueError):
                pass
    try:
        answer = json.loads(body)
    except ValueError:
        return None
    details = answer.get("details") if isinstance(answer, dict) else None
    return _moment(details.get("resetTime")) if isinstance(details, dict) else None


def used_text(body: bytes) -> str:
    """``' (90 of 90 used)'`` from OpenReview's 429 body, '' when it does not say."""
    try:
        details = json.loads(body).get("details") or {}
        return f" ({int(details['used'])} of {int(details['limit'])} used)"
    except (ValueError, AttributeError, KeyError, TypeError):
        return ""


def utc_text(moment: float) -> str:
    return dt.datetime.fromtimestamp(moment, tz=dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
