"""Recorded-style bad answers through ``tastybench build``: one sentence naming the request,
nothing cached from them, an announced Retry-After waited out, no velocity from an undated
series, the arXiv abstract fallback, short citation lists, and arguments refused before any
request."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from arxiv_server import ArxivServer, Recorded
from fake_graph_api import FETCH_DATE, WINDOW, FakeClock, FakeGraphApi

from research_taste.builders import http, semantic_scholar
from research_taste.builders.http import RETRY_AFTER_CAP
from research_taste.builders.ideapairs import papers as papers_module
from research_taste.builders.semantic_scholar import SemanticScholar
from research_taste.builders.tastybench_papers import velocity_of
from research_taste.builders.tastybench_set import SetRequest, build
from research_taste.cli import main
from research_taste_evals.core.data import DataError

REQUEST = SetRequest(
    "reinforcement learning llm", dt.date(2025, 7, 1), dt.date(2025, 9, 30), min_citations=20
)
ARGS = ["tastybench", "build", "--query", "rl llm", "--from", WINDOW[0], "--to", WINDOW[1]]


def _client(api: FakeGraphApi, out: Path, clock: FakeClock) -> SemanticScholar:
    client = SemanticScholar(
        out / "cache",
        base_url=api.base_url,
        clock=clock,
        today=lambda: dt.date.fromisoformat(FETCH_DATE),
    )
    return client


def _cached(out: Path) -> int:
    return sum(1 for p in (out / "cache").rglob("*.json")) if (out / "cache").exists() else 0


BAD_BODIES: list[tuple[str, Any, str]] = [
    ("/paper/search?0", {"total": 1, "data": [{"title": "no id"}]}, r"data\[0\]\.paperId is None"),
    ("/paper/search?0", {"total": 0, "offset": 0, "data": None}, r"data is None"),
    (
        "/paper/search?0",
        {"total": 1, "data": [{"paperId": "x", "citationCount": "many"}]},
        r"data\[0\]\.citationCount is 'many', expected a whole number",
    ),
    ("/paper/search?4", {"total": "many", "data": []}, r"total is 'many'"),
    ("/paper/search?0", "<html><body>Service Unavailable</body></html>", "not a JSON object"),
    ("/paper/search?0", '["a", "list"]', "not a JSON object"),
    ("/paper/KEEP-A/citations?0", {"offset": 0, "data": None}, r"citations.* data is None"),
    (
        "/paper/KEEP-B/citations?0",
        {"offset": 0, "data": [{"citingPaper": None}]},
        r"data\[0\]\.citingPaper is None",
    ),
    ("/paper/KEEP-C/citations?0", {"offset": 0, "next": "many", "data": []}, "next is 'many'"),
]


@pytest.mark.parametrize(("marker", "body", "message"), BAD_BODIES)
def test_a_bad_body_is_one_sentence_naming_the_request_and_is_not_cached(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    marker: str,
    body: Any,
    message: str,
) -> None:
    fake_api.bad[marker] = body
    out = tmp_path / "set"
    with pytest.raises(DataError, match=message) as raised:
        build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    text = str(raised.value)
    assert "\n" not in text and f"GET {marker.split('?')[0]}" in text
    assert not (out / "papers.csv").exists()
    cached = _cached(out)
    # a re-run asks the bad request again (it was not cached) and now succeeds
    sent = len(fake_api.requests)
    report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert report["kept"] == 4 and report["requests"]["cached"] == cached
    assert len(fake_api.requests) > sent


def test_a_bad_body_through_the_command_line_is_one_line_and_exit_2(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    fake_api.bad["/paper/search?0"] = {"total": 1, "data": [{"paperId": None}]}
    assert main([*ARGS, "--out", str(tmp_path / "set"), "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "GET /paper/search?query=rl+llm" in error
    assert "Traceback" not in error and _cached(tmp_path / "set") == 0


def test_a_429s_retry_after_3600_is_waited_out_and_said(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    fake_api.retry_after = "3600"
    fake_api.throttle = {"/paper/search?0": 1}
    out = tmp_path / "set"
    client = _client(fake_api, out, fake_clock)
    said: list[str] = []
    client.say = said.append
    build(REQUEST, out, client, progress=False)
    # the hour asked for (and a second's margin), not RETRY_AFTER_CAP: a 429 is waited out
    assert max(fake_clock.sleeps) >= 3600 > RETRY_AFTER_CAP
    assert len(said) == 1 and said[0].startswith(
        "Semantic Scholar answered 429 (rate limit) to GET /paper/search: waiting 1 h 01 min "
        "until its window resets, until "
    )


def test_the_wait_line_goes_to_stderr(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fake_api.retry_after = "3600"
    fake_api.throttle = {"/paper/search?0": 1}
    out = tmp_path / "set"
    build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert "waiting 1 h 01 min until its window resets" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("listed", "undated", "cited"),
    [(5, 5, 5), (22, 20, 22), (0, 0, 7)],
)
def test_an_undated_or_empty_series_has_no_velocity_never_zero(
    listed: int, undated: int, cited: int
) -> None:
    months, counts = ["2025-08-01", "2025-09-01", "2025-10-01"], [0, 0, 0]
    velocity, note = velocity_of(months, counts, dt.date(2026, 1, 15), listed, undated, cited)
    assert velocity is None and note
    # a dated flat series is a measured 0.0
    assert velocity_of(months, counts, dt.date(2026, 1, 15), 0, 0, 0) == (0.0, "")


def test_an_abstract_missing_from_semantic_scholar_comes_from_arxiv(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(papers_module, "PACE_SECONDS", 0.0)
    fake_api.arxiv_paper = True
    recorded = Recorded("2508.01234v2", "From arXiv", "An abstract only arXiv has.", "2025-08-20")
    out = tmp_path / "set"
    with ArxivServer([recorded, Recorded("2508.09999v1", "t", "a", "2025-08-01")]) as server:
        monkeypatch.setenv("ARXIV_API_BASE", server.api)
        report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
        assert server.counts.api == 1
    assert report["abstracts_by_source"] == {"arxiv": 1, "semantic_scholar": 4}
    rows = (out / "papers.csv").read_text()
    assert "An abstract only arXiv has." in rows and ",arxiv\n" in rows
    # 21 citing papers listed of citationCount 30: flagged
    assert report["short_citation_lists"] == {"FROM-ARXIV": {"listed": 21, "citationCount": 30}}
    assert (out / "cache" / "arxiv" / "index.json").is_file()  # cached beside the API answers


def test_the_bulk_search_follows_its_token(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    out = tmp_path / "set"
    request = SetRequest(REQUEST.query, REQUEST.date_from, REQUEST.date_to, 20, search="bulk")
    fake_api.throttle = {}
    report = build(request, out, _client(fake_api, out, fake_clock), progress=False)
    search = [r for r in fake_api.requests if r["path"] == "/paper/search/bulk"]
    assert [r["params"].get("token") for r in search] == [None, "page-2"]
    assert report["kept"] == 4 and "ANDed" in report["search_semantics"]


def test_a_relevance_search_over_its_limit_is_reported(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    fake_api.total = 5400
    out = tmp_path / "set"
    report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert report["search_total"] == 5400 and report["search_limit_reached"] is True
    assert "1,000" in report["search_semantics"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--query", "  "], "--query is empty: give the search terms"),
        (
            ["--from", "2099-01-01", "--to", "2099-12-31"],
            "--from 2099-01-01 is in the future (today is ",
        ),
        (["--after", "2099-06"], "--after 2099-06: the day 2099-07-01 is in the future"),
        (["--after", "2025-13"], "--after '2025-13' is not a month or day in the form YYYY-MM"),
    ],
)
def test_bad_arguments_are_refused_before_any_request(
    fake_api: FakeGraphApi,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    base = ["tastybench", "build", "--query", "rl", "--out", str(tmp_path / "set")]
    if "--from" not in argv and "--after" not in argv:
        base += ["--from", WINDOW[0], "--to", WINDOW[1]]
    assert main([*base, *argv]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") <= 2 and "Traceback" not in error
    assert fake_api.requests == [] and not (tmp_path / "set").exists()


def test_an_unwritable_out_is_refused_before_any_request(
    fake_api: FakeGraphApi,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    assert main([*ARGS, "--out", str(blocker / "set")]) == 2
    error = capsys.readouterr().err
    assert f"--out {blocker / 'set'} cannot be written" in error and error.count("\n") == 1
    assert fake_api.requests == [] and blocker.read_text() == "mine"


def test_no_kept_paper_is_one_sentence_and_exit_2(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    argv = [*ARGS, "--min-citations", "1000", "--out", str(tmp_path / "set"), "--no-progress"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert "kept no paper (below_min_citations 6, " in error and "outside_window 1)" in error
    assert error.count("error:") == 1 and not (tmp_path / "set" / "papers.csv").exists()


def test_after_a_month_starts_the_window_the_next_day(
    fake_api: FakeGraphApi,
    fake_clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    monkeypatch.setattr(semantic_scholar, "_today", lambda: dt.date.fromisoformat(FETCH_DATE))
    out = tmp_path / "set"
    argv = ["tastybench", "build", "--query", "rl", "--after", "2025-06", "--to", WINDOW[1]]
    assert main([*argv, "--search", "bulk", "--out", str(out), "--no-progress"]) == 0
    params = fake_api.requests[0]["params"]
    assert params["publicationDateOrYear"] == "2025-07-01:2025-09-30"
    assert fake_api.requests[0]["path"] == "/paper/search/bulk"
    assert "abstracts by source: semantic_scholar 4" in capsys.readouterr().out


def test_an_unreachable_arxiv_for_the_fallback_is_one_sentence_naming_its_variable(
    fake_api: FakeGraphApi,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    monkeypatch.setenv("ARXIV_API_BASE", f"http://127.0.0.1:{port}/api/query")
    monkeypatch.setattr(http, "_sleep", lambda seconds: None)
    fake_api.arxiv_paper = True
    assert main([*ARGS, "--out", str(tmp_path / "set"), "--no-progress"]) == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert "cannot reach" in error and "set ARXIV_API_BASE" in error
    assert "abstracts Semantic Scholar lacks" in error and "--paper-texts" not in error
