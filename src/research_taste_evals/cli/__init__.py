"""The ``research-taste`` command: list tasks, run the offline demo, sweeps and leaderboards."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def cmd_list(_: argparse.Namespace) -> int:
    from research_taste_evals._registry import TASKS
    from research_taste_evals.core.baselines import registered_baselines

    print("Tasks (inspect eval research_taste_evals/<name>):")
    for task_fn in TASKS:
        print(f"  {task_fn.__name__:<20} {_first_line(task_fn.__doc__)}")
    print("\nOffline baseline models (--model baseline/<name>):")
    for name, baseline in sorted(registered_baselines().items()):
        print(f"  {name:<20} {baseline.description}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from research_taste_evals.cli.demo import run_demo, summarize

    logs = run_demo(log_dir=args.log_dir, only=args.task or None)
    for log in logs:
        print(summarize(log))
    print(
        f"logs written to {args.log_dir}/ (open them with: inspect view --log-dir {args.log_dir})"
    )
    return 0 if all(log.status == "success" for log in logs) else 1


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="research-taste", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="print every task with a one-line description")
    listing.set_defaults(func=cmd_list)
    demo = commands.add_parser("demo", help="run every task offline on demo data with baselines")
    demo.add_argument(
        "--log-dir", default="logs", help="where to write Inspect logs (default: logs)"
    )
    demo.add_argument("--task", action="append", help="run only this task (repeatable)")
    demo.set_defaults(func=cmd_demo)
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
    from research_taste_evals.lft.human_validation import add_cli_commands

    add_cli_commands(commands)  # lft-export, lft-agreement (LFT human validation)
    from research_taste_evals.tastybench.tastybench_extract import (
        add_cli_commands as add_tastybench,
    )

    add_tastybench(commands)  # tastybench-extract
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
