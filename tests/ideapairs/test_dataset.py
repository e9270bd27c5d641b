"""record_to_sample on a fixture pair and on a pair built from the upstream leaderboards."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_taste.builders.ideapairs.builder import build
from research_taste_evals.ideapairs.dataset import load_pairs, parse_tiers, record_to_sample
from research_taste_evals.ideapairs.pairs_schema import read_pairs

from .conftest import synthetic_records


def test_record_to_sample_holds_both_orders() -> None:
    original, swapped = synthetic_records(1)
    sample = record_to_sample(original, swapped)
    assert sample.id == original.pair_id
    assert sample.target == "A"
    assert isinstance(sample.input, str)
    assert original.idea_a.text in sample.input and original.goal in sample.input
    assert sample.input.index(original.idea_a.text) < sample.input.index(original.idea_b.text)
    meta = sample.metadata or {}
    assert meta["orders"]["swapped"] == {
        "idea_a": original.idea_b.idea_id,
        "idea_b": original.idea_a.idea_id,
        "label": "B",
    }
    assert meta["better_id"] == original.idea_a.idea_id
    assert meta["newer_better"] is (original.idea_a.year > original.idea_b.year or None)
    # Years and scores are metadata only: never shown to the model.
    assert str(original.idea_a.year) not in sample.input


def test_parse_tiers() -> None:
    assert parse_tiers(None) == (1, 2, 3)
    assert parse_tiers("2, 1") == (1, 2)
    assert parse_tiers(3) == (3,)
    with pytest.raises(ValueError, match="tiers"):
        parse_tiers("x")


def test_record_to_sample_on_upstream_pairs(upstream_dir: Path, tmp_path: Path) -> None:
    source = upstream_dir / "sota-extractor" / "data" / "tasks" / "nlp-progress.json"
    if not source.is_file():
        pytest.skip(f"{source} not found")
    out = tmp_path / "pairs.jsonl"
    build([source], out, extract=False)
    records = read_pairs(out)
    original = next(r for r in records if r.order == "original")
    swapped = next(r for r in records if r.pair_id == original.pair_id and r.order == "swapped")
    sample = record_to_sample(original, swapped)
    assert "Method: " in str(sample.input) and "Research goal:" in str(sample.input)
    loaded = load_pairs(out, "all", (1, 2, 3))
    assert len(loaded.dataset) == len(records) // 2
    assert loaded.metadata["idea_text_sources"] == ["method_and_title"]
