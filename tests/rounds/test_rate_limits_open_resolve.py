"""Issue 59, item 1, done-when: on a fake OpenReview that keeps a request window and a PDF
budget with 429 bodies and no Retry-After, `round open --max-items 400` and two nightly resolves
finish unattended (a shared fake clock: no test sleeps), every sampled item labelled, no request
sent before an announced reset, the printed estimates within 25% of the requests made, and the
second resolve asking no review's edits again."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from fake_big_venue import VENUE, reviews_of
from fake_openreview import serving
from fake_rate_limited import RateLimitedVenue, SharedClock, rate_limited_venue

from research_taste.builders.limits import OPENREVIEW, OPENREVIEW_PDFS
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.progress import Fetching
from research_taste_evals.core.data import read_csv
from research_taste_evals.core.rounds import load_round

pytestmark = pytest.mark.slow

SIZE = 1_000  # submissions: 5 listing pages of 200
OPENED = dt.datetime(2025, 10, 1, 12, tzinfo=dt.UTC)
NIGHT_1 = OPENED + dt.timedelta(days=50)
NIGHT_2 = NIGHT_1 + dt.timedelta(days=1)
ESTIMATE = re.compile(r"about ([\d,]+) requests")


def _estimates(lines: list[str]) -> list[int]:
    return [int(m.group(1).replace(",", "")) for line in lines if (m := ESTIMATE.search(line))]


def _near(estimate: int, made: int) -> bool:
    return abs(estimate - made) <= 0.25 * made


def _no_request_before_a_reset(venue: RateLimitedVenue) -> None:
    for refused_at, reset in venue.resets:
        early = [t for t, *_ in venue.sent if refused_at < t < reset]
        assert not early, f"{len(early)} requests between a 429 at {refused_at} and its reset"


def _within_budget(venue: RateLimitedVenue, path: str | None, budget: int, window: float) -> None:
    """No ``window`` seconds hold more than ``budget`` of the client's requests (``path``: of
    that path only)."""
    times = [t for t, p, *_ in venue.sent if path is None or p == path]
    for i, start in enumerate(times):
        assert sum(1 for t in times[i:] if t < start + window) <= budget


def _run(venue: RateLimitedVenue, clock: SharedClock, lines: list[str]) -> Fetching:
    return Fetching(clock=clock, sleep=clock.sleep, say=lines.append)


def test_open_and_two_nightly_resolves_keep_the_limits(tmp_path: Path) -> None:
    clock = SharedClock()
    venue = rate_limited_venue(SIZE, clock)
    folder = tmp_path / "round"
    with serving(venue):
        lines: list[str] = []
        manifest = open_openreview(
            VENUE, folder, base_url=venue.base_url, now=lambda: OPENED, max_items=400,
            fetching=_run(venue, clock, lines),
        )  # fmt: skip
        assert manifest["items"] == 400
        assert len(manifest["weakness_sha256"]) == 64 and venue.resets  # PDFs read, 429s met
        opened = len(venue.sent)
        [estimate] = _estimates(lines)
        assert _near(estimate, opened), (estimate, opened, lines[0])
        assert "36 per 1 h" in lines[0] and "90 per 30 min" in lines[0]
        waits = [line for line in lines if "answered 429 (rate limit)" in line]
        assert waits and all("until its window resets, until 2025-" in w for w in waits)
        assert all("Ctrl-C stops, and the same command resumes" in w for w in waits)

        venue.reviewed = True
        lines.clear()
        first = len(venue.sent)
        entry = resolve_openreview(folder, now=lambda: NIGHT_1, fetching=_run(venue, clock, lines))
        asked = venue.sent[first:]
        edits = [key for _, path, key, status in asked if path == "/notes/edits"]
        sampled = [item.item_id for item in load_round(folder).items]
        assert len(set(edits)) == sum(reviews_of(int(i[1:])) for i in sampled)
        guess, exact = _estimates(lines)[:2]
        assert _near(guess, len(asked)) and _near(exact, len(asked) - 5), (lines, len(asked))
        assert entry["labelled_share"] == 1.0 and entry["pending_items"] == 0

        venue.decided = True
        lines.clear()
        second = len(venue.sent)
        entry = resolve_openreview(folder, now=lambda: NIGHT_2, fetching=_run(venue, clock, lines))
        again = venue.sent[second:]
        assert not [key for _, path, key, _ in again if path == "/notes/edits"]
        assert _near(_estimates(lines)[0], len(again)), (lines, len(again))
        rows = read_csv(folder / entry["file"])
        assert all(row["label"] and row["status"] == "decided" for row in rows)
        assert entry["labelled_share"] == 1.0 and len(rows) == 400
    _no_request_before_a_reset(venue)
    _within_budget(venue, None, OPENREVIEW.requests, OPENREVIEW.seconds)
    _within_budget(venue, "/pdf", OPENREVIEW_PDFS.requests, OPENREVIEW_PDFS.seconds)
    assert not [t for t in clock.sleeps if t < 0]


def test_a_third_resolve_asks_nothing_about_final_items(tmp_path: Path) -> None:
    """Decided items in the previous version keep their row: nothing about them is asked."""
    clock = SharedClock()
    venue = rate_limited_venue(60, clock)
    folder, lines = tmp_path / "round", []
    with serving(venue):
        open_openreview(
            VENUE, folder, base_url=venue.base_url, now=lambda: OPENED, max_items=20, pdfs=False,
            fetching=_run(venue, clock, lines),
        )  # fmt: skip
        venue.reviewed = venue.decided = True
        first = resolve_openreview(folder, now=lambda: NIGHT_1, fetching=_run(venue, clock, lines))
        (folder / "cache" / "reviews").rename(tmp_path / "reviews-moved")  # nothing kept now
        start = len(venue.sent)
        again = resolve_openreview(folder, now=lambda: NIGHT_2, fetching=_run(venue, clock, lines))
    assert not [p for _, p, *_ in venue.sent[start:] if p == "/notes/edits"]
    assert again["carried_final"] == 20
    assert read_csv(folder / again["file"]) == [{**row} for row in read_csv(folder / first["file"])]
