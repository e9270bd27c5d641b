"""``research-taste sweep``, ``report`` and ``leaderboard``: run a grid, publish its logs.

Nothing heavy is imported at module level (Inspect, the tasks, plotting): ``research-taste
--help`` must stay fast, so each command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import difflib
import shlex
import sys
from pathlib import Path
from typing import Any

USAGE_ERROR = 2
# Inspect's display for sweeps: quiet (its other displays print every run's metrics, ~60 lines
# a run); the sweep ends with its own table of every run.
SWEEP_DISPLAY = "log"
PARTIAL_HELP = "rank partial runs (fewer samples scored than asked for) with the others"
MIN_PAIRS = 50  # reporting.round_board.DEFAULT_MIN_PAIRS (not imported: --help stays fast)
MIN_PAIRS_HELP = (
    f"a round enters the adjusted rounds ranking once this many of its resolved, untied pairs "
    f"were judged by two or more models (default {MIN_PAIRS})"
)


def _min_pairs(text: str) -> int:
    """``--min-pairs``: a whole number of at least 1 (argparse turns the error into one line)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pairs of at least 1")
    return value


def cmd_sweep(args: argparse.Namespace) -> int:
    from research_taste.cli.sweep import EntryError, parse_shard, plan, run_sweep, sweep_status
    from research_taste.cli.sweep_checks import check_credentials, check_log_dir
    from research_taste.cli.sweep_estimate import dry_run_text
    from research_taste.cli.sweep_load import load_sweep
    from research_taste_evals.core.data import DataError

    try:
        config = load_sweep(args.config)
        shard = parse_shard(args.shard) if args.shard else None
        if args.log_dir:
            check_log_dir("--log-dir", args.log_dir)
            config = config.model_copy(update={"log_dir": args.log_dir})
        if args.log_dir_allow_dirty:
            config = config.model_copy(update={"log_dir_allow_dirty": True})
        if args.dry_run:
            print(dry_run_text(config, shard))
            return 0
        done = sweep_status(config, plan(config, shard))
        if done.runs and done.success:
            print(f"nothing to run: {len(done.runs)} runs complete in {config.log_dir}")
            print(done.table())
            return 0
        check_credentials(args.config, config)  # a missing key names the entry, not mid-run
        # Builds every task before any run starts; Inspect's display: --display (default log).
        outcome = run_sweep(config, shard, args.display)
    except EntryError as error:
        print(f"research-taste {args.command}: error: {args.config}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except DataError as error:
        print(f"research-taste {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    print(outcome.table())
    if not outcome.success:  # what is unfinished and how to resume, in every display mode
        print(
            f"research-taste {args.command}: {outcome.summary(_resume_command(args))}",
            file=sys.stderr,
        )
    return outcome.exit_code()


def _resume_command(args: argparse.Namespace) -> str:
    """The command that resumes this sweep: the same one again."""
    parts = ["research-taste", "sweep", args.config]
    if args.shard:
        parts += ["--shard", args.shard]
    if args.log_dir:
        parts += ["--log-dir", args.log_dir]
    if args.log_dir_allow_dirty:
        parts += ["--log-dir-allow-dirty"]
    return shlex.join(parts)


def check_log_folder(log_dir: str) -> None:
    """A local log folder must exist (a remote one, ``s3://...``, is read as it is).

    Raises:
        DataError: naming the folder, and the sibling folder its name is closest to.
    """
    from research_taste_evals.core.data import DataError

    path = Path(log_dir).expanduser()
    if "://" in log_dir or path.is_dir():
        return
    parent = path.parent if path.parent.is_dir() else None
    siblings = [p.name for p in parent.iterdir() if p.is_dir()] if parent else []
    close = difflib.get_close_matches(path.name, siblings, 1, 0.6)
    hint = f"did you mean {path.parent / close[0]}?" if close else "give the sweep's log_dir"
    raise DataError(f"{log_dir}: no such folder; {hint}")


def check_metric_names(requested: list[str] | None, known: list[str]) -> None:
    """``reporting.leaderboard.check_metric_names`` (imported when a command runs)."""
    from research_taste.reporting.leaderboard import check_metric_names as check

    check(requested, known)


def cmd_report(args: argparse.Namespace) -> int:
    from research_taste.reporting.report import write_report
    from research_taste_evals.core.data import DataError

    try:
        check_log_folder(args.log_dir)
        files = write_report(
            args.log_dir,
            args.out,
            metrics=args.metric or None,
            eval_report=args.eval_report,
            bundle=not args.no_viewer,
            force=args.force,
            include_partial=args.include_partial,
            min_pairs=args.min_pairs,
        )
    except DataError as error:
        print(f"research-taste {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    print(f"wrote {files.out_dir}: {', '.join(files.files)}; sections:")
    print("  " + ", ".join(files.tasks))
    if files.excluded:
        print(f"{len(files.excluded)} logs excluded (see excluded.csv)")
    return 0


def leaderboard_folder(folder: str | None, log_dir: str | None) -> str:
    """The log folder, given positionally as to ``report`` or as ``--log-dir`` (default logs).

    Raises:
        DataError: both are given and name different folders.
    """
    from research_taste_evals.core.data import DataError

    if folder is not None and log_dir is not None and folder != log_dir:
        raise DataError(
            f"the log folder is given twice ({folder} and --log-dir {log_dir}); give it once"
        )
    return folder or log_dir or "logs"


def cmd_leaderboard(args: argparse.Namespace) -> int:
    from research_taste.reporting.leaderboard import check_metrics, leaderboards_markdown
    from research_taste.reporting.round_logs import split_round_logs
    from research_taste.reporting.rounds import rounds_section, section_markdown
    from research_taste.reporting.runs import newest_per_row, read_runs
    from research_taste_evals.core.data import DataError

    try:
        log_dir = leaderboard_folder(args.folder, args.log_dir)
        check_log_folder(log_dir)
        runs, excluded = read_runs(log_dir)
        excluded = split_round_logs(excluded, log_dir)[1]  # round logs: the Rounds section's
        rounds = rounds_section(log_dir, args.min_pairs)  # docs/rounds.md
        if not runs and rounds is None:
            from research_taste.reporting.no_runs import no_runs_message

            raise DataError(no_runs_message(log_dir, excluded))
        check_metrics(args.metric, runs)
    except DataError as error:
        print(f"research-taste {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    if runs:
        rows = newest_per_row(runs)
        print(leaderboards_markdown(rows, args.metric or None, args.include_partial), end="")
    if rounds is not None:
        print(("\n" if runs else "") + section_markdown(rounds), end="")
    if excluded:
        print(f"\n{len(excluded)} logs excluded:")
        for entry in excluded:
            print(f"  {entry.log.rsplit('/', 1)[-1]}: {entry.reason}")
    return 0


def register(commands: Any) -> None:
    """Add ``sweep``, ``report`` and ``leaderboard`` to the CLI's subcommands."""
    sweep = commands.add_parser("sweep", help="run a models x tasks grid from a YAML file")
    sweep.add_argument("config", help="sweep file (see sweeps/demo.yaml, sweeps/example.yaml)")
    sweep.add_argument(
        "--dry-run",
        action="store_true",
        help="print the grid with each run's samples, model calls, tokens and cost (estimates)",
    )
    sweep.add_argument(
        "--shard", help="run only shard i of n (i/n), e.g. one per machine into one log folder"
    )
    sweep.add_argument("--log-dir", help="override the sweep file's log_dir (e.g. s3://...)")
    sweep.add_argument(
        "--log-dir-allow-dirty",
        action="store_true",
        help="run into a log folder holding other logs too (Inspect's option of that name; the "
        "sweep file's log_dir_allow_dirty: true)",
    )
    sweep.add_argument(
        "--display",
        default=SWEEP_DISPLAY,
        choices=("full", "conversation", "rich", "plain", "log", "none"),
        help=f"Inspect's display while the runs go (default {SWEEP_DISPLAY}: warnings and "
        "errors only; full: Inspect's live progress and each run's metrics)",
    )
    sweep.set_defaults(func=cmd_sweep)

    report = commands.add_parser(
        "report", help="leaderboards, CSV, plots and index.html from a folder of logs"
    )
    report.add_argument("log_dir", help="folder of Inspect logs (local or s3://)")
    report.add_argument(
        "--out",
        required=True,
        help="report folder to write: new, empty or a previous report (only its files are "
        "replaced); never '.', a repository or the log folder",
    )
    report.add_argument(
        "--force",
        action="store_true",
        help="add the report to a non-empty folder that is not a previous report (deletes nothing)",
    )
    report.add_argument("--metric", action="append", help="show this metric (repeatable)")
    report.add_argument(
        "--eval-report",
        action="store_true",
        help="also write evaluation_report.md (inspect_evals convention)",
    )
    report.add_argument(
        "--no-viewer", action="store_true", help="skip bundling the inspect view transcripts"
    )
    report.add_argument("--include-partial", action="store_true", help=PARTIAL_HELP)
    report.add_argument("--min-pairs", type=_min_pairs, default=MIN_PAIRS, help=MIN_PAIRS_HELP)
    report.set_defaults(func=cmd_report)

    board = commands.add_parser("leaderboard", help="print the leaderboards of a log folder")
    board.add_argument(
        "folder", nargs="?", help="folder of Inspect logs, as for report (default: logs)"
    )
    board.add_argument("--log-dir", help="the same folder, named as an option (either form)")
    board.add_argument("--metric", action="append", help="show this metric (repeatable)")
    board.add_argument("--include-partial", action="store_true", help=PARTIAL_HELP)
    board.add_argument("--min-pairs", type=_min_pairs, default=MIN_PAIRS, help=MIN_PAIRS_HELP)
    board.set_defaults(func=cmd_leaderboard)
