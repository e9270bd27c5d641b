"""docs/sweeps-and-reports.md's excerpt of the demo report, rendered by the report's own code.

    research-taste sweep sweeps/demo.yaml --log-dir logs/readme-demo   # the demo sweep
    python bench/demo_report_excerpt.py --import logs/readme-demo --write
    python bench/demo_report_excerpt.py            # print the excerpt from the saved headers

``--import`` keeps the headers of the excerpt's logs (the ``eqinfer`` runs of the demo sweep)
in ``tests/readme_logs/demo-report`` (``bench/readme_logs.py``); the excerpt is the
``eqinfer`` table of ``report.md`` (``reporting.leaderboard``: the same columns, ranking and
formatting ``research-taste report`` writes), re-rendered from those headers.
``tests/test_readme_figures.py`` fails when that page's block differs from it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from readme_logs import load_headers, save_headers, show_block
from research_taste.reporting.leaderboard import columns_for, markdown_table, table_rows
from research_taste.reporting.runs import newest_per_row, read_runs, run_of

README = Path(__file__).resolve().parents[1] / "docs" / "sweeps-and-reports.md"
BLOCK = "demo-report"
FAMILY = "demo-report"  # the folder of saved headers below tests/readme_logs
TASK = "eqinfer"


def excerpt() -> str:
    """The ``eqinfer`` leaderboard of the demo report, from the saved headers."""
    runs = [run_of(log, f"{key}.json") for key, log in load_headers(FAMILY).items()]
    if not runs:
        raise SystemExit(f"no saved headers for {FAMILY!r}: run with --import <demo sweep logs>")
    return markdown_table(table_rows(TASK, runs, columns_for(TASK, runs, None)))


def import_logs(log_dir: str) -> None:
    """Save the headers of the ``eqinfer`` runs the report would show from ``log_dir``."""
    from inspect_ai.log import read_eval_log

    runs, _ = read_runs(log_dir)
    chosen = [run for run in newest_per_row(runs) if run.task == TASK]
    if not chosen:
        raise SystemExit(f"{log_dir}: no {TASK} run to take the excerpt from")
    logs = {run.model.replace("/", "_"): read_eval_log(run.log, header_only=True) for run in chosen}
    print(f"saved {len(logs)} headers in {save_headers(logs, FAMILY)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--import", dest="source", help="a demo sweep's log folder")
    parser.add_argument("--write", action="store_true", help="replace the block in its doc page")
    args = parser.parse_args()
    if args.source:
        import_logs(args.source)
    show_block(README, BLOCK, excerpt(), args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
