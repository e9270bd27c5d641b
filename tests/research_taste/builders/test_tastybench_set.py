"""The TastyBench set builder against the fake Graph API (conftest.py holds the worked truth)."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import numpy as np
import pytest
from fake_graph_api import (
    DROPPED,
    FETCH_DATE,
    FUTURE,
    TRUTH,
    UNDATED,
    WINDOW,
    FakeClock,
    FakeGraphApi,
)

from research_taste.builders.http import MAX_RATE_LIMITED
from research_taste.builders.semantic_scholar import SemanticScholar
from research_taste.builders.tastybench_set import SetRequest, build, drop_reason
from research_taste_evals.core.data import DataError
from research_taste_evals.core.velocity import citation_series, month_starts

REQUEST = SetRequest(
    query="reinforcement learning llm",
    date_from=dt.date.fromisoformat(WINDOW[0]),
    date_to=dt.date.fromisoformat(WINDOW[1]),
    min_citations=20,
)


def _client(
    api: FakeGraphApi, out: Path, clock: FakeClock, key: str | None = None
) -> SemanticScholar:
    return SemanticScholar(
        out / "cache",
        base_url=api.base_url,
        api_key=key,
        clock=clock,
        today=lambda: dt.date.fromisoformat(FETCH_DATE),
    )


def _rows(out: Path) -> list[dict[str, str]]:
    with (out / "papers.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_month_starts_follow_upstream_date_range() -> None:
    # pd.date_range(pub, pub + 60 weeks, freq="MS"): a paper published on the 1st starts there
    assert month_starts(dt.date(2025, 8, 1), dt.date(2030, 1, 1))[0] == dt.date(2025, 8, 1)
    # 14 points at most: 2025-02-01 .. 2026-03-01 for 2025-01-22 (upstream's DeepSeek-R1 row)
    starts = month_starts(dt.date(2025, 1, 22), dt.date(2030, 1, 1))
    assert (len(starts), starts[0], starts[-1]) == (14, dt.date(2025, 2, 1), dt.date(2026, 3, 1))
    # ... and none after the fetch date
    assert month_starts(dt.date(2025, 1, 22), dt.date(2025, 4, 30))[-1] == dt.date(2025, 4, 1)
    dates, counts = citation_series(
        dt.date(2025, 9, 15),
        [dt.date(2025, 10, 1), dt.date(2025, 9, 30), dt.date(2025, 10, 2)],
        dt.date(2025, 11, 1),
    )
    assert (dates, counts) == (["2025-10-01", "2025-11-01"], [2, 3])


def test_year_only_and_duplicate_papers_are_dropped_with_reasons() -> None:
    paper = {"paperId": "x", "publicationDate": "2025-01-01", "citationCount": 99, "abstract": "a"}
    wide = SetRequest("q", dt.date(2024, 1, 1), dt.date(2026, 1, 1), 0)
    assert drop_reason(paper, wide, set()) == "year_only_date"
    assert drop_reason({**paper, "publicationDate": "2025-01-02"}, wide, set()) is None
    assert drop_reason({**paper, "publicationDate": "2025-01-02"}, wide, {"x"}) == (
        "duplicate_in_search"
    )


def test_build_keeps_the_right_papers_with_the_worked_velocities(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    out = tmp_path / "set"
    report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    rows = _rows(out)
    assert [row["paper_id"] for row in rows] == list(TRUTH)  # sorted by velocity
    for row in rows:
        truth = TRUTH[row["paper_id"]]
        if truth is None:  # 20 of 22 citing papers undated: blank, with the reason, never 0.0
            assert (
                row["velocity"] == "" and "20 of 22 citing papers undated" in row["velocity_note"]
            )
            continue
        assert float(row["velocity"]) == pytest.approx(truth, rel=1e-12)
        counts = json.loads(row["citation_counts"])
        # the same as upstream's np.polyfit(t, y, 1) slope on the written series
        assert float(row["velocity"]) == pytest.approx(np.polyfit(range(len(counts)), counts, 1)[0])
        assert row["fetch_date"] == FETCH_DATE
        assert row["abstract"].endswith(f"({row['paper_id']})")
    by_id = {row["paper_id"]: row for row in rows}
    assert json.loads(by_id["KEEP-A"]["citation_counts"]) == [0, 2, 5, 9, 14, 20]
    assert json.loads(by_id["KEEP-K"]["citation_dates"])[0] == "2025-07-01"
    assert json.loads(by_id["KEEP-C"]["citation_dates"])[-1] == "2026-01-01"
    assert by_id["KEEP-K"]["undated_citations"] == "20"
    assert report["dropped_ids"] == dict(sorted(DROPPED.items()))
    assert report["dropped"] == {reason: 1 for reason in DROPPED}
    assert report["undated_citations_left_out"] == UNDATED
    assert report["future_dated_citations_left_out"] == FUTURE
    assert report["fetch_date"] == FETCH_DATE and report["kept"] == 4
    assert report["window"] == {"from": WINDOW[0], "to": WINDOW[1]}
    assert report["api_base"] == fake_api.base_url
    # 2 search pages + 12 citation pages, 3 of them answered 429 first
    assert report["requests"] == {
        "network": 17,
        "cached": 0,
        "retried": 3,
        "retried_by_status": {"429": 3},
    }
    assert report["papers_without_velocity"] == {"KEEP-K": by_id["KEEP-K"]["velocity_note"]}
    assert report["abstracts_by_source"] == {"semantic_scholar": 4}
    assert report["search"] == "relevance" and report["search_total"] == 8
    # listed < citationCount: KEEP-A lists 25 of 25, B 20 of 20, C 35 of 35, K 22 of 22
    assert report["short_citation_lists"] == {}
    search = [r for r in fake_api.requests if r["path"] == "/paper/search"]
    assert [r["params"]["offset"] for r in search] == ["0", "4", "4"]  # one 429 on the way
    assert {r["params"]["limit"] for r in search} == {"100"}
    assert search[0]["params"]["publicationDateOrYear"] == "2025-07-01:2025-09-30"
    assert search[0]["params"]["minCitationCount"] == "20"
    assert search[0]["params"]["fieldsOfStudy"] == "Computer Science"
    assert search[0]["params"]["publicationTypes"] == "Conference,JournalArticle,Study"
    assert report["search_filters"]["fieldsOfStudy"] == "Computer Science"
    assert "externalIds" in search[0]["params"]["fields"].split(",")
    assert json.loads((out / "build_report.json").read_text()) == report


def test_a_rerun_sends_no_request(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    out = tmp_path / "set"
    build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    first = (out / "papers.csv").read_text()
    sent = len(fake_api.requests)
    report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert len(fake_api.requests) == sent
    assert report["requests"]["network"] == 0 and report["requests"]["cached"] == 14
    assert (out / "papers.csv").read_text() == first


def test_the_fetch_date_of_a_resumed_build_is_its_first_day(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    """Answers cached on 2026-01-15 and read on a later day keep the series' cut there."""
    out = tmp_path / "set"
    build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    later = SemanticScholar(
        out / "cache", base_url=fake_api.base_url, today=lambda: dt.date(2026, 6, 1)
    )
    assert build(REQUEST, out, later, progress=False)["fetch_date"] == FETCH_DATE


