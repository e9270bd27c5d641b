"""Issue 52 (item 5): on the journal path (TMLR) label times must be dated and not in the
future. A review with no date, or dated after the resolve, is left out and counted by reason
(``checks.ReviewCheck``, the conference path's check), as is a decision read for its time; an
item left with no label time keeps no label (pending, status ``label_time_unknown``)."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from fake_openreview import serving
from fake_tmlr import VENUE, fake_tmlr, ms
from tmlr_round import T0, T1, T2, papers

from research_taste.cli import main
from research_taste.rounds.checks import ReviewCheck
from research_taste.rounds.journal import label_row
from research_taste.rounds.manifest import utc_iso
from research_taste.rounds.openreview import open_openreview, resolve_openreview

PLAN = {"kind": "decision", "review_form": "Review", "decision_field": "recommendation"}
RESOLVED = T2 + dt.timedelta(days=1)  # q1's reviews (released at t1) and decision are public
FUTURE = dt.datetime(2200, 1, 1, tzinfo=dt.UTC)  # after the resolve: a clock error upstream
DATES = ("cdate", "tcdate", "odate")


def _q1() -> dict[str, Any]:
    [paper] = [paper for paper in papers() if paper.paper_id == "q1"]
    return paper.note(RESOLVED)


def _reviews(note: dict[str, Any]) -> list[dict[str, Any]]:
    replies = note["details"]["replies"]
    return [reply for reply in replies if str(reply["invitations"][0]).endswith("/-/Review")]


def _resolve(note: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int], int]:
    check = ReviewCheck(RESOLVED, (0.0, 10.0))
    row, weaknesses = label_row("q1", note, PLAN, T0, check)
    return row, check.left_out, len(weaknesses)


def test_undated_reviews_are_left_out_and_counted() -> None:
    note = _q1()
    assert _resolve(note)[0]["label"] == "3"  # as fetched: Accept as is, Featured
    for key in DATES:
        _reviews(note)[0].pop(key)
    row, left_out, weaknesses = _resolve(note)
    assert left_out == {"review_undated": 1}
    assert (row["reviews"], weaknesses) == (2, 2)
    assert (row["label"], row["label_time"]) == ("3", utc_iso(T1))  # the others' release

    for review in _reviews(note):
        for key in DATES:
            review.pop(key, None)
    row, left_out, weaknesses = _resolve(note)
    assert left_out == {"review_undated": 3}
    # no review left to say when the decision became likely: no label this version
    assert (row["label"], row["label_time"], row["status"]) == ("", "", "label_time_unknown")
    assert row["decision"] == "Accept as is" and weaknesses == 0


def test_future_dated_reviews_are_left_out_and_counted() -> None:
    note = _q1()
    _reviews(note)[1]["odate"] = ms(FUTURE)
    _reviews(note)[2]["cdate"] = ms(FUTURE)
    row, left_out, weaknesses = _resolve(note)
    assert left_out == {"review_dated_in_future": 2}
    assert (row["reviews"], weaknesses) == (1, 1)
    assert (row["label"], row["label_time"]) == ("3", utc_iso(T1))


def test_a_decision_giving_the_label_time_must_be_dated_and_not_in_the_future() -> None:
    note = _q1()
    note["details"]["replies"] = [r for r in note["details"]["replies"] if r not in _reviews(note)]
    [decision] = note["details"]["replies"]
    assert _resolve(note)[0]["label_time"] == utc_iso(T2)  # decided with no review public
    decision["odate"] = ms(FUTURE)
    row, left_out, _ = _resolve(note)
    assert left_out == {"decision_dated_in_future": 1}
    assert (row["label"], row["status"]) == ("", "label_time_unknown")
    for key in DATES:
        decision.pop(key, None)
    row, left_out, _ = _resolve(note)
    assert left_out == {"decision_undated": 1} and row["label"] == ""


def test_resolve_counts_them_in_the_version_entry_and_leaves_the_item_pending(
    tmp_path: Path,
) -> None:
    listed = papers()
    for review in listed[0].reviews:  # q1: written in 2200, released at t1
        review.created = FUTURE
    now = [T0]
    journal = fake_tmlr(lambda: now[0], listed)
    folder = tmp_path / "r"
    with serving(journal):
        open_openreview(VENUE, folder, base_url=journal.base_url, now=lambda: T0, pdfs=False)
        now[0] = RESOLVED
        entry = resolve_openreview(folder, now=lambda: RESOLVED, min_interval=0)
    assert entry["reviews_left_out"] == {"review_dated_in_future": 3}
    assert entry["label_time_unknown"] == 1
    with (folder / entry["file"]).open(encoding="utf-8") as handle:
        rows = {row["item_id"]: row for row in csv.DictReader(handle)}
    assert (rows["q1"]["label"], rows["q1"]["status"], rows["q1"]["dropped"]) == (
        "",
        "label_time_unknown",
        "",
    )
    assert all(rows[f"q{n}"]["label"] for n in range(2, 8))  # the other decided items


def test_a_resolve_at_the_wall_clock_refuses_reviews_dated_after_it_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fake journal's reviews are dated in 2100: to a resolve run now they are in the
    future, so none gives a label time and the command's line counts them."""
    now = [T0]
    journal = fake_tmlr(lambda: now[0], papers())
    folder = tmp_path / "r"
    with serving(journal):
        open_openreview(VENUE, folder, base_url=journal.base_url, now=lambda: T0, pdfs=False)
        now[0] = RESOLVED
        capsys.readouterr()
        assert main(["round", "resolve", str(folder)]) == 0
    line = capsys.readouterr().out.strip()
    assert "(left out: review_dated_in_future 24, 7 items pending with no label time)" in line
    manifest = json.loads((folder / "round.json").read_text(encoding="utf-8"))
    assert manifest["label_versions"][-1]["labelled_share"] == 0.0
