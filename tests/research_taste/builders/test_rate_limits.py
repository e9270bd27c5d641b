"""Issue 59, item 1: the services' budgets (``builders/limits.py``) and the reset a 429 names,
in each form a service gives it; a wait for the budget announced in one line."""

from __future__ import annotations

import datetime as dt
import json
from email.message import Message
from email.utils import format_datetime

import pytest
from fake_graph_api import FakeClock

from research_taste.builders.limits import (
    OPENREVIEW,
    Budget,
    Window,
    budget_of,
    parse_budget,
    reset_at,
)
from research_taste_evals.core.data import DataError

NOW = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC).timestamp()
RESET = NOW + 1234.0


def _body(reset: object) -> bytes:
    details = {"limit": 98, "remaining": 0, "resetTime": reset, "used": 102}
    return json.dumps({"name": "RateLimitError", "status": 429, "details": details}).encode()


@pytest.mark.parametrize(
    "reset",
    [
        int(RESET * 1000),  # epoch milliseconds
        str(int(RESET * 1000)),
        dt.datetime.fromtimestamp(RESET, dt.UTC).isoformat().replace("+00:00", "Z"),
        dt.datetime.fromtimestamp(RESET, dt.UTC).isoformat(),
    ],
)
def test_openreview_reset_time_in_each_form(reset: object) -> None:
    assert reset_at({}, _body(reset), NOW) == pytest.approx(RESET)


def test_retry_after_seconds_or_http_date_wins_over_the_body() -> None:
    assert reset_at({"Retry-After": "60"}, _body(0), NOW) == NOW + 60
    date = format_datetime(dt.datetime.fromtimestamp(RESET, dt.UTC), usegmt=True)
    headers = Message()
    headers["Retry-After"] = date
    assert reset_at(headers, b"", NOW) == pytest.approx(RESET)


@pytest.mark.parametrize("body", [b"", b"<html>busy</html>", b'{"name": "RateLimitError"}'])
def test_a_429_that_says_nothing_has_no_reset(body: bytes) -> None:
    assert reset_at({}, body, NOW) is None


def test_budgets_from_the_command_line_the_environment_or_the_default() -> None:
    assert parse_budget("144/30m", "--budget") == Budget(144, 1800.0)
    assert parse_budget("1/3s", "X") == Budget(1, 3.0) and str(Budget(36, 3600)) == "36 per 1 h"
    assert budget_of(None, "OPENREVIEW_BUDGET", OPENREVIEW, "--budget", {}) == OPENREVIEW
    env = {"OPENREVIEW_BUDGET": "120/30m"}
    assert budget_of(None, "OPENREVIEW_BUDGET", OPENREVIEW, "--budget", env) == Budget(120, 1800)
    assert budget_of("10/1h", "OPENREVIEW_BUDGET", OPENREVIEW, "--budget", env).requests == 10
    with pytest.raises(DataError, match=r"^--budget '90 per hour': not a request budget"):
        parse_budget("90 per hour", "--budget")
    with pytest.raises(DataError, match=r"^OPENREVIEW_BUDGET '0/30m'"):
        budget_of(None, "OPENREVIEW_BUDGET", OPENREVIEW, "--budget", {"OPENREVIEW_BUDGET": "0/30m"})


def test_a_window_holds_no_more_than_its_budget() -> None:
    window, sent, now = Window(Budget(3, 60.0)), [], 0.0
    for _ in range(7):
        now = window.free_at(now)
        window.record(now)
        sent.append(now)
    assert sent == [0, 0, 0, 60, 60, 60, 120]
    assert Budget(90, 1800).duration(1600, 1.0) == 17 * 1800 + 69 * 1.0


def test_a_wait_for_the_budget_is_one_line(tmp_path: object) -> None:
    from research_taste.builders.http import HttpClient

    clock, said = FakeClock(), []
    clock.now = NOW
    client = HttpClient(
        "Svc", "SVC", 0.0, 2, clock=clock, sleep=clock.sleep, say=said.append,
        budget=Budget(2, 1800.0), budget_hint=" (the budget: SVC_BUDGET)",
    )  # fmt: skip
    for _ in range(3):
        client._pace([client.window] if client.window else [])
    assert clock.sleeps == [1800.0]
    assert said == [
        "Svc: its budget of 2 per 30 min is used up: waiting 30 min, until 2026-03-01 12:30:00 "
        "UTC; Ctrl-C stops, and the same command resumes from what is cached (the budget: "
        "SVC_BUDGET)"
    ]
