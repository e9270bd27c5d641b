"""``research-taste openreview build`` from the command line: output, and one sentence with a
non-zero exit for a bad answer, a missing network and bad flags, with nothing cached."""

from __future__ import annotations

import datetime as dt
import socket
from pathlib import Path

import pytest
from fake_graph_api import FakeClock
from fake_openreview import FETCH_DATE, FakeOpenReview

from research_taste.cli import main


@pytest.fixture
def env(
    iclr: FakeOpenReview, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> FakeOpenReview:
    monkeypatch.setenv("OPENREVIEW_API_BASE", iclr.base_url)
    return iclr


def _argv(out: Path, *extra: str) -> list[str]:
    venue = ["--venue", "ICLR.cc/2026/Conference", "--out", str(out), "--no-progress"]
    return ["openreview", "build", *venue, "--page-size", "3", *extra]


def test_build_prints_counts_and_the_commands(
    env: FakeOpenReview, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_argv(tmp_path / "set")) == 0
    printed = capsys.readouterr().out
    assert "5 submissions of ICLR.cc/2026/Conference" in printed
    assert "desk_rejected 1, withdrawn 1" in printed
    assert "PaperWeakness: 4 papers; left out: pdf_missing 1" in printed
    assert "-T prompt=reviews -T schedule=matched" in printed
    assert (tmp_path / "set" / "build_report.json").is_file()
    assert dt.date.fromisoformat(FETCH_DATE)  # the fixture's date is a real day


def test_bad_body_is_one_sentence_and_nothing_is_cached(
    env: FakeOpenReview, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env.bad_body = True
    assert main(_argv(tmp_path / "bad")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "not a JSON object holding a 'notes' list" in err and "OPENREVIEW_API_BASE" in err
    assert not [p for p in (tmp_path / "bad").rglob("*") if p.is_file()]


def test_missing_network_names_the_base_url_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("OPENREVIEW_API_BASE", f"http://127.0.0.1:{port}")
    assert main(_argv(tmp_path / "offline")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "cannot reach OpenReview at" in err and "set OPENREVIEW_API_BASE" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--after", "2025-13"], "--after '2025-13' is not a month"),
        (["--page-size", "0"], "--page-size must be 1..1000"),
    ],
)
def test_bad_flags_are_one_sentence(
    env: FakeOpenReview,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    assert main(_argv(tmp_path / "flags", *extra)) == 2
    assert message in capsys.readouterr().err
    assert env.requests == []


def test_out_holding_foreign_files_is_refused(
    env: FakeOpenReview, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    assert main(_argv(out)) == 2
    assert "holds files this builder did not write (notes.txt)" in capsys.readouterr().err
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"
