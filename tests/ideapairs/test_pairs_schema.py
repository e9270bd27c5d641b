"""The pairs file schema: validation errors name the file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.pairs_schema import read_pairs, write_pairs

from .conftest import synthetic_records


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    write_pairs(synthetic_records(3), path)
    assert read_pairs(path) == synthetic_records(3)
    assert not (tmp_path / "pairs.jsonl.part").exists()


def test_bad_field_names_line_record_and_field(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    write_pairs(synthetic_records(2), path)
    records = _lines(path)
    records[2]["tier"] = 4
    with pytest.raises(DataError, match=r"pairs.jsonl: line 3 \(record pair1-o\): field 'tier'"):
        read_pairs(_write(path, records))


def test_label_must_match_scores(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    write_pairs(synthetic_records(1), path)
    records = _lines(path)
    records[0]["label"], records[0]["y"] = "B", 1
    with pytest.raises(DataError, match="line 1 .*higher unified_score"):
        read_pairs(_write(path, records))


def test_both_orders_must_be_present_and_mirrored(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    write_pairs(synthetic_records(1), path)
    original, swapped = _lines(path)
    with pytest.raises(DataError, match="needs both an original and a swapped"):
        read_pairs(_write(path, [original]))
    swapped["idea_a"], swapped["idea_b"] = original["idea_a"], original["idea_b"]
    swapped["label"], swapped["y"] = "A", 0
    with pytest.raises(DataError, match="does not reverse the ideas"):
        read_pairs(_write(path, [original, swapped]))
    with pytest.raises(DataError, match="does not exist"):
        read_pairs(tmp_path / "absent.jsonl")
