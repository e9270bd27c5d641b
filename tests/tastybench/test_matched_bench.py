"""The README's matched-pairs figures equal what ``bench/matched_ci.py`` prints now, and the
README states the pairing's gap cap as the code has it."""

from __future__ import annotations

import sys
from pathlib import Path

from research_taste_evals.core.pairing import MAX_PAIR_GAP_DAYS
from research_taste_evals.core.text import replace_block

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import matched_ci  # noqa: E402


def test_the_readme_block_is_the_bench_output() -> None:
    """About half a minute: the bench is re-run (it is seeded, so its output is fixed)."""
    readme = matched_ci.README.read_text(encoding="utf-8")
    assert replace_block(readme, matched_ci.BLOCK, matched_ci.table()) == readme, (
        "run python bench/matched_ci.py --write"
    )


def test_the_readme_states_the_gap_cap_of_the_code() -> None:
    readme = matched_ci.README.read_text(encoding="utf-8")
    assert f"`MAX_PAIR_GAP_DAYS` = {MAX_PAIR_GAP_DAYS} days" in readme
