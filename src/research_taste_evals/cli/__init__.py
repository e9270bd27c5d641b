"""The ``research-taste`` command: list tasks, run the offline demo, sweeps and leaderboards."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from inspect_ai._util.error import PrerequisiteError

from research_taste_evals.cli import ideapairs as ideapairs_commands
from research_taste_evals.cli import lft as lft_commands
from research_taste_evals.cli import reporting as reporting_commands
from research_taste_evals.cli import tastybench as tastybench_commands

# argparse's exit status for a bad command line; a bad file named on it is the same mistake.
USAGE_ERROR_EXIT = 2


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
    reporting_commands.register(commands)  # sweep, leaderboard
    lft_commands.register(commands)  # lft-export, lft-agreement (LFT human validation)
    tastybench_commands.register(commands)  # tastybench-extract
    ideapairs_commands.register(commands)  # ideapairs build
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; a data, config or missing-key error prints one line and exits 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except PrerequisiteError as error:  # DataError is one: the message names file and field
        from research_taste_evals.core.errors import UserError
        from research_taste_evals.core.roles import _plain

        # Inspect's own (a provider's missing key) carry rich markup: print them plain.
        message = str(error) if isinstance(error, UserError) else _plain(error)
        print(f"research-taste {args.command}: error: {message}", file=sys.stderr)
        return USAGE_ERROR_EXIT


if __name__ == "__main__":
    sys.exit(main())
