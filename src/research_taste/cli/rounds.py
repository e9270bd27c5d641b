"""``research-taste round open|resolve|score|publish``: rounds judged before their labels exist
(``research_taste.rounds``, docs/rounds.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from research_taste.cli.reporting import MIN_PAIRS, MIN_PAIRS_HELP
from research_taste.rounds import JUDGE_DAYS, SAMPLE_SEED

HELP = "Rounds: open a round before its labels exist, resolve labels, score the frozen answers"


def _at_least(low: int, flag: str) -> Any:
    """An argparse type: a whole number of at least ``low`` (else one sentence naming ``flag``)."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = low - 1
        if number < low:
            raise argparse.ArgumentTypeError(f"{flag} {text}: a whole number of at least {low}")
        return number

    return parse


def _budget(flag: str) -> Any:
    """An argparse type: a request budget ``N/PERIOD`` (``builders/limits.py``), else one
    sentence naming ``flag``."""

    def parse(text: str) -> Any:
        from research_taste.builders.limits import parse_budget
        from research_taste_evals.core.data import DataError

        try:
            return parse_budget(text, flag)
        except DataError as error:
            raise argparse.ArgumentTypeError(str(error)) from error

    return parse


def _add_budgets(parser: argparse.ArgumentParser) -> None:
    """``--budget`` and ``--pdf-budget``: OpenReview's request budgets (docs/rounds.md, Limits)."""
    parser.add_argument(
        "--budget",
        type=_budget("--budget"),
        help="OpenReview: at most N requests a period, N/PERIOD (default 90/30m, or "
        "OPENREVIEW_BUDGET)",
    )
    parser.add_argument(
        "--pdf-budget",
        type=_budget("--pdf-budget"),
        help="OpenReview: at most N PDFs a period (default 36/1h, or OPENREVIEW_PDF_BUDGET)",
    )


# Each source's own ``round open`` options: given to another source they would do nothing.
SOURCE_OPTIONS = {
    "arxiv": ("--category", "--days", "--window-months"),
    "openreview": ("--venue", "--no-pdfs", "--max-items", "--seed", "--budget", "--pdf-budget"),
    "simulated": ("--max-items", "--seed"),
}


def _refuse_other_sources_options(args: argparse.Namespace) -> None:
    from research_taste_evals.core.errors import ConfigError

    own = SOURCE_OPTIONS[args.source]
    for source, flags in SOURCE_OPTIONS.items():
        given = [
            f
            for f in flags
            if f not in own and getattr(args, f[2:].replace("-", "_")) not in (None, False)
        ]
        if source != args.source and given:
            raise ConfigError(
                f"{given[0]}: a --source {source} option, and this round's source is "
                f"{args.source}; drop it (or give --source {source})"
            )


def _open(args: argparse.Namespace) -> dict[str, Any]:
    from research_taste_evals.core.errors import ConfigError

    _refuse_other_sources_options(args)
    if args.source == "simulated":
        from research_taste.rounds.simulated import DEFAULT_ITEMS, open_simulated_round

        return open_simulated_round(
            args.out,
            max_items=DEFAULT_ITEMS if args.max_items is None else args.max_items,
            seed=SAMPLE_SEED if args.seed is None else args.seed,
            judge_days=args.judge_days,
        )
    if args.source == "arxiv":
        from research_taste.rounds.arxiv import DEFAULT_DAYS, DEFAULT_WINDOW_MONTHS, open_arxiv

        if not args.category:
            raise ConfigError("--source arxiv needs --category <arXiv category, e.g. cs.LG>")
        window = DEFAULT_WINDOW_MONTHS if args.window_months is None else args.window_months
        return open_arxiv(
            args.category,
            DEFAULT_DAYS if args.days is None else args.days,
            args.out,
            window_months=window,
            judge_days=args.judge_days,
        )
    from research_taste.rounds.openreview import open_openreview
    from research_taste.rounds.progress import Fetching

    if not args.venue:
        raise ConfigError("--source openreview needs --venue <venue id>")
    if args.seed is not None and args.max_items is None:
        raise ConfigError("--seed: the seed of the --max-items sample; give --max-items N too")
    return open_openreview(
        args.venue,
        args.out,
        pdfs=not args.no_pdfs,
        progress=True,
        max_items=args.max_items,
        seed=SAMPLE_SEED if args.seed is None else args.seed,
        judge_days=args.judge_days,
        fetching=Fetching(args.budget, args.pdf_budget),
    )


def judging_commands(out: str, manifest: dict[str, Any]) -> list[str]:
    """The command of each round task that can judge the round (its spec's ``rounds``), with
    ``<model>``, ``<log dir>`` and the spec's own placeholders for the user to fill."""
    from research_taste_evals.core.families import task_specs

    return [
        f"inspect eval research_taste_evals/{spec.task} -T round={out}{spec.rounds.hint} "
        "--model <model> --log-dir <log dir>"
        for spec in task_specs().values()
        if spec.rounds is not None
        and (spec.rounds.requires is None or spec.rounds.requires in manifest)
    ]


