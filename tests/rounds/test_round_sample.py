"""Issue 51, item 2: a round on a venue of 20,000 submissions (3-5 reviews each) opens on a
seeded, label-blind, stratified sample and resolves within its request budget."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import pytest
from fake_big_venue import AREAS, SIZE, VENUE, big_venue, reviews_of
from fake_openreview import serving
from fake_rate_limited import SharedClock

from research_taste.builders.openreview.venue import PAGE_SIZE
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.progress import Fetching
from research_taste.rounds.sample import draw_sample
from research_taste_evals.core.rounds import RoundItem, load_round

pytestmark = pytest.mark.slow

OPENED = dt.datetime(2025, 10, 1, 12, tzinfo=dt.UTC)
FORM_REQUESTS = 3  # GET /invitations: Official_Review, Review, Decision (rounds/plan.py)


def _paths(requests: list[dict[str, str]]) -> list[str]:
    return [request["path"] for request in requests]


def test_sampled_round_keeps_its_request_budget(tmp_path: Path) -> None:
    venue = big_venue()
    folder = tmp_path / "big"
    pages = math.ceil(SIZE / PAGE_SIZE)
    clock = SharedClock()  # the budget's waits (builders/limits.py) pass on a fake clock
    fetching = Fetching(clock=clock, sleep=clock.sleep, say=lambda line: None)
    with serving(venue):
        manifest = open_openreview(
            VENUE,
            folder,
            base_url=venue.base_url,
            now=lambda: OPENED,
            pdfs=False,
            max_items=400,
            min_interval=0.0,
            fetching=fetching,
        )
        opened = _paths(venue.requests)
        assert opened.count("/notes") == pages
        assert opened.count("/invitations") == FORM_REQUESTS
        assert len(opened) == pages + FORM_REQUESTS  # no PDF, no review, nothing else
        sample = manifest["sample"]
        assert (sample["population"], sample["drawn"], sample["max_items"]) == (SIZE, 400, 400)
        assert sample["seed"] == 20261201
        # stratified by primary area: each area's share of the sample is its share of the venue
        assert sample["strata"] == {
            area: [round(share * SIZE), round(share * 400)] for area, share in AREAS
        }
        sampled = [item.item_id for item in load_round(folder).items]
        assert len(sampled) == manifest["items"] == 400

        venue.requests.clear()
        venue.reviewed = True
        later = OPENED + dt.timedelta(days=50)
        resolve_openreview(folder, now=lambda: later, min_interval=0.0, fetching=fetching)
        resolved = venue.requests
        edits = [r["note.id"] for r in resolved if r["path"] == "/notes/edits"]
        assert _paths(resolved).count("/notes") == pages
        assert {review.split("-r")[0] for review in edits} == set(sampled)
        assert len(edits) == sum(reviews_of(int(i[1:])) for i in sampled)
        assert len(resolved) == pages + len(edits)


def test_sample_is_seeded_and_label_blind() -> None:
    items = [
        RoundItem(f"p{i:03d}", "t", "2025-09-01", "a", "x" if i < 70 else "y") for i in range(100)
    ]
    first, record = draw_sample(items, 10, seed=1)
    again, _ = draw_sample(items, 10, seed=1)
    other, _ = draw_sample(items, 10, seed=2)
    assert first == again and first != other
    assert record["strata"] == {"x": [70, 7], "y": [30, 3]}
    assert [i.item_id for i in first] == sorted(i.item_id for i in first)  # listing order
    everything, whole = draw_sample(items, None)
    assert everything == items and (whole["drawn"], whole["strata"]) == (100, None)
