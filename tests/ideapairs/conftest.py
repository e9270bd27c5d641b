"""Idea-pair test fixtures: hand-made leaderboards, synthetic pairs files, an isolated cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from research_taste.builders.ideapairs.boards import Entry, Leaderboard
from research_taste_evals.ideapairs.pairs_schema import (
    SCHEMA_VERSION,
    IdeaRecord,
    PairRecord,
    write_pairs,
)

Row = tuple[str, int | None, dict[str, Any]]


@pytest.fixture(autouse=True)
def _fresh_generation_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Extractor calls are cached by Inspect; keep each test's cache to itself."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))


def board_from_rows(rows: list[Row], name: str = "Task on Data") -> Leaderboard:
    """A leaderboard of (method, year, cells) rows, best first; one paper per row."""
    entries = tuple(
        Entry(
            position=i,
            method=method,
            paper_title=f"Paper about {method}",
            paper_url=f"https://example.org/{name.replace(' ', '-')}/{method.replace(' ', '-')}",
            year=year,
            year_source="paper_date" if year else "none",
            cells=cells,
        )
        for i, (method, year, cells) in enumerate(rows)
    )
    return Leaderboard(
        board_id=name.lower().replace(" ", "-"),
        name=name,
        task=name.split(" on ")[0],
        dataset=name.split(" on ")[-1],
        description="A benchmark.",
        source="hand-made",
        entries=entries,
    )


@pytest.fixture(name="board_from_rows")
def board_from_rows_fixture() -> Callable[..., Leaderboard]:
    return board_from_rows


def synthetic_records(count: int, tiers: tuple[int, ...] = (1, 2, 3)) -> list[PairRecord]:
    """``count`` pairs (both orders) on ten leaderboards, ideas with distinct texts and years."""
    records = []
    for index in range(count):
        board = index % 10
        better = IdeaRecord(
            idea_id=f"i{index}b",
            text=f"Idea {index} better: " + "word " * (index % 7 + 1),
            text_source="method_and_title",
            method=f"M{index}b",
            paper_title=f"P{index}b",
            paper_url="",
            year=2015 + index % 5,
            unified_score=0.5 + (index % 17) / 40,
        )
        worse = better.model_copy(
            update={
                "idea_id": f"i{index}w",
                "text": f"Idea {index} worse: " + "word " * (index % 5 + 1),
                "year": 2015 + index % 3,
                "unified_score": 0.1 + (index % 13) / 40,
            }
        )
        shared: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "pair_id": f"pair{index}",
            "benchmark_id": f"b{board}",
            "benchmark": f"Board {board}",
            "goal": "Do well.",
            "goal_source": "template",
            "delta_sigma": 1.0,
            "tier": tiers[index % len(tiers)],
            "split": "test",
            "bucket": "2015-2019",
        }
        records.append(
            PairRecord.model_validate(
                shared
                | {"record_id": f"pair{index}-o", "order": "original", "label": "A", "y": 0}
                | {"idea_a": better, "idea_b": worse}
            )
        )
        records.append(
            PairRecord.model_validate(
                shared
                | {"record_id": f"pair{index}-s", "order": "swapped", "label": "B", "y": 1}
                | {"idea_a": worse, "idea_b": better}
            )
        )
    return records


@pytest.fixture
def synthetic_pairs(tmp_path: Path) -> Callable[[int], Path]:
    """Write ``count`` synthetic pairs to a file and return its path."""

    def write(count: int) -> Path:
        path = tmp_path / f"pairs-{count}.jsonl"
        write_pairs(synthetic_records(count), path)
        return path

    return write


def write_json(path: Path, payload: Any) -> Path:
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path
