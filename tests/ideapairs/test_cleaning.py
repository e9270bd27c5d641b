"""Clean idea-pair data (issue 30.3): unnamed entries, one score per idea, a board read once."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from research_taste.builders.ideapairs.builder import build
from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.pairs_schema import PairRecord, read_pairs


def _row(method: str, title: str, url: str, year: int, accuracy: float) -> dict[str, Any]:
    return {
        "model_name": method,
        "paper_title": title,
        "paper_url": url,
        "paper_date": f"{year}-05-01",
        "metrics": {"Accuracy": accuracy},
    }


def _tasks(rows: list[dict[str, Any]], dataset: str = "Data") -> list[dict[str, Any]]:
    return [
        {
            "task": "Task",
            "description": "",
            "subtasks": [],
            "datasets": [{"dataset": dataset, "description": "", "sota": {"rows": rows}}],
        }
    ]


# Scores spaced so that many pairs fall in a tier window (population sigma of 0..9 is ~2.87).
NAMED = [_row(f"M{i}", f"Paper {i}", f"https://e.org/{i}", 2018, 90.0 - i) for i in range(10)]


def _checks(records: list[PairRecord]) -> tuple[int, int, dict[str, set[str]]]:
    """Idea slots without method and paper; (board, idea) keys with >1 score; boards by name."""
    empty = 0
    scores: dict[tuple[str, str], set[float]] = defaultdict(set)
    ids_by_name: dict[str, set[str]] = defaultdict(set)
    for record in records:
        ids_by_name[record.benchmark].add(record.benchmark_id)
        for idea in (record.idea_a, record.idea_b):
            empty += not (idea.method.strip() or idea.paper_title.strip() or idea.paper_url)
            scores[(record.benchmark_id, idea.idea_id)].add(idea.unified_score)
    return empty, sum(len(s) > 1 for s in scores.values()), ids_by_name


def test_entries_without_method_or_paper_drop_with_their_own_reason(tmp_path: Path) -> None:
    unnamed = [_row("", "", "", 2018, 95.5 - i) for i in range(3)]
    source = tmp_path / "board.json"
    source.write_text(json.dumps(_tasks(unnamed + NAMED)))
    result = build([source], tmp_path / "pairs.jsonl", extract=False)
    assert result.report["dropped_by_reason"]["no_method_or_paper"] == 3
    details = [d for d in result.report["drops"] if d["reason"] == "no_method_or_paper"]
    assert [d["rank"] for d in details] == [1, 2, 3]
    assert _checks(result.records)[0] == 0


def test_one_idea_listed_twice_keeps_its_best_ranked_row(tmp_path: Path) -> None:
    # M3 appears again lower down (another setting): the row at rank 4 stays, rank 11 goes.
    again = _row("M3", "Paper 3", "https://e.org/3", 2018, 80.5)
    source = tmp_path / "board.json"
    source.write_text(json.dumps(_tasks([*NAMED, again])))
    result = build([source], tmp_path / "pairs.jsonl", extract=False)
    duplicates = [d for d in result.report["drops"] if d["reason"] == "duplicate_idea"]
    assert [(d["rank"], d["method"]) for d in duplicates] == [(11, "M3")]
    assert "as row 4" in duplicates[0]["detail"]
    assert _checks(result.records)[1] == 0
    m3 = {i.unified_score for r in result.records for i in (r.idea_a, r.idea_b) if i.method == "M3"}
    assert m3 == {round(1 - 3 / 10, 12)} or len(m3) == 1
    report = result.report
    assert report["kept"] + report["dropped"] == report["entries_read"]


def test_same_board_in_two_files_is_read_once_from_the_larger(tmp_path: Path) -> None:
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "nlp-progress.json").write_text(json.dumps(_tasks(NAMED)))
    (folder / "nlpprogress.json").write_text(json.dumps(_tasks(NAMED[:6])))
    (folder / "other.json").write_text(json.dumps(_tasks(NAMED, dataset="Other")))
    result = build([folder], tmp_path / "pairs.jsonl", extract=False)
    once = result.report["boards_read_once"]
    assert len(once) == 1 and once[0]["board"] == "Task on Data"
    assert once[0]["read_from"].endswith("nlp-progress.json") and once[0]["rows"] == 10
    assert [o["file"].rsplit("/", 1)[-1] for o in once[0]["left_out"]] == ["nlpprogress.json"]
    assert result.report["entries_read"] == 20  # the left-out copy is not read
    assert all(len(ids) == 1 for ids in _checks(result.records)[2].values())


def test_an_unreadable_file_inside_a_folder_is_skipped_and_reported(tmp_path: Path) -> None:
    folder = tmp_path / "tasks"
    (folder / "examples").mkdir(parents=True)
    (folder / "board.json").write_text(json.dumps(_tasks(NAMED)))
    (folder / "examples" / "format.json").write_text('[{"task": "x", // a comment\n}]')
    result = build([folder], tmp_path / "pairs.jsonl", extract=False)
    [skipped] = result.report["files_skipped"]
    assert skipped["file"].endswith("format.json") and "invalid JSON" in skipped["reason"]


def test_whole_sota_extractor_folder_is_clean(upstream_dir: Path, tmp_path: Path) -> None:
    folder = upstream_dir / "sota-extractor" / "data" / "tasks"
    result = build([folder], tmp_path / "pairs.jsonl", extract=False)
    records = read_pairs(tmp_path / "pairs.jsonl")
    empty, multi_scored, ids_by_name = _checks(records)
    assert empty == 0  # 294 idea slots before
    assert multi_scored == 0  # 22 (board, idea) keys before
    assert [n for n, ids in ids_by_name.items() if len(ids) > 1] == []  # 13 boards before
    names = [" ".join(re.sub(r"[^a-z0-9]+", " ", n.lower()).split()) for n in ids_by_name]
    assert len(names) == len(set(names))  # not even under another spelling ("...-based:")
    once = {o["board"]: o for o in result.report["boards_read_once"]}
    assert once["Chunking on Penn Treebank"]["read_from"].endswith("nlp-progress.json")
    assert result.report["dropped_by_reason"]["no_method_or_paper"] > 0
    assert result.report["kept"] + result.report["dropped"] == result.report["entries_read"]


def test_entries_without_years_name_the_file_and_where_a_year_comes_from(tmp_path: Path) -> None:
    undated = [
        {"model_name": f"M{i}", "paper_title": f"P{i}", "metrics": {"Accuracy": 90.0 - i}}
        for i in range(6)
    ]
    source = tmp_path / "undated.json"
    source.write_text(json.dumps(_tasks(undated)))
    with pytest.raises(DataError) as raised:
        build([source], tmp_path / "pairs.jsonl", extract=False)
    message = str(raised.value)
    assert message.startswith(f"{source}: no idea pairs") and "no_year: 6" in message
    assert "paper_date" in message and "\n" not in message
    assert not (tmp_path / "pairs.jsonl").exists()
