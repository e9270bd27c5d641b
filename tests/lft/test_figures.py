"""The README figures script: the grader check separates understanding from word matching."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from research_taste.docs.lft_figures import (
    END_MARKER,
    START_MARKER,
    metrics,
    report,
    run_all,
    write_readme,
)

README = Path(__file__).parents[2] / "src" / "research_taste_evals" / "lft" / "README.md"


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_grader_check_oracle_passes_and_keyword_grader_fails(tmp_path: Path) -> None:
    files = run_all(str(tmp_path))
    assert all(Path(f).parent == tmp_path for f in files.values())
    oracle = metrics(read_eval_log(str(files["check_oracle"])))
    keyword = metrics(read_eval_log(str(files["check_keyword"])))
    assert oracle["exact"] >= 0.9
    assert keyword["exact"] <= 0.5
    table = report(files)
    assert "| keyword (baseline/lft-grader) |" in table and "| answer-aware oracle | 1.00" in table
    # Every shipped task has a documents-alone row (what access=context material alone scores).
    assert table.count("| `") == 4
    # The README's tables are this script's output for the current code, not typed figures.
    readme = README.read_text(encoding="utf-8")
    for line in table.splitlines():
        assert line in readme, line


def test_write_readme_replaces_only_the_marked_block(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{START_MARKER}\nold\n{END_MARKER}\nafter\n", encoding="utf-8")
    write_readme("| new |", readme)
    assert readme.read_text(encoding="utf-8") == (
        f"before\n{START_MARKER}\n| new |\n{END_MARKER}\nafter\n"
    )
