"""Regenerate the idea-pairs README's figures (no figure is typed by hand).

Builds the reference pairs (sota-extractor ``nlp-progress.json``, ``--no-extract``, default
seed), runs the offline baselines of ``readme_tables`` on them (``split=all``, the paper
prompt, B = 10,000 bias resamples; and ``mode=ranking``), and rewrites the README's generated
blocks (``build-facts``, ``baselines``, ``ranking``). ``--check`` rewrites nothing and exits 1
when the README differs from what the code produces now.

Run: ``python bench/ideapairs_readme.py --upstream ../shared/datasets/upstream`` (a few
minutes on two cores).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from inspect_ai import eval as inspect_eval

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste.builders.ideapairs.builder import build
from research_taste.docs.ideapairs_tables import (
    BASELINE_DEFAULTS,
    BASELINE_HEADER,
    BASELINE_RUNS,
    RANKING_HEADER,
    RANKING_RUNS,
    REFERENCE_SOURCE,
    baseline_row,
    build_facts,
    ranking_row,
    table,
)
from research_taste_evals.core.text import replace_block
from research_taste_evals.ideapairs.ideapairs import idea_pairs

README = Path(__file__).resolve().parents[1] / "src/research_taste_evals/ideapairs/README.md"
FAST = {"display": "none", "max_connections": 1000, "max_samples": 1000, "log_realtime": False}


def generate(upstream: Path, work: Path) -> dict[str, str]:
    """The content of every generated block."""
    pairs = work / "pairs.jsonl"
    report = build([upstream / REFERENCE_SOURCE], pairs, extract=False).report
    blocks = {"build-facts": build_facts(report)}
    for name, runs, header, row in (
        ("baselines", BASELINE_RUNS, BASELINE_HEADER, baseline_row),
        ("ranking", RANKING_RUNS, RANKING_HEADER, ranking_row),
    ):
        rows = []
        for run in runs:
            task = idea_pairs(pairs_file=str(pairs), **{**BASELINE_DEFAULTS, **run.args})
            log = inspect_eval(task, model=run.model, log_dir=str(work / "logs"), **FAST)[0]
            rows.append(row(log, run.label))
        blocks[name] = table(header, rows)
    return blocks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", type=Path, default=Path("../shared/datasets/upstream"))
    parser.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        blocks = generate(args.upstream, Path(work))
    text = README.read_text(encoding="utf-8")
    updated = text
    for name, content in blocks.items():
        updated = replace_block(updated, name, content)
    if args.check:
        print("README up to date" if updated == text else "README differs from the code")
        return 0 if updated == text else 1
    README.write_text(updated, encoding="utf-8")
    print(f"rewrote {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
