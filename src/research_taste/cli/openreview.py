"""``research-taste openreview build``: a venue's submissions, reviews and PDFs as a
TastyBench-style review-label set and PaperWeakness items
(``research_taste.builders.openreview``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from research_taste.builders.openreview.builder import build, parse_after
from research_taste.builders.openreview.client import (
    BASE_ENV,
    DEFAULT_BASE,
    PASSWORD_ENV,
    USERNAME_ENV,
)
from research_taste.builders.openreview.venue import LABELS, PAGE_SIZE, VenueRequest

HELP = "OpenReview: build review-label TastyBench and PaperWeakness sets from a venue"


def _cmd_build(args: argparse.Namespace) -> int:
    request = VenueRequest(
        venue=args.venue,
        label=args.label,
        after=parse_after(args.after),
        pdfs=not args.skip_pdfs,
        page_size=args.page_size,
    )
    report = build(request, args.out, progress=not args.no_progress)
    out = Path(args.out)
    dropped = ", ".join(f"{reason} {count}" for reason, count in report["dropped"].items())
    print(
        f"wrote {out / 'papers.csv'}: {report['kept']} submissions of {report['venue']} "
        f"(fetched {report['fetch_date']}; label {report['label']}); dropped or set apart: "
        f"{dropped or 'none'}"
    )
    weakness = report["paper_weakness"]
    if weakness["built"]:
        left = ", ".join(f"{reason} {count}" for reason, count in weakness["dropped"].items())
        print(f"PaperWeakness: {weakness['kept']} papers; left out: {left or 'none'}")
    requests = report["requests"]
    print(
        f"requests: {requests['network']} sent, {requests['cached']} from the cache, "
        f"{requests['retried']} retried; report: {out / 'build_report.json'}"
    )
    print(
        f"use it with: inspect eval research_taste_evals/tastybench -T data_path={out} "
        "-T representation=abstract -T prompt=reviews -T schedule=matched"
    )
    if weakness["built"]:
        print(f"and: inspect eval research_taste_evals/paper_weakness -T data_path={out}")
    return 0


def register(commands: Any) -> None:
    """Add ``research-taste openreview build`` to the subcommands."""
    openreview = commands.add_parser("openreview", help=HELP)
    actions = openreview.add_subparsers(dest="action", required=True)
    command = actions.add_parser(
        "build",
        help="fetch a venue's submissions, reviews, decisions and PDFs; write the sets",
        description=f"Environment: {BASE_ENV} (default {DEFAULT_BASE}); optional login: "
        f"{USERNAME_ENV} and {PASSWORD_ENV} (both, or neither for public reads; the token is "
        "never printed or written). See docs/openreview.md.",
    )
    command.add_argument("--venue", required=True, help="venue id, e.g. ICLR.cc/2026/Conference")
    command.add_argument(
        "--out", required=True, help="folder to write (new, empty or an earlier build)"
    )
    command.add_argument(
        "--label",
        choices=LABELS,
        default="mean_rating",
        help="the TastyBench truth: mean reviewer rating (default) or the posted decision",
    )
    command.add_argument(
        "--after", help="keep only submissions dated after this month (YYYY-MM) or day"
    )
    command.add_argument(
        "--skip-pdfs", action="store_true", help="no PDFs: the TastyBench set only"
    )
    command.add_argument(
        "--page-size", type=int, default=PAGE_SIZE, help="submissions per request (1..1000)"
    )
    command.add_argument("--no-progress", action="store_true", help="no progress bars")
    command.set_defaults(func=_cmd_build)
