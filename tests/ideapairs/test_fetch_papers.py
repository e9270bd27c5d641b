"""``ideapairs build --fetch-papers`` (issue 30.2) against a local arXiv stand-in: texts from
the papers, pinned versions, dates to the day, no repeated request, pacing, offline errors."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from arxiv_papers import HTML, _leaderboard, _recorded
from arxiv_server import ArxivServer
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from mock_models import scripted_model

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste.builders.ideapairs import papers as papers_module
from research_taste.builders.ideapairs.arxiv_answers import html_to_text, parse_atom
from research_taste.builders.ideapairs.builder import build
from research_taste.builders.ideapairs.papers import ArxivFetcher
from research_taste.builders.ideapairs.splitting import after_cutoff, parse_cutoff
from research_taste.cli import main
from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.ideapairs import idea_pairs
from research_taste_evals.ideapairs.pairs_schema import read_pairs


def _abstracts(tmp_path: Path) -> Path:
    table = [
        {
            "paper_url": "https://aclanthology.org/2021.acl-long.7",
            "arxiv_id": None,
            "title": "Paper about Hotel",
            "abstract": "We study a graph encoder for reading comprehension.",
            "date": "2021-08-01",
        }
    ]
    path = tmp_path / "papers-with-abstracts.json"
    path.write_text(json.dumps(table))
    return path


@pytest.fixture
def arxiv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(papers_module, "PACE_SECONDS", 0.0)  # pacing has its own test
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path / "cache"))
    with ArxivServer(_recorded()) as server:
        monkeypatch.setenv("ARXIV_API_BASE", server.api)
        monkeypatch.setenv("ARXIV_HTML_BASE", server.html)
        yield server


def _extractor(seen: list[str]) -> Any:
    def respond(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        seen.append(prompt)
        abstract = re.search(r"Abstract: We study an? (\w+) encoder", prompt)
        detail = "It attends over spans." if "attention over spans" in prompt else ""
        word = abstract.group(1) if abstract else "plain"
        return f"<idea>The proposed method uses a {word} encoder. {detail}</idea>"

    return scripted_model(respond)


def test_fetched_papers_give_anonymised_texts_and_no_identity_leak(
    arxiv: ArxivServer, tmp_path: Path
) -> None:
    seen: list[str] = []
    out = tmp_path / "pairs.jsonl"
    result = build(
        [_leaderboard(tmp_path)],
        out,
        extractor=_extractor(seen),
        log_dir=str(tmp_path / "extract-logs"),
        fetch_papers=True,
        abstracts=_abstracts(tmp_path),
    )
    records = read_pairs(out)
    ideas = {i.idea_id: i for r in records for i in (r.idea_a, r.idea_b)}
    assert records and {i.text_source for i in ideas.values()} == {"extracted"}
    assert all(not i.text.startswith("Method:") for i in ideas.values())
    by_method = {i.method: i for i in ideas.values()}
    assert by_method["Alpha"].paper_date == "2021-01-15"  # arXiv <published>, to the day
    assert by_method["Hotel"].paper_date == "2021-08-01"  # the abstracts table's date
    papers = result.report["papers"]
    assert set(papers["by_source"]) == {"arxiv_full_text", "arxiv_abstract", "pwc_abstract"}
    assert "2106.00001v2" in papers["pinned_versions"]
    assert any("attends over spans" in i.text for i in ideas.values())  # full text was read
    assert not any("arXiv menu" in p or "var x" in p for p in seen)  # page chrome dropped
    assert result.report["extraction"]["identity_leak"] is False
    log = inspect_eval(
        idea_pairs(pairs_file=str(out), split="all", bootstrap_resamples=20),
        model="baseline/first",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert log.status == "success"
    assert log.eval.metadata is not None and log.eval.metadata["identity_leak"] is False


def test_a_rerun_is_answered_from_the_cache(arxiv: ArxivServer, tmp_path: Path) -> None:
    board = _leaderboard(tmp_path)
    build([board], tmp_path / "a.jsonl", extract=False, fetch_papers=True)
    first = (arxiv.counts.api, arxiv.counts.html)
    assert first[0] == 1  # eight ids, one batched query
    report = build([board], tmp_path / "b.jsonl", extract=False, fetch_papers=True).report
    assert (arxiv.counts.api, arxiv.counts.html) == first
    assert report["papers"]["requests"] == 0 and report["papers"]["answered_from_cache"] > 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    # the ACL paper has no text without the abstracts table: listed, not guessed
    missing = report["papers"]["without_text"]
    assert [m["method"] for m in missing] == ["Hotel"]


def test_month_cutoff_uses_the_fetched_dates(arxiv: ArxivServer, tmp_path: Path) -> None:
    build(
        [_leaderboard(tmp_path)],
        tmp_path / "pairs.jsonl",
        extract=False,
        fetch_papers=True,
        test_after="2021-04",
    )
    records = read_pairs(tmp_path / "pairs.jsonl")
    assert {r.split for r in records} == {"train", "test"}
    for record in records:
        dates = [record.idea_a.paper_date or "", record.idea_b.paper_date or ""]
        assert all(d[:7] > "2021-04" for d in dates) == (record.split == "test")


def test_requests_are_paced_three_seconds_apart(tmp_path: Path) -> None:
    now = [100.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    recorded = _recorded()
    with ArxivServer(recorded) as server:
        fetcher = ArxivFetcher(tmp_path / "cache", pace=3.0, sleep=sleep, clock=lambda: now[0])
        fetcher.api, fetcher.html = server.api, server.html
        found = fetcher.metadata(r.version.rsplit("v", 1)[0] for r in recorded)
        now[0] += 1.0  # one second of work before the next request
        fetcher.full_text(found["2106.00000"]["version"])
    assert slept == [pytest.approx(2.0)]  # the second request waited out the 3 s
    assert fetcher.stats.requests == 2


def test_too_many_requests_waits_for_retry_after(tmp_path: Path) -> None:
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    with ArxivServer(_recorded(), busy=2) as server:
        fetcher = ArxivFetcher(tmp_path / "cache", pace=3.0, sleep=sleep, clock=lambda: now[0])
        fetcher.api = server.api
        found = fetcher.metadata(["2106.00003"])
    assert found["2106.00003"]["version"] == "2106.00003v2"
    assert server.counts.api == 3 and fetcher.stats.retried == 2
    # Retry-After waited out in full, plus the second of margin every announced reset gets
    # (builders/http.py); it also covers the 3 s pace
    assert slept == [6.0, 6.0]


def test_unreachable_arxiv_is_one_sentence_naming_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens
    monkeypatch.setenv("ARXIV_API_BASE", f"http://127.0.0.1:{port}/api/query")
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(DataError) as raised:
        build([_leaderboard(tmp_path)], tmp_path / "p.jsonl", extract=False, fetch_papers=True)
    message = str(raised.value)
    assert "ARXIV_API_BASE" in message and "--source FILE" in message and "\n" not in message
    assert not (tmp_path / "p.jsonl").exists()


def test_atom_parsing_skips_error_entries_and_reads_versions() -> None:
    server = ArxivServer(_recorded()[:1])
    body = server.feed("2106.00000,hep-th/bad").encode()
    server.server.stop()  # never started: closes its socket
    entries, errors = parse_atom(body, "feed")
    assert list(entries) == ["2106.00000"]
    assert list(errors.values()) == ["incorrect id format for hep-th/bad"]
    assert entries["2106.00000"]["version"] == "2106.00000v1"
    assert entries["2106.00000"]["date"] == "2021-01-15"
    assert (
        entries["2106.00000"]["abstract"] == "We study a sparse encoder for reading comprehension."
    )
    assert html_to_text(HTML.format(word="x")) == "Method\nThe encoder uses x attention over spans."


@pytest.mark.parametrize(
    ("date", "year", "cutoff", "after"),
    [
        ("2024-07-02", 2024, "2024-06", True),
        ("2024-06-30", 2024, "2024-06", False),
        ("", 2024, "2024-06", False),  # same year, month unknown: not held out as unseen
        ("", 2025, "2024-06", True),
        ("2024-01", 2024, "2023", True),
        ("", 2023, "2023", False),
    ],
)
def test_cutoff_by_year_or_month(date: str, year: int, cutoff: str, after: bool) -> None:
    parsed = parse_cutoff(cutoff)
    assert parsed is not None and after_cutoff(date, year, parsed) is after


@pytest.mark.parametrize("bad", ["24", "2024-13", "2024/06", "June 2024"])
def test_bad_cutoff_names_the_flag(bad: str) -> None:
    with pytest.raises(DataError, match="--test-after"):
        parse_cutoff(bad)


def test_command_line_fetches_with_a_month_cutoff(
    arxiv: ArxivServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pairs.jsonl"
    argv = [str(_leaderboard(tmp_path)), "--out", str(out), "--no-extract", "--fetch-papers"]
    argv += ["--abstracts", str(_abstracts(tmp_path)), "--test-after", "2021-04"]
    assert main(["ideapairs", "build", *argv]) == 0
    printed = capsys.readouterr().out
    assert "papers of paired ideas:" in printed and "from the cache" in printed
    assert {r.split for r in read_pairs(out)} == {"train", "test"}
    assert main(["ideapairs", "build", *argv[:-1], "2021-4"]) != 0  # one sentence, exit 2
    assert "--test-after 2021-4: expected YYYY or YYYY-MM" in capsys.readouterr().err
    without = [a for a in argv if a != "--fetch-papers"]
    assert main(["ideapairs", "build", *without]) != 0
    assert "add --fetch-papers" in capsys.readouterr().err


def test_after_is_the_month_split_of_test_after(
    arxiv: ArxivServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = str(_leaderboard(tmp_path))
    argv = ["ideapairs", "build", board, "--no-extract", "--fetch-papers"]
    assert main([*argv, "--out", str(tmp_path / "a.jsonl"), "--after", "2021-04-10"]) == 0
    assert main([*argv, "--out", str(tmp_path / "b.jsonl"), "--test-after", "2021-04"]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    capsys.readouterr()
    both = ["--after", "2021-04", "--test-after", "2021-04", "--out", str(tmp_path / "c.jsonl")]
    assert main([*argv, *both]) == 2
    assert "give --after or --test-after, not both" in capsys.readouterr().err
    assert main([*argv, "--after", "April", "--out", str(tmp_path / "c.jsonl")]) == 2
    assert "--after April: expected YYYY-MM or YYYY-MM-DD" in capsys.readouterr().err
    assert not (tmp_path / "c.jsonl").exists()
