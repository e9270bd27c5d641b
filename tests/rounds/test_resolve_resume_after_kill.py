"""Issue 59, item 1, done-when: a resolve killed midway (Ctrl-C between two requests, from the
shared fake clock) and started again finishes without asking any answered request again; an
open killed midway resumes the same way (``cache/open``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from fake_big_venue import VENUE
from fake_openreview import serving
from fake_rate_limited import RateLimitedVenue, SharedClock, rate_limited_venue

from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.progress import Fetching
from research_taste_evals.core.data import read_csv

pytestmark = pytest.mark.slow

OPENED = dt.datetime(2025, 10, 1, 12, tzinfo=dt.UTC)
NIGHT = OPENED + dt.timedelta(days=50)


def _answered(venue: RateLimitedVenue, since: int = 0, until: int | None = None) -> list[str]:
    return [key for _, _, key, status in venue.sent[since:until] if status == 200]


def _fetching(clock: SharedClock) -> Fetching:
    return Fetching(clock=clock, sleep=clock.sleep, say=lambda line: None)


def test_a_killed_resolve_resumes_without_asking_again(tmp_path: Path) -> None:
    clock = SharedClock()
    venue = rate_limited_venue(400, clock)
    folder = tmp_path / "round"
    with serving(venue):
        open_openreview(
            VENUE, folder, base_url=venue.base_url, now=lambda: OPENED, max_items=100,
            pdfs=False, fetching=_fetching(clock),
        )  # fmt: skip
        venue.reviewed = True
        start = len(venue.sent)
        clock.kill_at = start + 250  # mid-way through the ~400 review edits
        with pytest.raises(KeyboardInterrupt):
            resolve_openreview(folder, now=lambda: NIGHT, fetching=_fetching(clock))
        killed = len(venue.sent)
        assert not list((folder / "labels").glob("*.csv"))  # no version written
        entry = resolve_openreview(folder, now=lambda: NIGHT, fetching=_fetching(clock))
    before, after = _answered(venue, start, killed), _answered(venue, killed)
    assert len(before) > 200 and after  # the kill came midway
    assert not set(before) & set(after), sorted(set(before) & set(after))[:3]
    assert len(after) == len(set(after))
    assert entry["labelled_share"] == 1.0
    rows = read_csv(folder / entry["file"])
    assert len(rows) == 100 and all(row["rating_source"] == "first_posted" for row in rows)


def test_a_killed_open_resumes_without_asking_again(tmp_path: Path) -> None:
    clock = SharedClock()
    venue = rate_limited_venue(400, clock)
    folder = tmp_path / "round"

    def open_round() -> dict:
        return open_openreview(
            VENUE, folder, base_url=venue.base_url, now=lambda: OPENED, max_items=60,
            fetching=_fetching(clock),
        )  # fmt: skip

    with serving(venue):
        clock.kill_at = 30  # past the listing and forms, among the PDFs
        with pytest.raises(KeyboardInterrupt):
            open_round()
        killed = len(venue.sent)
        manifest = open_round()
    before, after = _answered(venue, 0, killed), _answered(venue, killed)
    pdfs_before = [key for key in before if '"/pdf"' in key]
    assert pdfs_before and not set(pdfs_before) & set(after)
    assert not [key for key in after if '"/notes"' in key]  # the listing's pages were kept
    assert manifest["items"] == 60 and len(manifest["weakness_sha256"]) == 64
