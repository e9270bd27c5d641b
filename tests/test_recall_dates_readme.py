"""The READMEs' item-date blocks (bench/recall_dates.py) match what the code computes now."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import recall_dates  # noqa: E402

from research_taste_evals.core.text import replace_block  # noqa: E402


def _current(readme: Path, content: str) -> bool:
    text = readme.read_text(encoding="utf-8")
    return replace_block(text, recall_dates.BLOCK, content) == text


def test_aaar_block_matches_the_code() -> None:
    assert _current(recall_dates.ROOT / "aaar/README.md", recall_dates.aaar_block(None))


@pytest.mark.upstream
def test_idea_pairs_block_matches_the_reference_build(upstream_dir: Path, tmp_path: Path) -> None:
    block = recall_dates.idea_pairs_block(upstream_dir, tmp_path)
    assert _current(recall_dates.ROOT / "ideapairs/README.md", block)
    assert "papers of 2004 to 2020" in block
