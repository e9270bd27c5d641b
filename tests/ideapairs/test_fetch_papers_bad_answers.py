"""Recorded-style bad arXiv answers through ``ideapairs build --fetch-papers``: a malformed id
(HTTP 400 error feed) drops one paper and the build completes; error feeds, namespace-less
Atom, HTML pages and LaTeXML failure pages are errors, never "not found" or text; 5xx,
timeouts and empty feeds are retried and never cached; an explicit version is kept."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from arxiv_papers import HTML, _leaderboard, _recorded
from arxiv_server import ArxivServer, Recorded

from research_taste.builders.ideapairs import papers as papers_module
from research_taste.builders.ideapairs.builder import build
from research_taste.builders.ideapairs.papers import ArxivFetcher
from research_taste.cli import main
from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.pairs_schema import read_pairs

FAILURE = (  # the banner arXiv puts on a LaTeXML conversion that failed
    '<html><body><div class="ltx_page_main"><div class="ltx_document">Conversion to HTML had '
    "a Fatal error and exited abruptly. This document may be truncated or damaged.</div></div>"
    "</body></html>"
)


def _fetcher(server: ArxivServer, tmp_path: Path, said: list[str] | None = None) -> ArxivFetcher:
    fetcher = ArxivFetcher(tmp_path / "cache", pace=0.0, sleep=lambda seconds: None)
    fetcher.api, fetcher.html = server.api, server.html
    if said is not None:
        fetcher.say = said.append
    return fetcher


def _board_with(tmp_path: Path, url: str) -> Path:
    path = _leaderboard(tmp_path)
    boards = json.loads(path.read_text())
    rows = boards[0]["datasets"][0]["sota"]["rows"]
    rows.append({**rows[0], "model_name": "Bad", "paper_title": "Bad id", "paper_url": url})
    rows[-1]["metrics"] = {"Accuracy": 50.0}
    path.write_text(json.dumps(boards))
    return path


@pytest.fixture
def arxiv_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(papers_module, "PACE_SECONDS", 0.0)
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path / "cache"))

    def start(**options: Any) -> ArxivServer:
        server = ArxivServer(_recorded(), **options).__enter__()
        monkeypatch.setenv("ARXIV_API_BASE", server.api)
        monkeypatch.setenv("ARXIV_HTML_BASE", server.html)
        started.append(server)
        return server

    started: list[ArxivServer] = []
    yield start
    for server in started:
        server.__exit__(None, None, None)


def test_a_malformed_id_drops_one_paper_and_the_build_completes(
    arxiv_env: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = arxiv_env()
    board = _board_with(tmp_path, "https://arxiv.org/abs/2106.0000x7")
    out = tmp_path / "pairs.jsonl"
    argv = ["ideapairs", "build", str(board), "--out", str(out), "--no-extract"]
    assert main([*argv, "--fetch-papers", "--report", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())["papers"]
    assert list(report["arxiv_ids_dropped"]) == ["2106.0000x7"]
    assert "incorrect id format" in report["arxiv_ids_dropped"]["2106.0000x7"] or (
        "not an arXiv identifier" in report["arxiv_ids_dropped"]["2106.0000x7"]
    )
    assert "arXiv id dropped: 2106.0000x7" in capsys.readouterr().out
    assert read_pairs(out)  # the other seven papers' pairs
    dated = {i.method: i.paper_date for r in read_pairs(out) for i in (r.idea_a, r.idea_b)}
    assert dated["Alpha"] == "2021-01-15"
    assert server.counts.api == 1  # the malformed id was never sent


def test_a_400_error_feed_halves_the_batch_until_the_bad_id_is_alone(
    tmp_path: Path,
) -> None:
    ids = [f"2106.0000{i}" for i in range(7)]
    with ArxivServer(_recorded()) as server:
        fetcher = _fetcher(server, tmp_path)
        papers_module_is_id = papers_module.is_arxiv_id
        try:  # let the id past the local check, as an id arXiv alone refuses would be
            papers_module.is_arxiv_id = lambda value: True  # type: ignore[assignment]
            found = fetcher.metadata([*ids, "2106.0000!"])
        finally:
            papers_module.is_arxiv_id = papers_module_is_id  # type: ignore[assignment]
    assert sorted(found) == ids
    assert fetcher.stats.dropped == {
        "2106.0000!": "arXiv answered HTTP 400: incorrect id format for 2106.0000!"
    }
    assert "2106.0000!" not in fetcher.index  # a bad answer is not cached as "not found"


@pytest.mark.parametrize("fault", ["500", "timeout", "empty"])
def test_transient_answers_are_retried_and_not_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    monkeypatch.setattr(papers_module, "TIMEOUT_SECONDS", 0.3)
    said: list[str] = []
    with ArxivServer(_recorded(), faults=[fault, fault]) as server:
        fetcher = _fetcher(server, tmp_path, said)
        found = fetcher.metadata(["2106.00000"])
    assert found["2106.00000"]["version"] == "2106.00000v1"
    assert server.counts.api == 3 and fetcher.stats.retried == 2 and len(said) == 2


@pytest.mark.parametrize("fault", ["500", "empty"])
def test_transient_answers_every_time_are_never_cached(tmp_path: Path, fault: str) -> None:
    with ArxivServer(_recorded(), faults=[fault] * 4) as server:
        fetcher = _fetcher(server, tmp_path, [])
        if fault == "500":
            with pytest.raises(DataError, match="answered 500 to .* 4 times; nothing was cached"):
                fetcher.metadata(["2106.00000"])
        else:
            assert fetcher.metadata(["2106.00000"]) == {}
            assert fetcher.stats.unanswered == ["2106.00000"]
        assert "2106.00000" not in fetcher.index
        again = _fetcher(server, tmp_path, [])  # a later run asks again, and gets it
        assert again.metadata(["2106.00000"])["2106.00000"]["version"] == "2106.00000v1"


@pytest.mark.parametrize(
    ("fault", "message"),
    [("html", "not XML|root is <html>"), ("no-namespace", "root is <feed>, not an Atom")],
)
def test_an_answer_that_is_not_an_arxiv_feed_is_one_sentence(
    tmp_path: Path, fault: str, message: str
) -> None:
    with ArxivServer(_recorded(), faults=[fault]) as server:
        fetcher = _fetcher(server, tmp_path)
        with pytest.raises(DataError, match=message) as raised:
            fetcher.metadata(["2106.00000"])
    text = str(raised.value)
    assert "ARXIV_API_BASE" in text and "\n" not in text
    assert fetcher.index == {} and not (tmp_path / "cache" / "index.json").exists()


@pytest.mark.parametrize(
    ("page", "reason"),
    [
        (FAILURE, "LaTeXML failure page"),
        ("<html><body>Please log in</body></html>", "not a LaTeXML rendering"),
    ],
)
def test_a_page_that_is_not_a_rendering_is_no_full_text_and_not_cached(
    tmp_path: Path, page: str, reason: str
) -> None:
    paper = Recorded("2106.00000v1", "T", "An abstract.", "2021-01-15", html=page)
    with ArxivServer([paper]) as server:
        fetcher = _fetcher(server, tmp_path)
        fetcher.metadata(["2106.00000"])
        assert fetcher.full_text("2106.00000v1") == ""
        assert reason in fetcher.stats.text_errors["2106.00000v1"]
        fetcher.full_text("2106.00000v1")  # not cached: asked again
        assert server.counts.html == 2


def test_an_explicit_version_in_the_url_is_kept(arxiv_env: Any, tmp_path: Path) -> None:
    server = arxiv_env()
    path = _leaderboard(tmp_path)
    boards = json.loads(path.read_text())
    rows = boards[0]["datasets"][0]["sota"]["rows"]
    rows[1]["paper_url"] = "https://arxiv.org/abs/2106.00001v1"  # arXiv's current: v2
    rows[2]["paper_url"] = "https://arxiv.org/pdf/2106.00002v1.pdf"
    path.write_text(json.dumps(boards))
    report = build([path], tmp_path / "p.jsonl", extract=False, fetch_papers=True).report
    pinned = report["papers"]["pinned_versions"]
    assert "2106.00001v1" in pinned and "2106.00001v2" not in pinned
    assert "2106.00002v1" in pinned
    assert "/html/2106.00002v1" in server.counts.paths
    assert HTML  # the rendering served for every version of a paper


def test_an_error_entry_in_a_200_feed_drops_only_its_id(tmp_path: Path) -> None:
    ids = ["2106.00000", "2106.00001", "hep-th/9901001"]  # the last: well-formed, not served
    with ArxivServer(_recorded(), faults=["error-entry"] * 3) as server:
        fetcher = _fetcher(server, tmp_path)
        found = fetcher.metadata(ids)
    assert sorted(found) == ids[:2]
    assert fetcher.stats.dropped == {
        "hep-th/9901001": "arXiv error: incorrect id format for hep-th/9901001"
    }
    assert "hep-th/9901001" not in fetcher.index


def test_a_published_date_that_is_not_a_day_is_dropped_never_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """arXiv answering ``<published>yesterday`` (issue 42): dropped with its reason, not
    cached, and no pair carries ``"paper_date": "yesterday"``."""
    monkeypatch.setattr(papers_module, "PACE_SECONDS", 0.0)
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path / "cache"))
    papers = _recorded()
    papers[1] = dataclasses.replace(papers[1], published="yesterday")
    with ArxivServer(papers) as server:
        fetcher = _fetcher(server, tmp_path)
        assert "2106.00001" not in fetcher.metadata(["2106.00001", "2106.00000"])
        assert "not a day" in fetcher.stats.dropped["2106.00001"]
        assert "2106.00001" not in fetcher.index
        monkeypatch.setenv("ARXIV_API_BASE", server.api)
        monkeypatch.setenv("ARXIV_HTML_BASE", server.html)
        out = tmp_path / "pairs.jsonl"
        report = build([_leaderboard(tmp_path)], out, extract=False, fetch_papers=True).report
    assert "<published>yesterday" in report["papers"]["arxiv_ids_dropped"]["2106.00001"]
    dates = {i.paper_date for r in read_pairs(out) for i in (r.idea_a, r.idea_b)}
    assert "yesterday" not in dates and "2021-01-15" in dates
    assert "yesterday" not in out.read_text(encoding="utf-8")
