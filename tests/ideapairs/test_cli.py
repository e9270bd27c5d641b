"""``research-taste ideapairs build`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research_taste.cli import main
from research_taste_evals.ideapairs.demo import write_demo_leaderboards
from research_taste_evals.ideapairs.pairs_schema import read_pairs

MIN_UPSTREAM_LEADERBOARDS = 30


def _build(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["ideapairs", "build", *args]) == 0
    return capsys.readouterr().out


def test_build_command_writes_pairs_and_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_demo_leaderboards(tmp_path)
    out, report = tmp_path / "pairs.jsonl", tmp_path / "report.json"
    printed = _build(
        [str(source), "--out", str(out), "--report", str(report), "--no-extract", "--seed", "3"],
        capsys,
    )
    assert "idea_pairs -T pairs_file=" in printed
    written = json.loads(report.read_text())
    assert written["seed"] == 3
    assert len(read_pairs(out)) == written["records"] > 0


def test_build_command_time_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_demo_leaderboards(tmp_path)
    out = tmp_path / "pairs.jsonl"
    _build([str(source), "--out", str(out), "--no-extract", "--test-after", "2019"], capsys)
    assert all(
        (r.split == "test") == (max(r.idea_a.year, r.idea_b.year) > 2019) for r in read_pairs(out)
    )


def test_build_command_on_upstream_nlp_progress(
    upstream_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = upstream_dir / "sota-extractor" / "data" / "tasks" / "nlp-progress.json"
    if not source.is_file():
        pytest.skip(f"{source} not found")
    report = tmp_path / "report.json"
    _build(
        [str(source), "--out", str(tmp_path / "p.jsonl"), "--report", str(report), "--no-extract"],
        capsys,
    )
    written = json.loads(report.read_text())
    assert written["kept"] + written["dropped"] == written["entries_read"] == 559
    assert written["leaderboards_with_pairs"] >= MIN_UPSTREAM_LEADERBOARDS


def test_build_command_needs_an_extractor_without_no_extract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_demo_leaderboards(tmp_path)
    assert main(["ideapairs", "build", str(source), "--out", str(tmp_path / "p.jsonl")]) == 2
    assert "--extractor" in capsys.readouterr().err
    assert not (tmp_path / "p.jsonl").exists()
