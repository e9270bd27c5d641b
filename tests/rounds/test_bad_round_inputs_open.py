"""Issue 52 (items 4, 5, 7): ``round open``'s bad inputs end in one sentence naming the argument
(before any request), or the item is left out and counted with its reason in round.json."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from arxiv_round_fakes import OPENED, PAPERS, entry, paged_listing

from research_taste.cli import USAGE_ERROR_EXIT, main
from research_taste.rounds.arxiv import due_date, open_arxiv
from research_taste.rounds.checks import MAX_WINDOW_MONTHS
from research_taste_evals.core.data import DataError


def _one_error_line(capsys: pytest.CaptureFixture[str], *fragments: str) -> str:
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("research-taste round: error: "), lines[0]
    assert all(fragment in lines[0] for fragment in fragments), lines[0]
    return lines[0]


def _arxiv_open(out: Path, *flags: str) -> list[str]:
    return ["round", "open", "--source", "arxiv", "--category", "cs.LG", "--out", str(out), *flags]


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--days", "1000000"), "--days 1000000: a whole number from 1 to"),
        (("--days", "-1"), "--days -1: a whole number from 1 to"),
        (("--window-months", "-2"), "--window-months -2: a whole number from 1 to"),
        (("--window-months", "0"), "--window-months 0: a whole number from 1 to"),
        (("--window-months", "100000"), "--window-months 100000: a whole number from 1 to"),
        # past the 60-week citation series: an IndexError traceback in due_date before
        (("--window-months", "24"), "--window-months 24: a whole number from 1 to 13 (the"),
        (("--window-months", "14"), "--window-months 14: a whole number from 1 to 13 (the"),
        (("--judge-days", "1000000"), "--judge-days 1000000: a whole number from 1 to"),
    ],
)
def test_an_out_of_range_arxiv_argument_is_one_sentence_before_any_request(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    flags: tuple[str, ...],
    named: str,
) -> None:
    with paged_listing() as (base, asked):
        monkeypatch.setenv("ARXIV_API_BASE", base)
        assert main(_arxiv_open(tmp_path / "r", *flags)) == USAGE_ERROR_EXIT
    _one_error_line(capsys, named)
    assert asked == [] and not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--source", "arxiv", "--category", "cs.LG", "--venue", "TMLR"], "--venue: a --source "),
        (["--source", "arxiv", "--category", "cs.LG", "--no-pdfs"], "--no-pdfs: a --source "),
        (["--source", "arxiv", "--category", "cs.LG", "--max-items", "5"], "--max-items: a --"),
        (["--source", "arxiv", "--category", "cs.LG", "--seed", "3"], "--seed: a --source "),
        (["--venue", "TMLR", "--days", "3"], "--days: a --source arxiv option"),
        (["--venue", "TMLR", "--window-months", "3"], "--window-months: a --source arxiv"),
        (["--venue", "TMLR", "--category", "cs.LG"], "--category: a --source arxiv option"),
        (["--venue", "TMLR", "--seed", "3"], "--seed: the seed of the --max-items sample"),
    ],
)
def test_an_option_that_would_do_nothing_for_the_source_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    named: str,
) -> None:
    """Another source's option (or ``--seed`` without ``--max-items``) would be ignored: the
    user asked for something the round would not have. One sentence, before any request."""
    for variable in ("ARXIV_API_BASE", "OPENREVIEW_API_BASE"):
        monkeypatch.setenv(variable, "http://127.0.0.1:9")  # a request would say "cannot reach"
    out = tmp_path / "r"
    assert main(["round", "open", *argv, "--out", str(out)]) == USAGE_ERROR_EXIT
    _one_error_line(capsys, named)
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--source", "arxiv", "--category", "cs LG"], "--category 'cs LG': not an arXiv category"),
        (["--source", "arxiv", "--category", "LG.cs"], "--category 'LG.cs': not an arXiv category"),
        (["--source", "arxiv", "--category", "nonsense"], "'nonsense' is not an arXiv archive"),
        (["--source", "arxiv", "--category", "lg.CS"], "'lg' is not an arXiv archive"),
        (["--venue", "ICLR.cc/2027/Conference/-/Submission"], "an invitation id, not a venue id"),
        (["--venue", "ICLR 2027"], "--venue 'ICLR 2027': not an OpenReview venue id"),
    ],
)
def test_a_malformed_category_or_venue_id_is_refused_with_a_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    out = tmp_path / "r"
    assert main(["round", "open", *argv, "--out", str(out)]) == USAGE_ERROR_EXIT
    line = _one_error_line(capsys, named)
    if "invitation" in named:
        assert "'ICLR.cc/2027/Conference'" in line  # the hint: the venue id it holds
    assert not out.exists()


def test_an_out_that_is_a_file_under_a_file_or_holds_files_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "items.csv"
    afile.write_text("the user's own file\n")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "items.csv").write_text("the user's own items\n")
    for out, named in (
        (afile, "a file, not a folder"),
        (afile / "r", "cannot be written"),
        (mine, "not empty (holds items.csv)"),
    ):
        assert main(_arxiv_open(out)) == USAGE_ERROR_EXIT
        _one_error_line(capsys, f"--out {out}", named)
    assert afile.read_text() == "the user's own file\n"
    assert (mine / "items.csv").read_text() == "the user's own items\n"
    assert sorted(p.name for p in mine.iterdir()) == ["items.csv"]


def test_an_unwritable_out_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)  # a read-only disk, even for root
    assert main(_arxiv_open(tmp_path / "r")) == USAGE_ERROR_EXIT
    _one_error_line(capsys, f"--out {tmp_path / 'r'}: cannot be written (Permission denied)")


def test_a_resume_cache_of_another_query_is_not_written_into(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    with paged_listing(fail_once_at=0) as (base, _):
        with pytest.raises(DataError, match="answered 400"):
            open_arxiv("cs.LG", 7, folder, base_url=base, now=lambda: OPENED)
        with pytest.raises(DataError, match=f"--out {folder}: not empty"):
            open_arxiv("cs.CL", 7, folder, base_url=base, now=lambda: OPENED)
        manifest = open_arxiv("cs.LG", 7, folder, base_url=base, now=lambda: OPENED)
        assert manifest["items"] == len(PAPERS)
        # The same open again into the finished round: it said "not empty (holds cache/open/...)"
        before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
        with pytest.raises(DataError) as error:
            open_arxiv("cs.LG", 7, folder, base_url=base, now=lambda: OPENED)
    message = str(error.value)
    assert message.startswith(f"--out {folder}: already holds an opened round (its round.json)")
    assert f"research-taste round resolve {folder}" in message
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before


LONG = "x" * 200_000
BAD_ENTRIES = (
    entry("9901.00001", "2099-01-02"),  # a duplicate of a paper on an earlier page
    entry("9901.00011", "yesterday"),
    entry("9901.00012", "2100-01-01"),  # after the open: a clock error upstream
    entry("9901.00013", "2099-01-05", title=""),
    entry("9901.00014", "2099-01-05", title=LONG),
    entry("9901.00015", "2099-01-05", abstract=LONG),
)


def test_bad_listing_entries_are_left_out_and_counted(tmp_path: Path) -> None:
    with paged_listing(extra=BAD_ENTRIES) as (base, _):
        manifest = open_arxiv(
            "cs.LG", 7, tmp_path / "r", base_url=base, now=lambda: OPENED, page_size=3
        )
    assert manifest["items"] == len(PAPERS)
    assert manifest["counts"]["left_out"] == {
        "outside_dates_or_no_abstract": 1,
        "duplicate": 1,
        "unparseable_date": 1,
        "future_date": 1,
        "no_title": 1,
        "title_too_long": 1,
        "abstract_too_long": 1,
    }
    assert max(len(line) for line in (tmp_path / "r" / "items.csv").open()) < 1_000


def test_a_listing_that_ignores_start_stops_in_one_sentence(tmp_path: Path) -> None:
    same = "answered start=2 with the same papers"
    with (
        paged_listing(ignore_start=True) as (base, asked),
        pytest.raises(DataError, match=same) as raised,
    ):
        open_arxiv("cs.LG", 7, tmp_path / "r", base_url=base, now=lambda: OPENED, page_size=2)
    assert asked == [0, 2] and len(str(raised.value).splitlines()) == 1


def test_papers_whose_labels_are_due_are_left_out_and_no_pairs_says_why(tmp_path: Path) -> None:
    old = tuple(entry(f"9701.0000{i}", f"2097-0{i}-01") for i in range(1, 5))
    with paged_listing(extra=old) as (base, _), pytest.raises(DataError) as raised:
        open_arxiv("cs.LG", 700, tmp_path / "r", base_url=base, now=lambda: OPENED + _DAYS_LATER)
    message = str(raised.value)
    assert "no two of them can be paired" in message and "label_due" in message, message
    assert not (tmp_path / "r" / "round.json").exists()


_DAYS_LATER = dt.timedelta(days=400)  # every listed paper is past its 6-month window


def test_every_window_the_checks_allow_has_a_due_date_for_every_publication_day() -> None:
    # The bound is the fewest month starts the 60-week series holds after any day; one more
    # month fails for some day (before, --window-months 24 was an IndexError in due_date).
    days = [dt.date(2023, 1, 1) + dt.timedelta(days=n) for n in range(731)]
    for day in days:
        assert due_date(day, MAX_WINDOW_MONTHS) > day
    with pytest.raises(IndexError):
        for day in days:
            due_date(day, MAX_WINDOW_MONTHS + 1)
