"""Issue 42's held-out inputs for ``tastybench build``: a cutoff with no day after it, citing
papers dated after the fetch date, a failed build's folder, and a malformed arXiv id in the
abstract fallback."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import fake_graph_api
import pytest
from arxiv_server import ArxivServer
from fake_graph_api import FETCH_DATE, WINDOW, FakeClock, FakeGraphApi

from research_taste.builders import http
from research_taste.builders.semantic_scholar import SemanticScholar
from research_taste.builders.tastybench_papers import dated_citations, velocity_of
from research_taste.builders.tastybench_set import SetRequest, build
from research_taste.cli import main

REQUEST = SetRequest(
    "reinforcement learning llm", dt.date(2025, 7, 1), dt.date(2025, 9, 30), min_citations=20
)
ARGS = ["tastybench", "build", "--query", "rl llm", "--no-progress"]


def _client(api: FakeGraphApi, out: Path, clock: FakeClock) -> SemanticScholar:
    today = dt.date.fromisoformat(FETCH_DATE)
    return SemanticScholar(out / "cache", base_url=api.base_url, clock=clock, today=lambda: today)


def test_after_the_last_day_is_one_sentence_and_exit_2(
    fake_api: FakeGraphApi,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    assert main([*ARGS, "--after", "9999-12-31", "--out", str(tmp_path / "set")]) == 2
    error = capsys.readouterr().err
    assert "--after '9999-12-31' leaves no day after it" in error
    assert error.count("\n") == 1 and "Traceback" not in error
    assert fake_api.requests == [] and not (tmp_path / "set").exists()


def test_citing_papers_dated_2030_give_no_velocity_never_zero(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fetch = dt.date.fromisoformat(FETCH_DATE)
    assert dated_citations(["2030-01-01", "2025-10-01", None], fetch) == (
        [dt.date(2025, 10, 1)],
        1,
        1,
    )
    for paper_id, listed in fake_graph_api.CITATIONS.items():
        monkeypatch.setitem(fake_graph_api.CITATIONS, paper_id, ["2030-06-01"] * len(listed))
    out = tmp_path / "set"
    report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert report["kept"] == 4
    assert sorted(report["papers_without_velocity"]) == ["KEEP-A", "KEEP-B", "KEEP-C", "KEEP-K"]
    assert all(
        "dated after the fetch date" in note for note in report["papers_without_velocity"].values()
    )
    assert report["future_dated_citations_left_out"] == 25 + 20 + 35 + 22
    velocity, note = velocity_of(["2025-08-01", "2025-09-01"], [0, 0], fetch, 4, 0, 4, 4)
    assert velocity is None and "4 of 4" in note


def test_a_failed_build_leaves_no_folder_it_created_and_keeps_one_it_did_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("S2_API_BASE", "http://127.0.0.1:9/graph/v1")  # nothing listens
    monkeypatch.setattr(http, "_sleep", lambda seconds: None)
    window = ["--from", WINDOW[0], "--to", WINDOW[1]]
    assert main([*ARGS, *window, "--out", str(tmp_path / "new" / "set")]) == 2
    assert "cannot reach Semantic Scholar" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()  # both folders were the build's: removed
    mine = tmp_path / "mine"
    mine.mkdir()
    assert main([*ARGS, *window, "--out", str(mine)]) == 2
    assert mine.is_dir() and not any(mine.iterdir())  # the user's folder stays


def test_a_malformed_arxiv_id_drops_one_paper_and_the_build_completes(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad = {**fake_graph_api.ARXIV_PAPER, "externalIds": {"ArXiv": "2508.0123x"}}
    monkeypatch.setattr(fake_graph_api, "ARXIV_PAPER", bad)
    fake_api.arxiv_paper = True
    out = tmp_path / "set"
    with ArxivServer([]) as server:
        monkeypatch.setenv("ARXIV_API_BASE", server.api)
        report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert report["kept"] == 4
    assert report["dropped_ids"]["no_abstract_arxiv_id_dropped"] == ["FROM-ARXIV"]
    assert "not an arXiv identifier" in report["arxiv_ids_dropped"]["2508.0123x"]
    assert server.counts.api == 0  # refused before asking
