"""``research-taste tastybench build`` against the fake Graph API, then the task on its folder."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import log_metrics
import pytest
from fake_graph_api import FETCH_DATE, TRUTH, WINDOW, FakeClock, FakeGraphApi
from inspect_ai import eval as inspect_eval

from research_taste.builders import http, semantic_scholar
from research_taste.cli import main

ARGS = ["tastybench", "build", "--query", "rl llm", "--from", WINDOW[0], "--to", WINDOW[1]]


@pytest.fixture
def api_env(
    fake_api: FakeGraphApi, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> FakeGraphApi:
    monkeypatch.setenv("S2_API_BASE", fake_api.base_url)
    monkeypatch.setenv("S2_API_KEY", "cli-key")
    monkeypatch.setattr(semantic_scholar, "_today", lambda: dt.date.fromisoformat(FETCH_DATE))
    return fake_api


def test_build_then_the_citation_oracle_gives_rho_1(
    api_env: FakeGraphApi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "set"
    argv = [*ARGS, "--min-citations", "20", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "4 papers (fetched 2026-01-15)" in printed and "27 undated citations" in printed
    with (out / "papers.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["paper_id"] for row in rows] == list(TRUTH)
    for row in rows:  # within 5% of the truth is the bar; this is exact
        truth = TRUTH[row["paper_id"]]
        assert (
            row["velocity"] == ""
            if truth is None
            else float(row["velocity"]) == pytest.approx(truth, rel=1e-12)
        )
    report = json.loads((out / "build_report.json").read_text())
    assert report["api_base"] == api_env.base_url and report["api_key_used"] is True
    assert {request["api_key"] for request in api_env.requests} == {"cli-key"}
    assert main(argv) == 0  # a re-run reads the cache
    assert "0 sent, 14 from the cache" in capsys.readouterr().out
    log = inspect_eval(
        "research_taste_evals/tastybench",
        model="baseline/citation-oracle",
        task_args={"data_path": str(out), "representation": "abstract"},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert log.status == "success"
    assert log_metrics.metrics_of(log)["bt_spearman"] == pytest.approx(1.0)
    assert (log.eval.metadata or {})["build"]["query"] == "rl llm"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--from", "2025-13-01"], "--from '2025-13-01' is not a date in the form YYYY-MM-DD"),
        (["--to", "30/09/2025"], "--to '30/09/2025' is not a date in the form YYYY-MM-DD"),
        (["--from", "2025-10-01"], "--from 2025-10-01 is after --to 2025-09-30"),
        (["--min-citations", "-1"], "--min-citations must be 0 or more, got -1"),
    ],
)
def test_bad_arguments_are_one_line(
    api_env: FakeGraphApi,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    assert main([*ARGS, "--out", str(tmp_path / "set"), *extra]) == 2
    error = capsys.readouterr().err
    assert error == f"research-taste tastybench: error: {message}\n"
    assert api_env.requests == [] and not (tmp_path / "set").exists()


def test_an_out_folder_with_other_files_is_refused(
    api_env: FakeGraphApi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "draft.md").write_text("keep me")
    assert main([*ARGS, "--out", str(out)]) == 2
    assert "holds files this builder did not write (draft.md)" in capsys.readouterr().err
    assert (out / "draft.md").read_text() == "keep me" and len(list(out.iterdir())) == 1


def test_no_network_is_one_line_naming_the_base_variable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("S2_API_BASE", "http://127.0.0.1:9/graph/v1")
    monkeypatch.setattr(http, "_sleep", lambda seconds: None)
    assert main([*ARGS, "--out", str(tmp_path / "set"), "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert "cannot reach Semantic Scholar at" in error and "S2_API_BASE" in error
    assert error.count("\n") == 1
