"""The builders' one HTTP client (``builders/http.py``) and the fakes' one local server
(``tests/support/local_server.py``): a 429's Retry-After waited out and a 503's capped, with one
line a wait, timeouts retried,
the "cannot reach <service> at <url>: set <ENV_VAR>" sentence, and a server that stops itself."""

from __future__ import annotations

import socket
from http.server import BaseHTTPRequestHandler

import pytest
from fake_graph_api import FakeClock
from local_server import LocalServer, serving

from research_taste.builders.http import (
    MAX_RATE_LIMITED,
    RESET_MARGIN,
    RETRY_AFTER_CAP,
    HttpClient,
)
from research_taste_evals.core.data import DataError


def _busy_then_ok(busy: list[int], refusal: int = 429) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            status = refusal if busy[0] > 0 else 200
            busy[0] -= 1
            self.send_response(status)
            self.send_header("Retry-After", "3600")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    return Handler


def _client(clock: FakeClock, said: list[str], tries: int = 4) -> HttpClient:
    return HttpClient(
        "Svc", "SVC_BASE", 1.0, tries, clock=clock, sleep=clock.sleep, say=said.append
    )


def test_a_429s_retry_after_is_waited_out_in_one_line() -> None:
    clock, said = FakeClock(), []
    with serving(_busy_then_ok([2])) as server:
        answer = _client(clock, said).request(f"{server.base_url}/x", "GET /x")
    waited = 3600 + RESET_MARGIN
    assert answer.body == b"ok" and clock.sleeps[:1] == [waited]
    assert sum(clock.sleeps) >= 2 * waited  # never asked before the reset
    assert said[0] == (
        "Svc answered 429 (rate limit) to GET /x: waiting 1 h 01 min until its window resets, "
        "until 1970-01-01 01:00:01 UTC; Ctrl-C stops, and the same command resumes from what "
        "is cached"
    )
    assert len(said) == 2


def test_a_503s_retry_after_is_capped_and_each_wait_is_one_line() -> None:
    clock, said = FakeClock(), []
    with serving(_busy_then_ok([2], refusal=503)) as server:
        answer = _client(clock, said).request(f"{server.base_url}/x", "GET /x")
    assert answer.body == b"ok" and clock.sleeps == [RETRY_AFTER_CAP, RETRY_AFTER_CAP]
    assert said == [
        f"Svc answered 503 to GET /x: waiting 120 s (its Retry-After 3600 s, capped) before try {n}"
        " of 4"
        for n in (2, 3)
    ]


def test_rate_limits_run_out_in_one_sentence() -> None:
    clock, said = FakeClock(), []
    with serving(_busy_then_ok([99])) as server, pytest.raises(DataError) as raised:
        _client(clock, said, tries=3).request(f"{server.base_url}/x", "GET /x")
    assert str(raised.value).startswith(
        f"Svc answered 429 to GET /x {MAX_RATE_LIMITED} times; nothing was cached"
    )
    assert "SVC_BASE" in str(raised.value) and len(said) == MAX_RATE_LIMITED - 1
    assert sum(clock.sleeps) >= (MAX_RATE_LIMITED - 1) * 3600  # hours of windows, not minutes


def test_an_unreachable_host_names_the_service_url_and_variable() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens
    with pytest.raises(DataError, match=r"^cannot reach Svc at http://127\.0\.0\.1:\d+/x \("):
        _client(FakeClock(), []).request(f"http://127.0.0.1:{port}/x?q=1", "GET /x")


def test_a_local_server_stops_by_itself() -> None:
    server = LocalServer(_busy_then_ok([0]), lifetime=0.05).start()
    assert server.stopped(timeout=30)  # the lifetime's timer stops it


def _cut_then_ok(cut: list[int]) -> type[BaseHTTPRequestHandler]:
    """Answers promising 10 bytes and sending 3, then closing, ``cut[0]`` times; then ``ok``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            short = cut[0] > 0
            cut[0] -= 1
            self.send_response(200)
            self.send_header("Content-Length", "10" if short else "2")
            self.end_headers()
            self.wfile.write(b'{"a' if short else b"ok")
            self.close_connection = True

        def log_message(self, *args: object) -> None:
            pass

    return Handler


def test_a_body_cut_mid_way_is_retried_like_a_timeout() -> None:
    clock, said = FakeClock(), []
    with serving(_cut_then_ok([2])) as server:
        client = _client(clock, said)
        answer = client.request(f"{server.base_url}/x", "GET /x")
    assert answer.body == b"ok"
    assert said == [
        f"Svc cut its answer short to GET /x: waiting {wait:g} s before try {n} of 4"
        for wait, n in ((1, 2), (2, 3))
    ]
    assert client.counts.retried_by_status == {"cut short": 2}


def test_bodies_cut_every_time_end_in_one_sentence() -> None:
    clock, said = FakeClock(), []
    with serving(_cut_then_ok([9])) as server, pytest.raises(DataError) as raised:
        _client(clock, said, tries=3).request(f"{server.base_url}/x", "GET /x")
    assert str(raised.value).startswith(
        "Svc answered a truncated body to GET /x 3 times; nothing was cached"
    )