def _cmd_open(args: argparse.Namespace) -> int:
    manifest = _open(args)
    left = ", ".join(f"{k} {v}" for k, v in manifest["counts"]["left_out"].items()) or "none"
    commands = "".join(f"\n  {line}" for line in judging_commands(args.out, manifest))
    print(
        f"opened {args.out}: {manifest['items']} items, {manifest['pairs']} pairs "
        f"(left out: {left}); judge it with:{commands}"
    )
    return 0


def _cmd_resolve(args: argparse.Namespace) -> int:
    from research_taste.rounds.arxiv import resolve_arxiv
    from research_taste.rounds.openreview import resolve_openreview
    from research_taste.rounds.simulated import refuse_advance, resolve_simulated
    from research_taste_evals.core.data import DataError
    from research_taste_evals.core.rounds import (
        ROUND_FILE,
        load_round,
        paired_counts,
        read_labels,
        read_manifest,
    )

    resolvers: dict[str, Callable[..., dict[str, Any]]] = {
        "openreview": resolve_openreview,
        "arxiv": resolve_arxiv,
        "simulated": resolve_simulated,
    }
    source = read_manifest(args.round).get("source")
    if source not in resolvers:  # a round of another source has no labels to fetch
        raise DataError(
            f"{Path(args.round) / ROUND_FILE}: field 'source' is {source!r}: `round resolve` "
            f"fetches the labels of rounds `round open` opened from {', '.join(resolvers)}"
        )
    budgets = {"budget": args.budget, "pdf_budget": args.pdf_budget}
    if source != "openreview" and any(budgets.values()):
        raise DataError(
            f"--budget, --pdf-budget: OpenReview's budgets, and {args.round} is an {source} "
            "round (Semantic Scholar's is S2_BUDGET: docs/rounds.md, Limits)"
        )
    if args.advance_days is not None:
        refuse_advance(source, args.round)
        entry = resolve_simulated(args.round, advance_days=args.advance_days)
    elif source == "openreview":
        from research_taste.rounds.progress import Fetching

        entry = resolve_openreview(args.round, progress=True, fetching=Fetching(**budgets))
    else:
        entry = resolvers[source](args.round, progress=True)
    round_ = load_round(args.round)
    print(
        f"wrote {args.round}/{entry['file']}: labels version {entry['version']}, "
        f"{paired_counts(round_, read_labels(Path(args.round) / entry['file'])).text()}"
        f"{left_out_text(entry)}; score with: research-taste round "
        f"score {args.round} --log-dir <log dir>"
    )
    return 0


def left_out_text(entry: dict[str, Any]) -> str:
    """What the resolve left out, by reason, from its version's entry (reviews refused, items
    left pending for want of a label time, notes the listing repeated); '' when nothing."""
    parts = [f"{reason} {n}" for reason, n in sorted((entry.get("reviews_left_out") or {}).items())]
    if entry.get("label_time_unknown"):
        parts.append(f"{entry['label_time_unknown']} items pending with no label time")
    if entry.get("duplicate_notes"):
        parts.append(f"{len(entry['duplicate_notes'])} notes listed twice (read once)")
    return f" (left out: {', '.join(parts)})" if parts else ""


def _cmd_score(args: argparse.Namespace) -> int:
    from research_taste.rounds.score import score_round
    from research_taste_evals.core.errors import ConfigError

    if "://" not in args.log_dir and not Path(args.log_dir).is_dir():  # a remote one is listed
        raise ConfigError(f"--log-dir {args.log_dir}: no such folder (the judgment logs' folder)")
    unreadable: list[str] = []
    scored = score_round(args.round, args.log_dir, args.labels, unreadable)
    for entry in scored:
        print(f"{entry.model}: {entry.scored}")
    if not scored:
        print(f"no judgment log of {args.round} left to score under {args.log_dir}")
    for sentence in unreadable:  # the other logs were scored; these are named and counted
        print(f"research-taste round: skipped {sentence}", file=sys.stderr)
    if unreadable:
        print(
            f"research-taste round: error: {len(unreadable)} logs skipped (named above), "
            f"{len(scored)} scored",
            file=sys.stderr,
        )
        return 1
    return 0


