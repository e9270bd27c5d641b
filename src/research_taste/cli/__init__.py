"""The ``research-taste`` command: list tasks, run the offline demo, sweeps and leaderboards.

Start-up stays fast (``bench/cli_startup.py``): nothing here imports Inspect, the tasks or a
model library. ``--help`` and ``list`` never do (``list`` reads the task and baseline
descriptions from the source, see ``cli/listing.py``); a command whose module imports heavy
code at its top (:data:`LAZY_COMMANDS`) is registered in full only when it is the one run, and
otherwise shows in ``--help`` by its one-line help alone.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from research_taste.cli import reporting as reporting_commands

# argparse's exit status for a bad command line; a bad file named on it is the same mistake.
USAGE_ERROR_EXIT = 2

# command -> (module whose register() adds it, its one-line help as that module declares it;
# tests/test_cli.py checks the two agree).
LAZY_COMMANDS = {
    "lft-export": (
        "research_taste.cli.lft",
        "sample feasible LFT solutions from logs into a file for experts",
    ),
    "lft-agreement": (
        "research_taste.cli.lft",
        "autograder-vs-expert agreement from a graded expert file",
    ),
    "tastybench": (
        "research_taste.cli.tastybench",
        "TastyBench: build a new paper set from the Semantic Scholar Graph API",
    ),
    "tastybench-extract": (
        "research_taste.cli.tastybench",
        "TastyBench: extract ideas/summaries with a model and write a representations CSV",
    ),
    "openreview": (
        "research_taste.cli.openreview",
        "OpenReview: build review-label TastyBench and PaperWeakness sets from a venue",
    ),
    "ideapairs": (
        "research_taste.cli.ideapairs",
        "Idea pairs: build a pairs file from leaderboards",
    ),
    "round": (
        "research_taste.cli.rounds",
        "Rounds: open a round before its labels exist, resolve labels, score the frozen answers",
    ),
    "register": (
        "research_taste.cli.register",
        "write each family's inspect_evals register entry (register/<name>/eval.yaml)",
    ),
    "local-model": (
        "research_taste.cli.local_model",
        "convert the packaged GGUF chat models once, for --model local/<name>",
    ),
}


def cmd_list(_: argparse.Namespace) -> int:
    from research_taste.cli.listing import baselines, tasks
    from research_taste.local.local_llm import LOCAL_MODELS

    print("Tasks (inspect eval research_taste_evals/<name>):")
    for name, description in tasks():
        print(f"  {name:<20} {description}")
    print("\nOffline baseline models (--model baseline/<name>):")
    for name, description in baselines():
        print(f"  {name:<20} {description}")
    print("\nPackaged open-weights models (--model local/<name>; the local-llm extra):")
    for name, model in sorted(LOCAL_MODELS.items()):
        print(f"  {name:<22} {model.package} ({model.license}), context {model.context_length}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from research_taste.cli.demo import closing, run_demo, summarize

    logs = run_demo(log_dir=args.log_dir, only=args.task or None)
    for line in summarize(logs):
        print(line)
    print(closing(args.log_dir, logs))
    return 0 if all(log.status == "success" for log in logs) else 1


def build_parser(command: str | None = "*") -> argparse.ArgumentParser:
    """The parser; ``command`` names the lazy command to register in full (``*``: all)."""
    parser = argparse.ArgumentParser(prog="research-taste", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="print every task with a one-line description")
    listing.set_defaults(func=cmd_list)
    demo = commands.add_parser("demo", help="run every task offline on demo data with baselines")
    demo.add_argument(
        "--log-dir", default="logs", help="where to write Inspect logs (default: logs)"
    )
    demo.add_argument("--task", action="append", help="run only this task (repeatable)")
    demo.set_defaults(func=cmd_demo)
    reporting_commands.register(commands)  # sweep, report, leaderboard
    full = {module for name, (module, _) in LAZY_COMMANDS.items() if command in ("*", name)}
    for module in sorted(full):
        importlib.import_module(module).register(commands)
    for name, (_, text) in LAZY_COMMANDS.items():
        if name not in commands.choices:  # shown in --help; never run in this form
            commands.add_parser(name, help=text, add_help=False)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    return next((arg for arg in argv if not arg.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; a data, config or missing-key error prints one line and exits 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(_command_of(argv)).parse_args(argv)
    try:
        return int(args.func(args))
    except Exception as error:
        # Ours (DataError, ConfigError, ... are UserErrors) and Inspect's PrerequisiteError (a
        # missing key or client package). Imported here: the command starts without them.
        from research_taste_evals.core.errors import UserError, is_inspect_prerequisite_error
        from research_taste_evals.core.failure_text import plain_message

        if not isinstance(error, UserError) and not is_inspect_prerequisite_error(error):
            raise

        # Inspect's own (a provider's missing key) carry rich markup: print them plain.
        message = str(error) if isinstance(error, UserError) else plain_message(error)
        print(f"research-taste {args.command}: error: {message}", file=sys.stderr)
        return USAGE_ERROR_EXIT


if __name__ == "__main__":
    sys.exit(main())
