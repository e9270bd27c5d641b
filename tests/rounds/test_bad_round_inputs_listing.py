"""Issue 52 (items 4, 5, 7): an OpenReview listing cut short before its count, with duplicate
notes (read once, the first listing, and reported by open, resolve and the builder, which share
the listing reader), with future-dated or over-long submissions, or a list-valued primary area."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import pytest
from fake_openreview import serving
from fake_openreview_clock import ClockedOpenReview, ClockedPaper, clocked_venue
from openreview_round import T0, T2, papers

from research_taste.builders.openreview.builder import read_venue
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste_evals.core.data import DataError

DAY = dt.timedelta(days=1)


def test_a_listing_cut_short_of_its_count_is_one_sentence(tmp_path: Path) -> None:
    venue = clocked_venue(lambda: T0)
    venue.papers, venue.cut_at = papers(), 3
    with serving(venue), pytest.raises(DataError) as raised:
        open_openreview(venue.venue, tmp_path / "r", base_url=venue.base_url, now=lambda: T0,
                        page_size=2, pdfs=False, min_interval=0)  # fmt: skip
    assert f"listed 3 submissions of {venue.venue} but its count is 10" in str(raised.value)
    assert not (tmp_path / "r" / "round.json").exists()


def _listing_a_note_twice(venue: ClockedOpenReview) -> None:
    """Every page of ``venue``'s listing ends with its first note again, without its replies:
    a reader that kept the second listing would see that paper unreviewed."""
    original = venue.answer

    def with_a_duplicate(path: str, params: dict[str, str], auth: str = "") -> tuple:
        status, kind, body = original(path, params, auth)
        if path == "/notes" and b'"notes"' in body:
            page = json.loads(body)
            again = {**page["notes"][0], "details": {"replies": []}}
            page["notes"] = page["notes"] + [again]
            page["count"] = page.get("count", 0) + 1
            body = json.dumps(page).encode()
        return status, kind, body

    venue.answer = with_a_duplicate  # type: ignore[method-assign]


def test_duplicate_future_and_over_long_submissions_are_left_out_and_counted(
    tmp_path: Path,
) -> None:
    clock = {"now": T0}
    venue = clocked_venue(lambda: clock["now"])
    listed = papers()
    first = listed[0]
    future = dt.datetime(2031, 1, 1, tzinfo=dt.UTC)
    listed += [
        ClockedPaper("q1", 11, "From the future", "An abstract.", future),
        ClockedPaper("q2", 12, "x" * 200_000, "An abstract.", first.submitted),
    ]
    venue.papers = listed
    _listing_a_note_twice(venue)
    with serving(venue):
        manifest = open_openreview(venue.venue, tmp_path / "r", base_url=venue.base_url,
                                   now=lambda: T0 + DAY, pdfs=False)  # fmt: skip
        left = manifest["counts"]["left_out"]
        assert left["duplicate"] == 1 and left["future_date"] == 1 and left["title_too_long"] == 1
        assert manifest["counts"]["duplicate_notes"] == [first.paper_id]
        assert manifest["items"] == 8

        # resolve reads the same listing reader: the first listing, with its reviews, is kept
        clock["now"] = T2
        entry = resolve_openreview(tmp_path / "r", now=lambda: T2, min_interval=0)
    assert entry["duplicate_notes"] == [first.paper_id]
    with (tmp_path / "r" / entry["file"]).open(encoding="utf-8") as handle:
        rows = {row["item_id"]: row for row in csv.DictReader(handle)}
    assert rows[first.paper_id]["status"] == "reviewed" and rows[first.paper_id]["label"] != ""


def test_the_builder_drops_a_note_listed_twice_by_its_id(tmp_path: Path) -> None:
    venue = clocked_venue(lambda: T2)
    venue.papers = papers()
    _listing_a_note_twice(venue)
    with serving(venue):
        screened = read_venue(venue.venue, tmp_path / "cache", base_url=venue.base_url)
    first = venue.papers[0].paper_id
    assert screened.dropped["duplicate"] == [first]
    assert [paper.paper_id for paper in screened.kept].count(first) == 1
    assert next(p for p in screened.kept if p.paper_id == first).reviews  # its first listing


def test_a_list_valued_primary_area_is_grouped_by_its_first_choice(tmp_path: Path) -> None:
    venue = clocked_venue(lambda: T0)
    venue.papers = papers()
    original = venue.answer

    def listed_areas(path: str, params: dict[str, str], auth: str = "") -> tuple:
        status, kind, body = original(path, params, auth)
        if path == "/notes" and b'"notes"' in body:
            page = json.loads(body)
            for note in page["notes"]:
                note["content"]["primary_area"] = {"value": ["optimization", "theory"]}
            body = json.dumps(page).encode()
        return status, kind, body

    venue.answer = listed_areas  # type: ignore[method-assign]
    with serving(venue):
        open_openreview(
            venue.venue, tmp_path / "r", base_url=venue.base_url, now=lambda: T0 + DAY, pdfs=False
        )
    with (tmp_path / "r" / "items.csv").open(encoding="utf-8") as handle:
        assert {row["group"] for row in csv.DictReader(handle)} == {"optimization"}
