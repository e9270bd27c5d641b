"""``research-taste round cycle CONFIG [--now ISO-TIME]``: one run of the round cycle
(``research_taste.cli.cycle_run``; docs/rounds.md, "The cycle")."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

HELP = "one nightly run of the round cycle: open what is due, judge, resolve, score, publish"


def _moment(text: str) -> dt.datetime:
    """An argparse type: an ISO time (UTC when it names no zone)."""
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--now {text}: not an ISO time (e.g. 2027-01-04T02:17:00Z)"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def _cmd_cycle(args: argparse.Namespace) -> int:
    from research_taste.cli.cycle_run import run_cycle
    from research_taste.rounds.cycle_config import load_cycle_config

    config = load_cycle_config(args.config)  # every field checked before any request
    run = run_cycle(config, args.now, display=args.display)
    return 1 if run.failed else 0


def register_cycle(actions: Any) -> None:
    """Add ``research-taste round cycle`` to the ``round`` command's actions."""
    cycle = actions.add_parser(
        "cycle",
        help=HELP,
        description="Safe to run nightly (cron, CI): work already done is not asked again. "
        "See docs/rounds.md, 'The cycle'.",
    )
    cycle.add_argument("config", help="the cycle file (e.g. sweeps/cycle.yaml)")
    cycle.add_argument(
        "--now",
        type=_moment,
        help="the run's time, ISO (default: now); a replay or a test moves it, nothing sleeps",
    )
    cycle.add_argument(
        "--display",
        default="log",
        help="Inspect's display while judging (default log: warnings and errors)",
    )
    cycle.set_defaults(func=_cmd_cycle)
