"""``research-taste sweep`` and ``leaderboard``: run a models x tasks grid, tabulate its logs."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def cmd_sweep(args: argparse.Namespace) -> int:
    from research_taste_evals.cli.sweep import load_sweep, run_sweep

    return 0 if run_sweep(load_sweep(args.config)) else 1


def cmd_leaderboard(args: argparse.Namespace) -> int:
    from research_taste_evals.reporting.leaderboard import collect_rows, to_csv, to_markdown

    rows = collect_rows(args.log_dir)
    if not rows:
        print(f"no successful logs under {args.log_dir}", file=sys.stderr)
        return 1
    metrics = args.metric or None
    table = to_csv(rows, metrics) if args.format == "csv" else to_markdown(rows, metrics)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(table)
        print(f"wrote {args.out}")
    else:
        print(table, end="")
    if args.plot_dir:
        from research_taste_evals.reporting.plots import plot_metric

        for metric in metrics or []:
            for path in plot_metric(rows, metric, args.plot_dir):
                print(f"wrote {path}")
    return 0


def register(commands: Any) -> None:
    """Add ``sweep`` and ``leaderboard`` to the CLI's subcommands."""
    sweep = commands.add_parser("sweep", help="run a models x tasks grid from a YAML file")
    sweep.add_argument("config", help="sweep file (see sweeps/example.yaml)")
    sweep.set_defaults(func=cmd_sweep)
    board = commands.add_parser("leaderboard", help="tables (and plots) from a folder of logs")
    board.add_argument("--log-dir", default="logs", help="folder of Inspect logs (default: logs)")
    board.add_argument("--format", choices=["md", "csv"], default="md")
    board.add_argument("--metric", action="append", help="keep only this metric (repeatable)")
    board.add_argument("--out", help="write the table to this file instead of printing it")
    board.add_argument("--plot-dir", help="write one PNG per task for each --metric here")
    board.set_defaults(func=cmd_leaderboard)
