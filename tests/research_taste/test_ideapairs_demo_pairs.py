"""The idea-pairs demo ships the builder's own output: rebuilding it gives the same bytes."""

from pathlib import Path

from research_taste.builders.ideapairs.demo_pairs import build_demo_pairs
from research_taste_evals.ideapairs.demo import DEMO_PAIRS_FILE


def test_shipped_demo_pairs_are_what_the_builder_writes(tmp_path: Path) -> None:
    rebuilt = build_demo_pairs(tmp_path)
    assert rebuilt.read_bytes() == DEMO_PAIRS_FILE.read_bytes(), (
        "stale: run python -m research_taste.builders.ideapairs.demo_pairs"
    )
