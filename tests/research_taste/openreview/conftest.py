"""Fixtures: the fake OpenReview API (tests/support/fake_openreview.py) serving a recorded-style
venue, its PDFs, and a fake clock for pacing and backoff."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_graph_api import FakeClock
from fake_openreview import BROKEN_PDF, FETCH_DATE, FakeOpenReview, make_pdf, serving, venue_notes

from research_taste.builders import http
from research_taste.builders.openreview.builder import build
from research_taste.builders.openreview.client import OpenReviewClient
from research_taste.builders.openreview.venue import VenueRequest

PAGE = 3  # submissions per request in the tests: the ICLR fixture's 7 notes take 3 pages


def paper_pdf(title: str, words: int = 40) -> bytes:
    """A readable PDF for ``title``: the title then ``words`` numbered filler words."""
    filler = " ".join(f"w{index}" for index in range(words))
    return make_pdf([title, "Abstract", filler[:400], "1 Introduction", filler[400:800]])


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    clock = FakeClock()
    monkeypatch.setattr(http, "_sleep", clock.sleep)
    return clock


def _api(name: str, broken: set[str], missing: set[str]) -> FakeOpenReview:
    venue, notes = venue_notes(name)
    pdfs = {
        note["id"]: BROKEN_PDF
        if note["id"] in broken
        else paper_pdf(note["content"]["title"]["value"])
        for note in notes
        if note["id"] not in missing
    }
    return FakeOpenReview(venue=venue, notes=notes, pdfs=pdfs)


@pytest.fixture
def iclr() -> Iterator[FakeOpenReview]:
    """ICLR 2026-style venue: one 429 on the second page and one on a PDF; Ab5's PDF is missing."""
    api = _api("iclr2026", broken=set(), missing={"Ab5GnR2w8j"})
    api.throttle = {"/notes?3": 1, "/pdf?Ab3GnM5t1k": 1}
    with serving(api):
        yield api


@pytest.fixture
def heldout() -> Iterator[FakeOpenReview]:
    """A venue with another review form, two withdrawn papers and a PDF that fails to parse."""
    with serving(_api("heldout_venue", broken={"Bx5pF7"}, missing=set())) as api:
        yield api


@pytest.fixture
def run_build(fake_clock: FakeClock) -> Callable[..., dict]:
    """Build ``api``'s venue into ``out`` with the fake clock; returns the report."""

    def run(
        api: FakeOpenReview, out: Path, notices: list[str] | None = None, **request: object
    ) -> dict:
        client = OpenReviewClient(
            out / "cache",
            base_url=api.base_url,
            clock=fake_clock,
            today=lambda: dt.date.fromisoformat(FETCH_DATE),
            notice=(notices.append if notices is not None else lambda line: None),
        )
        options = {"page_size": PAGE, **request}
        return build(VenueRequest(api.venue, **options), out, client, progress=False)  # type: ignore[arg-type]

    return run