def _cmd_publish(args: argparse.Namespace) -> int:
    from research_taste.reporting.round_publish import publish_rounds
    from research_taste_evals.core.errors import ConfigError

    if args.log_dir and "://" not in args.log_dir and not Path(args.log_dir).is_dir():
        raise ConfigError(f"--log-dir {args.log_dir}: no such folder (the judgment logs' folder)")
    rounds = [Path(r) for r in args.round]
    done = publish_rounds(rounds, args.log_dir, Path(args.out), min_pairs=args.min_pairs)
    withheld = ", ".join(f"{name} {n}" for name, n in done.withheld.items()) or "none"
    boards = ", ".join(done.leaderboards) or "none (no --log-dir or no scored log)"
    print(
        f"published {len(done.rounds)} round(s) into {args.out} (version {done.version}, "
        f"{done.files} files): {done.picks} picks; leaderboards: {boards}; items whose texts "
        f"were withheld for their licence: {withheld}"
    )
    for sentence in done.unreadable:
        print(f"research-taste round: skipped {sentence}", file=sys.stderr)
    return 1 if done.unreadable else 0


def register(commands: Any) -> None:
    """Add ``research-taste round open|resolve|score|publish``."""
    rounds = commands.add_parser("round", help=HELP)
    actions = rounds.add_subparsers(dest="action", required=True)
    from research_taste.cli.cycle import register_cycle

    register_cycle(actions)  # round cycle (cli/cycle.py)
    opener = actions.add_parser(
        "open",
        help="freeze items whose labels do not exist yet, with their label-blind pairs",
        description="Environment: OPENREVIEW_API_BASE, ARXIV_API_BASE, S2_API_BASE (resolve); "
        "budgets OPENREVIEW_BUDGET, OPENREVIEW_PDF_BUDGET, ARXIV_BUDGET, S2_BUDGET. "
        "See docs/rounds.md.",
    )
    opener.add_argument(
        "--source",
        choices=("openreview", "arxiv", "simulated"),
        default="openreview",
        help="simulated: a seeded offline venue, no network (its clock: round resolve "
        "--advance-days)",
    )
    opener.add_argument("--venue", help="OpenReview venue id, e.g. ICLR.cc/2027/Conference")
    opener.add_argument("--category", help="arXiv category, e.g. cs.LG (--source arxiv)")
    opener.add_argument(
        "--days", type=int, help="arXiv: papers first announced in the last N days (default 7)"
    )
    opener.add_argument(
        "--window-months",
        type=int,
        help="arXiv: the citation window of the label (month starts after publication; default 6)",
    )
    opener.add_argument(
        "--no-pdfs", action="store_true", help="OpenReview: no PDFs (no PaperWeakness items)"
    )
    opener.add_argument(
        "--max-items",
        type=_at_least(2, "--max-items"),
        help="OpenReview: a seeded, label-blind sample of N submissions, stratified by primary "
        "area (drawn before any PDF is fetched); simulated: the venue's size (default 120)",
    )
    opener.add_argument(
        "--seed",
        type=int,
        help=f"the sample's seed (--max-items), or the simulated venue's (default {SAMPLE_SEED})",
    )
    opener.add_argument(
        "--judge-days",
        type=_at_least(1, "--judge-days"),
        default=JUDGE_DAYS,
        help="the judging window: a decision later than N days after open is not prospective",
    )
    _add_budgets(opener)
    opener.add_argument("--out", required=True, help="the round's folder (new)")
    opener.set_defaults(func=_cmd_open)
    resolver = actions.add_parser(
        "resolve", help="fetch the labels as they stand now into a new labels version"
    )
    resolver.add_argument("round", help="the round's folder")
    _add_budgets(resolver)
    resolver.add_argument(
        "--advance-days",
        type=_at_least(0, "--advance-days"),
        help="a simulated round: move its venue's clock N days forward first (kept in the "
        "round's venue.json; without it a resolve sees the labels at the clock's time)",
    )
    resolver.set_defaults(func=_cmd_resolve)
    scorer = actions.add_parser(
        "score", help="re-score every judgment log of the round (no model is called)"
    )
    scorer.add_argument("round", help="the round's folder")
    scorer.add_argument(
        "--log-dir", required=True, help="log folder of the judgment logs (local, or s3://...)"
    )
    scorer.add_argument("--labels", help="labels version (default: the newest)")
    scorer.set_defaults(func=_cmd_score)
    publisher = actions.add_parser(
        "publish",
        help="write rounds, their resolutions, picks and leaderboards as a dataset to post",
        description="See docs/rounds.md, 'Publishing a round'.",
    )
    publisher.add_argument("round", nargs="+", help="round folders")
    publisher.add_argument(
        "--out", required=True, help="the publication's folder (new, empty, or a previous one)"
    )
    publisher.add_argument(
        "--log-dir", help="log folder of the judgment and scored logs (picks, leaderboards)"
    )
    publisher.add_argument(
        "--min-pairs", type=_at_least(1, "--min-pairs"), default=MIN_PAIRS, help=MIN_PAIRS_HELP
    )
    publisher.set_defaults(func=_cmd_publish)
