"""Fixtures: the fake Graph API (tests/support/fake_graph_api.py) and a fake clock for pacing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_graph_api import FakeClock, FakeGraphApi, serving


@pytest.fixture(autouse=True)
def _generation_cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The extraction task caches generations: keep each test's cache in its tmp_path."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))


@pytest.fixture
def fake_api() -> Iterator[FakeGraphApi]:
    """The fake API on a random local port, with three 429s on the way; stopped afterwards."""
    api = FakeGraphApi(throttle={"/paper/search?4": 1, "/paper/KEEP-A/citations?10": 2})
    with serving(api):
        yield api


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The client's sleeps go to a fake clock (no test waits for pacing or backoff)."""
    from research_taste.builders import http

    clock = FakeClock()
    monkeypatch.setattr(http, "_sleep", clock.sleep)
    return clock
