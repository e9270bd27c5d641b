"""Issue 42's OpenReview cases, on the inputs as the issue gives them: reinstated submissions,
decimals and header lines in weakness lists, the default ``review`` field, ratings out of
range or unreadable, submissions dated after today, ``sort=id`` paging that cannot run forever,
``--out`` checked before any request, and the optional login (a 403 without it)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_graph_api import FakeClock
from fake_openreview import TOKEN, FakeOpenReview

from research_taste.builders.openreview import forms
from research_taste.builders.openreview.builder import read_venue
from research_taste.cli import main
from research_taste_evals.core.data import DataError

REVIEW = "ICLR.cc/2026/Conference/Submission101/-/Official_Review"
MS_2031 = 1_925_000_000_000  # 2031-01-01, after any "today" of these tests


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        ({"Official_Review", "Withdrawal", "Withdrawal_Reversion"}, None),
        ({"Official_Review", "Desk_Rejection", "Desk_Rejection_Reversion"}, None),
        ({"Official_Review", "Withdrawal"}, forms.WITHDRAWN),
        ({"Desk_Rejection"}, forms.DESK_REJECTED),
    ],
)
def test_a_reinstated_submission_is_not_set_apart(kinds: set[str], expected: str | None) -> None:
    content = {"venueid": {"value": "ICLR.cc/2024/Conference/Rejected_Submission"}}
    assert forms.set_aside_status(content, kinds) == expected


def test_a_decimal_keeps_its_number_and_headers_are_no_items() -> None:
    listed = "**Weaknesses**\n1. The gain is small:\n0.3 points of FID on ImageNet.\n2. No code."
    assert forms.weakness_items(listed) == [
        "The gain is small: 0.3 points of FID on ImageNet.",
        "No code.",
    ]
    assert forms.weakness_items("Weaknesses:\n- a\n- b") == ["a", "b"]
    plain = "Weaknesses:\n\n0.3 points of FID is within noise.\n\nNo ablation."
    assert forms.weakness_items(plain) == ["0.3 points of FID is within noise.", "No ablation."]


@pytest.mark.parametrize(
    ("raw", "reason"),
    [("1e3", "unreadable"), ("7.5.1", "unreadable"), ("6/10", "unreadable"), (True, "unreadable")]
    + [([6], "unreadable"), (-3, "out_of_range"), (99, "out_of_range"), ("250", "out_of_range")],
)
def test_a_rating_unreadable_or_out_of_range_is_left_unread(raw: object, reason: str) -> None:
    assert forms.read_rating(raw) == (None, reason)
    assert forms.read_rating("6: marginally above the acceptance threshold") == (6.0, "")


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ({"review": {"value": "- a\n- b"}}, "review"),  # the default form: its one field
        ({"weaknesses": {"value": ""}, "review": {"value": "- a"}}, ""),  # a listed field exists
        ({"summary": {"value": "- a"}, "comment": {"value": "- b"}}, ""),  # never another field
    ],
)
def test_the_review_field_is_read_only_without_a_listed_field(content: dict, field: str) -> None:
    review = forms.read_review({"id": "r", "content": {"rating": {"value": 6}, **content}})
    assert review.weakness_field == field and bool(review.weaknesses) == bool(field)


def _variant(api: FakeOpenReview, new_id: str, **change: object) -> dict:
    note = copy.deepcopy(next(n for n in api.notes if n["id"] == "Ab1RlQ7x2m"))
    note["id"] = note["forum"] = new_id
    note.update(change)
    return note


def _review(review_id: str, **content: object) -> dict:
    return {
        "id": review_id,
        "invitations": [REVIEW],
        "content": {name: {"value": value} for name, value in content.items()},
    }


def test_a_real_shaped_venue_keeps_reinstated_papers_and_reports_what_it_left_out(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    reinstated = _variant(iclr, "Ac1Reinstated")
    reinstated["details"]["replies"] += [
        {"id": "w1", "invitations": ["ICLR.cc/2026/Conference/Submission101/-/Withdrawal"]},
        {"id": "w2", "invitations": [REVIEW.replace("Official_Review", "Withdrawal_Reversion")]},
    ]
    odd = _variant(iclr, "Ac2OddRatings")
    odd["details"]["replies"] = [
        _review("rv-neg", rating=-3, weaknesses="- x"),
        _review("rv-99", rating=99, weaknesses="- x"),
        _review("rv-1e3", rating="1e3", weaknesses="- x"),
        _review("rv-ok", rating="4: reject", review="Weaknesses:\n- too small\n- 0.3 points"),
    ]
    future = _variant(iclr, "Ac3Future", cdate=MS_2031, tcdate=MS_2031)
    iclr.notes += [reinstated, odd, future]
    report = run_build(iclr, tmp_path / "real", pdfs=False)
    rows = (tmp_path / "real" / "papers.csv").read_text(encoding="utf-8")
    assert "Ac1Reinstated" in rows and "Ac2OddRatings" in rows and "Ac3Future" not in rows
    assert report["dropped_ids"]["dated_after_today"] == ["Ac3Future"]
    reviews = report["reviews"]
    assert reviews["ratings_left_unread"] == {"out_of_range": 2, "unreadable": 1}
    assert reviews["ratings_left_unread_ids"] == {
        "out_of_range": ["rv-neg", "rv-99"],
        "unreadable": ["rv-1e3"],
    }
    assert (
        reviews["weaknesses_from_whole_review"] == 1
        and "'review'" in reviews["weakness_field_note"]
    )
    odd_row = next(
        r
        for r in map(json.loads, (tmp_path / "real" / "reviews.jsonl").open())
        if r["review_id"] == "rv-ok"
    )
    assert odd_row["weakness_field"] == "review"
    papers = {line.split(",")[0]: line for line in rows.splitlines()}
    assert ",4.0," in papers["Ac2OddRatings"]  # the one readable rating is the label
    assert all(r.get("sort") == "id" for r in iclr.requests if r["path"] == "/notes")


def test_a_server_ignoring_offset_stops_in_one_sentence(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    iclr.ignore_offset = True  # every page is the first, and no count
    with pytest.raises(DataError, match="all seen on earlier pages: the server ignores 'offset'"):
        run_build(iclr, tmp_path / "loop")
    assert {r["offset"] for r in iclr.requests if r["path"] == "/notes"} == {"0", "3"}
    assert [p.name for p in (tmp_path / "loop").iterdir()] == ["cache"]  # resumable, no set


@pytest.fixture
def cli(
    iclr: FakeOpenReview, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., tuple[int, str]]:
    monkeypatch.setenv("OPENREVIEW_API_BASE", iclr.base_url)
    monkeypatch.delenv("OPENREVIEW_USERNAME", raising=False)
    monkeypatch.delenv("OPENREVIEW_PASSWORD", raising=False)

    def run(out: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
        venue = ["--venue", "ICLR.cc/2026/Conference", "--out", out, "--no-progress"]
        code = main(["openreview", "build", *venue, "--skip-pdfs", *extra])
        captured = capsys.readouterr()
        return code, captured.out + captured.err

    return run


def test_an_unusable_out_is_refused_before_any_request(
    cli: Callable[..., tuple[int, str]],
    iclr: FakeOpenReview,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    afile = tmp_path / "a-file"
    afile.write_text("x")
    for out in ("/proc/x", str(afile / "sub")):
        code, said = cli(out, capsys)
        assert code == 2 and "Traceback" not in said and len(said.strip().splitlines()) == 1
        assert f"--out {out} cannot be written" in said
    assert iclr.requests == []


def test_a_403_names_the_login_variables_and_a_login_passes_it(
    cli: Callable[..., tuple[int, str]],
    iclr: FakeOpenReview,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    iclr.challenge, iclr.account = True, ("me@example.org", "pw-7")
    code, said = cli(str(tmp_path / "refused"), capsys)
    assert code == 2 and len(said.strip().splitlines()) == 1
    assert "403" in said and "OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD" in said
    assert not (tmp_path / "refused").exists()  # the failed build's empty folder is gone
    monkeypatch.setenv("OPENREVIEW_USERNAME", "me@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "pw-7")
    code, said = cli(str(tmp_path / "in"), capsys)
    assert code == 0 and TOKEN not in said and "pw-7" not in said
    written = [p.read_bytes() for p in (tmp_path / "in").rglob("*") if p.is_file()]
    assert written and not any(TOKEN.encode() in data or b"pw-7" in data for data in written)
    assert json.loads((tmp_path / "in" / "build_report.json").read_text())["logged_in"] is True
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "wrong")
    code, said = cli(str(tmp_path / "bad-login"), capsys)
    assert code == 2 and "refused the login of OPENREVIEW_USERNAME" in said and "wrong" not in said


def test_paging_forever_is_exit_2_from_the_command_line(
    cli: Callable[..., tuple[int, str]],
    iclr: FakeOpenReview,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    iclr.ignore_offset, iclr.throttle = True, {}
    code, said = cli(str(tmp_path / "loop"), capsys, "--page-size", "3")
    assert code == 2 and "the server ignores 'offset'" in said
    assert len(said.strip().splitlines()) == 1 and "Traceback" not in said


def test_a_venue_is_readable_as_records_from_a_base_url(
    iclr: FakeOpenReview, tmp_path: Path
) -> None:
    screened = read_venue(iclr.venue, tmp_path / "cache", base_url=iclr.base_url, page_size=3)
    assert len(screened.kept) == 5 and len(screened.set_aside) == 2
    assert not (tmp_path / "papers.csv").exists()


def test_half_a_login_is_one_sentence_before_any_request(
    cli: Callable[..., tuple[int, str]],
    iclr: FakeOpenReview,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENREVIEW_USERNAME", "me@example.org")
    code, said = cli(str(tmp_path / "half"), capsys)
    assert code == 2 and "OPENREVIEW_USERNAME is set but OPENREVIEW_PASSWORD is not" in said
    assert iclr.requests == [] and not (tmp_path / "half").exists()


def test_a_timestamp_past_year_9999_is_no_date_not_a_crash() -> None:
    assert forms.note_date({"cdate": 10**20}) is None
    assert (
        forms.note_date({"cdate": 10**20, "pdate": 1_757_678_400_000}).isoformat() == "2025-09-12"
    )
