"""The idea-pairs README's figures are generated (bench/ideapairs_readme.py) and match what the
code computes now (issue #21 item 8: the bias CIs had drifted from the code)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste.builders.ideapairs.builder import build
from research_taste.docs.ideapairs_tables import (
    BASELINE_DEFAULTS,
    BASELINE_HEADER,
    BASELINE_RUNS,
    RANKING_RUNS,
    REFERENCE_SOURCE,
    baseline_row,
    build_facts,
)
from research_taste_evals.ideapairs.ideapairs import idea_pairs

README = Path(__file__).resolve().parents[2] / "src/research_taste_evals/ideapairs/README.md"


def _block(name: str) -> str:
    text = README.read_text(encoding="utf-8")
    begin, end = f"<!-- BEGIN generated: {name} -->\n", f"\n<!-- END generated: {name} -->"
    return text[text.index(begin) + len(begin) : text.index(end)]


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
@pytest.mark.upstream
def test_readme_build_facts_and_a_baseline_row_match_the_code(
    upstream_dir: Path, tmp_path: Path
) -> None:
    pairs = tmp_path / "pairs.jsonl"
    report = build([upstream_dir / REFERENCE_SOURCE], pairs, extract=False).report
    assert _block("build-facts") == build_facts(report)
    table = _block("baselines").splitlines()
    assert table[0] == "| " + " | ".join(BASELINE_HEADER) + " |"
    assert len(table) == 2 + len(BASELINE_RUNS)
    assert len(_block("ranking").splitlines()) == 2 + len(RANKING_RUNS)
    run = next(r for r in BASELINE_RUNS if r.model == "baseline/longer")
    log = inspect_eval(
        idea_pairs(pairs_file=str(pairs), **BASELINE_DEFAULTS),
        model=run.model,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    row = "| " + " | ".join(baseline_row(log, run.label)) + " |"
    assert row in table, row