def test_pacing_with_a_key_is_one_request_a_second_and_the_key_stays_out_of_files(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    out = tmp_path / "set"
    fake_api.clock = fake_clock
    build(REQUEST, out, _client(fake_api, out, fake_clock, key="secret-key-7"), progress=False)
    times = [request["at"] for request in fake_api.requests]
    assert min(np.diff(times)) >= 1.0
    assert {request["api_key"] for request in fake_api.requests} == {"secret-key-7"}
    assert all("secret-key-7" not in p.read_text() for p in out.rglob("*") if p.is_file())


def test_without_a_key_requests_are_three_seconds_apart(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("S2_API_KEY", raising=False)
    out = tmp_path / "set"
    fake_api.clock = fake_clock
    build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert min(np.diff([request["at"] for request in fake_api.requests])) >= 3.0
    assert {request["api_key"] for request in fake_api.requests} == {None}


def test_429s_are_retried_a_bounded_number_of_times_with_backoff(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    fake_api.always_throttle = True
    client = SemanticScholar(
        tmp_path / "cache", base_url=fake_api.base_url, max_tries=4, min_interval=0
    )
    gave_up = f"answered 429 to GET /paper/search/bulk {MAX_RATE_LIMITED} times"
    with pytest.raises(DataError, match=gave_up):
        client.get("/paper/search/bulk", {"query": "q"})
    assert len(fake_api.requests) == MAX_RATE_LIMITED  # 429s have their own count, not max_tries
    # Retry-After: 0 names no reset, so a back-off decides, doubling up to a window's length
    backoff = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 120.0, 120.0, 120.0, 120.0]
    assert fake_clock.sleeps == pytest.approx(backoff, abs=0.5)  # real time passes meanwhile
    assert not (tmp_path / "cache").exists()  # nothing cached from a failure


def test_a_missing_network_is_one_sentence_naming_the_base_variable(tmp_path: Path) -> None:
    client = SemanticScholar(tmp_path / "cache", base_url="http://127.0.0.1:9", min_interval=0)
    with pytest.raises(DataError, match=r"cannot reach .* set S2_API_BASE") as error:
        client.get("/paper/search/bulk", {"query": "q"})
    assert "\n" not in str(error.value)


def test_out_holding_other_files_is_refused_and_left_alone(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    out = tmp_path / "set"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(DataError, match=r"holds files this builder did not write \(notes.txt\)"):
        build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert fake_api.requests == []


def test_a_window_ending_before_it_starts_is_refused(tmp_path: Path) -> None:
    request = SetRequest("q", dt.date(2025, 9, 30), dt.date(2025, 7, 1), 20)
    with pytest.raises(DataError, match="--from 2025-09-30 is after --to 2025-07-01"):
        build(request, tmp_path / "set", progress=False)
    assert not (tmp_path / "set").exists()


def test_empty_filters_are_not_sent(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path
) -> None:
    out = tmp_path / "set"
    request = SetRequest(
        REQUEST.query,
        REQUEST.date_from,
        REQUEST.date_to,
        20,
        fields_of_study="",
        publication_types="",
    )
    build(request, out, _client(fake_api, out, fake_clock), progress=False)
    params = fake_api.requests[0]["params"]
    assert "fieldsOfStudy" not in params and "publicationTypes" not in params


def test_an_answer_that_is_not_json_is_one_sentence(tmp_path: Path) -> None:
    from http.server import BaseHTTPRequestHandler

    from local_server import serving

    class Html(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>\n<body>a login page</body></html>")

        def log_message(self, *args: object) -> None:
            pass

    with serving(Html) as server:
        client = SemanticScholar(tmp_path / "cache", base_url=server.base_url, min_interval=0)
        with pytest.raises(DataError, match="not a JSON object .*S2_API_BASE") as error:
            client.get("/paper/search/bulk", {"query": "q"})
    assert "\n" not in str(error.value)


def test_papers_with_more_citations_than_the_endpoint_lists_are_dropped(
    fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a cap of 20 listed citations: B (20) is whole; A (25), C (35), K (22) are not.
    Asked again up to publication + 60 weeks, K's 2 dated citing papers fit (bounded); A's 23
    and C's 30 still do not: dropped with the reason."""
    from research_taste.builders import semantic_scholar, tastybench_papers

    monkeypatch.setattr(semantic_scholar, "CITATIONS_CAP", 20)
    monkeypatch.setattr(tastybench_papers, "CITATIONS_CAP", 20)
    out = tmp_path / "set"
    report = build(REQUEST, out, _client(fake_api, out, fake_clock), progress=False)
    assert [row["paper_id"] for row in _rows(out)] == ["KEEP-B", "KEEP-K"]
    assert report["dropped_ids"]["citations_over_api_limit"] == ["KEEP-A", "KEEP-C"]
    assert report["citations_bounded_by_date"] == ["KEEP-K"]
    bounded = [r["params"] for r in fake_api.requests if "publicationDateOrYear" in r["params"]]
    # K (2025-07-01) + 60 weeks; A and C asked first without the cap over their citationCount
    assert {"path": "KEEP-K", "until": ":2026-08-25"} in [
        {"path": "KEEP-K", "until": p["publicationDateOrYear"]} for p in bounded
    ]
    limits = [r["params"]["limit"] for r in fake_api.requests if r["path"].endswith("citations")]
    assert set(limits) == {"20", "10"}  # offset + limit never passes the cap
