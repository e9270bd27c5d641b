"""``research-taste ideapairs build`` on inputs that cannot make pairs: exit 2 with one line
naming the argument or file, and nothing written (no pairs file, no report, no log folder)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from research_taste.cli import USAGE_ERROR_EXIT, main
from research_taste_evals.ideapairs.demo import demo_leaderboards

Build = Callable[[Path], list[str]]


def _json(content: object, name: str = "boards.json") -> Build:
    def build(tmp: Path) -> list[str]:
        (tmp / name).write_text(json.dumps(content))
        return [str(tmp / name), "--no-extract"]

    return build


def _markdown(text: str) -> Build:
    def build(tmp: Path) -> list[str]:
        (tmp / "board.md").write_text(text)
        return [str(tmp / "board.md"), "--no-extract"]

    return build


def _empty_folder(tmp: Path) -> list[str]:
    (tmp / "boards").mkdir()
    (tmp / "boards" / "notes.txt").write_text("not a leaderboard")
    return [str(tmp / "boards"), "--no-extract"]


def _one_row_each() -> list[dict]:
    boards = demo_leaderboards()
    for task in boards:
        for dataset in task["datasets"]:
            dataset["sota"]["rows"] = dataset["sota"]["rows"][:1]
    return boards


def _good(*extra: str) -> Build:
    def build(tmp: Path) -> list[str]:
        (tmp / "boards.json").write_text(json.dumps(demo_leaderboards()))
        return [str(tmp / "boards.json"), *extra]

    return build


def _out_is_a_folder(tmp: Path) -> list[str]:
    (tmp / "pairs.jsonl").mkdir()
    return _good("--no-extract")(tmp)


NO_TABLE = "has no leaderboard in it"
CASES: list[tuple[str, Build, tuple[str, ...]]] = [
    ("empty-json-list", _json([]), ("boards.json", NO_TABLE)),
    ("json-tasks-without-rows", _json([{"task": "t", "datasets": []}]), ("boards.json", NO_TABLE)),
    ("markdown-without-tables", _markdown("# Task\n\nProse only.\n"), ("board.md", NO_TABLE)),
    (
        "markdown-without-paper-column",
        _markdown("# Task\n\n| Model | Score |\n| --- | --- |\n| A | 1 |\n| B | 2 |\n"),
        ("board.md", NO_TABLE, "Paper"),
    ),
    ("folder-without-leaderboards", _empty_folder, ("boards", "no .json or .md")),
    (
        "zero-pairs",
        _json(_one_row_each()),
        ("no idea pairs", "too_few_entries", "Nothing was written"),
    ),
    ("out-is-a-folder", _out_is_a_folder, ("--out", "pairs.jsonl", "is a folder")),
    (
        "unknown-extractor-provider",
        _good("--extractor", "nosuch/x"),
        ("--extractor nosuch/x", "not recognized"),
    ),
    ("no-extractor", _good(), ("--extractor", "--no-extract")),
]


@pytest.mark.parametrize(("build", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_build_that_cannot_make_pairs_exits_2_and_writes_nothing(
    build: Build, expected: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = build(tmp_path)
    out, report, logs = tmp_path / "pairs.jsonl", tmp_path / "report.json", tmp_path / "logs"
    before = sorted(p.name for p in tmp_path.iterdir())
    command = ["ideapairs", "build", *argv, "--out", str(out), "--report", str(report)]
    assert main([*command, "--log-dir", str(logs)]) == USAGE_ERROR_EXIT
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("research-taste ideapairs: error: "), err
    for fragment in expected:
        assert fragment in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "the failed build wrote files"
