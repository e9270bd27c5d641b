"""``openreview build`` against recorded-style venues: what is kept, set apart and dropped, the
labels (hand-counted), paging, 429s and the resumable cache."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_graph_api import FakeClock
from fake_openreview import FETCH_DATE, FakeOpenReview

from research_taste_evals.core.data import DataError

# Hand counts from the fixtures' reviews (tests/research_taste/openreview/fixtures/*.json).
ICLR_MEANS = {
    "Ab1RlQ7x2m": (8 + 6) / 2,
    "Ab2RlK3p9z": (4 + 2) / 2,
    "Ab3GnM5t1k": (6 + 6 + 8) / 3,
    "Ab5GnR2w8j": (4 + 4 + 2) / 3,
    "Ab7RlV6y5s": (10 + 8) / 2,
}
HELDOUT_MEANS = {"Bx1kQ9": (5 + 3) / 2, "Bx2mR4": (2 + 4) / 2, "Bx5pF7": (5 + 6) / 2}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_iclr_venue_keeps_reviewed_papers_and_sets_the_rest_apart(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    out = tmp_path / "iclr"
    report = run_build(iclr, out)
    papers = {row["paper_id"]: row for row in _rows(out / "papers.csv")}
    assert {pid: float(row["label"]) for pid, row in papers.items()} == pytest.approx(ICLR_MEANS)
    assert papers["Ab7RlV6y5s"]["decision"] == "Accept (Oral)"
    assert papers["Ab2RlK3p9z"]["decision"] == "Reject" and papers["Ab1RlQ7x2m"]["decision"] == ""
    assert papers["Ab1RlQ7x2m"]["pub_date"] == "2025-09-12"  # cdate, not the later pdate
    assert papers["Ab1RlQ7x2m"]["primary_area"] == "reinforcement learning"
    assert json.loads(papers["Ab3GnM5t1k"]["ratings"]) == [6.0, 6.0, 8.0]
    aside = {row["paper_id"]: row for row in _rows(out / "set_aside.csv")}
    assert aside["Ab4WdX8c3v"]["status"] == "withdrawn"
    assert aside["Ab4WdX8c3v"]["reason"].startswith("We thank the reviewers")
    assert aside["Ab6DkP0e4n"]["status"] == "desk_rejected"
    assert aside["Ab6DkP0e4n"]["reason"] == "The submission exceeds the 9-page limit."
    assert report["kept"] == 5 and report["dropped"] == {"desk_rejected": 1, "withdrawn": 1}
    assert report["fetch_date"] == FETCH_DATE and report["venue"] == "ICLR.cc/2026/Conference"
    assert report["licenses"] == {"CC BY 4.0": 5}
    reviews = report["reviews"]
    assert reviews["kept_papers_reviews"] == 12 and reviews["without_weaknesses"] == 1
    assert reviews["rating_fields"] == {"rating": 12}
    # 3 pages of 3 (one 429 on the second), 5 PDFs asked (one 429, one 404)
    pages = [r["offset"] for r in iclr.requests if r["path"] == "/notes"]
    assert pages == ["0", "3", "3", "6"]
    assert report["requests"]["retried_by_status"] == {"429": 2}
    assert report["requests"]["network"] == 4 + 6
    weakness = report["paper_weakness"]
    assert weakness["kept"] == 4 and weakness["dropped"] == {"pdf_missing": 1}
    record = json.loads(
        (out / weakness["folder"] / "Ab2RlK3p9z" / "data_text.json").read_text(encoding="utf-8")
    )
    assert record["submission_date"] == "2025-09-15"
    assert record["output"][1] == []  # the review without a weaknesses field: its rating counted
    assert len(record["output"][0]) == 2  # two paragraphs
    assert "Reward Hacking Detectors" in record["input"]["sections"][0]["text"]
    pairs = _rows(out / "pairs_within_area.csv")
    assert len(pairs) == 2 * (3 + 1)  # RL: 3 papers -> 3 pairs; generative models: 2 -> 1
    assert report["pairs_within_area"] == 4


def test_a_rerun_is_answered_from_the_cache(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    out = tmp_path / "iclr"
    first = run_build(iclr, out)
    asked = len(iclr.requests)
    again = run_build(iclr, out)
    # Only the PDF that answered 404 is asked again (absence is not cached: it may be uploaded)
    assert iclr.requests[asked:] == [{"path": "/pdf", "id": "Ab5GnR2w8j"}]
    assert again["requests"]["network"] == 1 and again["requests"]["cached"] == 3 + 4
    assert again["kept"] == first["kept"] and again["fetch_date"] == FETCH_DATE


def test_heldout_venue_form_withdrawals_and_a_broken_pdf(
    heldout: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    out = tmp_path / "heldout"
    report = run_build(heldout, out)
    papers = {row["paper_id"]: float(row["label"]) for row in _rows(out / "papers.csv")}
    assert papers == pytest.approx(HELDOUT_MEANS)
    assert report["dropped_ids"] == {
        "no_abstract": ["Bx7nA0"],
        "no_rated_reviews": ["Bx6nR0"],
        "withdrawn": ["Bx3wD1", "Bx4wD2"],
    }
    aside = {row["paper_id"]: row["reason"] for row in _rows(out / "set_aside.csv")}
    assert aside == {"Bx3wD1": "", "Bx4wD2": "Found a bug in the evaluation."}
    reviews = report["reviews"]
    assert reviews["rating_fields"] == {"recommendation": 6, "none": 1}
    assert reviews["weakness_fields"] == {"strengths_and_weaknesses": 6, "none": 1}
    assert reviews["without_rating"] == 1 and reviews["without_weaknesses"] == 1
    assert report["licenses"] == {"CC BY 4.0": 2, "CC BY-SA 4.0": 1}
    assert report["paper_weakness"]["dropped_ids"] == {"pdf_unparseable": ["Bx5pF7"]}
    assert report["paper_weakness"]["kept"] == 2


def test_after_keeps_only_later_submissions(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    from research_taste.builders.openreview.builder import parse_after

    report = run_build(iclr, tmp_path / "late", after=parse_after("2025-09-15"), pdfs=False)
    assert report["dropped_ids"]["not_after_cutoff"] == ["Ab1RlQ7x2m", "Ab2RlK3p9z"]
    assert report["kept"] == 3 and report["paper_weakness"]["built"] is False
    assert parse_after("2025-09").isoformat() == "2025-09-30"  # type: ignore[union-attr]
    with pytest.raises(DataError, match="--after '2025-13'"):
        parse_after("2025-13")


def test_decision_label_keeps_decided_papers_only(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    out = tmp_path / "decided"
    report = run_build(iclr, out, label="decision", pdfs=False)
    labels = {row["paper_id"]: float(row["label"]) for row in _rows(out / "papers.csv")}
    assert labels == {"Ab2RlK3p9z": 0.0, "Ab7RlV6y5s": 3.0}  # Reject, Accept (Oral)
    assert report["dropped"]["no_decision"] == 3 and report["label"] == "decision"
    iclr.notes = [note for note in iclr.notes if note["id"] != "Ab2RlK3p9z"]
    with pytest.raises(DataError, match=r"1 submissions kept \(dropped: .*no_decision 3"):
        run_build(iclr, tmp_path / "one", label="decision", pdfs=False)


def test_a_429s_retry_after_is_waited_out_with_one_line(
    iclr: FakeOpenReview, run_build: Callable[..., dict], fake_clock: FakeClock, tmp_path: Path
) -> None:
    iclr.retry_after = "3600"
    notices: list[str] = []
    run_build(iclr, tmp_path / "slow", notices=notices, pdfs=False)
    assert max(fake_clock.sleeps) >= 3600  # the window OpenReview named, not a cap
    assert len(notices) == 1 and "waiting 1 h 01 min until its window resets" in notices[0]


def test_endless_429s_give_up_in_one_sentence(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    iclr.throttle = {"/notes?0": 99}
    gave_up = r"answered 429 to GET /notes \(.*\) 12 times; nothing was cached from it: wait"
    with pytest.raises(DataError, match=gave_up):
        run_build(iclr, tmp_path / "throttled")
    assert not list((tmp_path / "throttled").rglob("*.json"))


@pytest.mark.parametrize(
    ("broken", "field"),
    [
        ({"id": 7}, "] without a string 'id'"),
        ({"id": "AA1", "content": ["not", "an", "object"]}, "] (AA1): field 'content'"),
        ({"id": "AA2", "details": {"replies": "none"}}, "] (AA2): field 'details.replies'"),
    ],
)
def test_a_malformed_note_is_one_sentence_and_nothing_is_cached(
    iclr: FakeOpenReview,
    run_build: Callable[..., dict],
    tmp_path: Path,
    broken: dict,
    field: str,
) -> None:
    iclr.notes = [iclr.notes[0], broken, *iclr.notes[2:]]
    with pytest.raises(DataError, match=re.escape(field)) as raised:
        run_build(iclr, tmp_path / "malformed")
    assert "nothing was cached" in str(raised.value)
    assert not list((tmp_path / "malformed").rglob("*.json"))
