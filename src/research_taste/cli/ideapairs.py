"""``research-taste ideapairs build``: leaderboards -> idea-pairs file and report."""

from __future__ import annotations

import argparse
import re
from typing import Any

from research_taste.builders.ideapairs.builder import DEFAULT_SEED, build
from research_taste_evals.core.data import DataError

_AFTER = re.compile(r"^((?:19|20)\d\d-(?:0[1-9]|1[0-2]))(?:-(?:0[1-9]|[12]\d|3[01]))?$")


def after_as_month(value: str) -> str:
    """``--after YYYY-MM[-DD]`` as the month split of ``--test-after``: a day's month, so a
    paper dated later in that month counts as before the cutoff (the split is by month; this
    errs on the side of not calling a paper unseen)."""
    match = _AFTER.match(value.strip())
    if not match:
        raise DataError(f"--after {value}: expected YYYY-MM or YYYY-MM-DD, e.g. 2024-06")
    return match.group(1)


def _cmd_build(args: argparse.Namespace) -> int:
    if bool(args.source) == bool(args.leaderboards):
        raise DataError(
            "give leaderboard files, or --source pwc-archive (the paper's source) or "
            "--source FILE (a copy of the PapersWithCode evaluation tables), not both or neither"
        )
    if args.abstracts and not args.fetch_papers:
        raise DataError(
            f"--abstracts {args.abstracts}: the abstracts table is the fallback of "
            "--fetch-papers; add --fetch-papers (or drop --abstracts)"
        )
    test_after = args.test_after
    if args.after is not None:
        if args.test_after is not None:
            raise DataError("give --after or --test-after, not both (--after is the same split)")
        test_after = after_as_month(args.after)
    source = None if not args.source else "pwc-archive" if args.source == "pwc-archive" else "file"
    result = build(
        args.leaderboards or [args.source],
        args.out,
        args.report,
        extract=not args.no_extract,
        extractor=args.extractor,
        paper_texts=args.paper_texts,
        test_after=test_after,
        seed=args.seed,
        log_dir=args.log_dir,
        source=source,
        fetch_papers=args.fetch_papers,
        abstracts=args.abstracts,
    )
    report = result.report
    beside = report["source"].get("beside_the_paper")
    if beside:
        boards = beside["nlp_leaderboards_with_2_entries"]
        print(
            f"NLP leaderboards with >= 2 entries: {boards['ours']} (paper: {boards['paper']:,}); "
            f"pairs {beside['pairs']['ours']} (paper: {beside['pairs']['paper']:,})"
        )
    print(
        f"read {report['entries_read']} entries on {report['leaderboards_read']} leaderboards: "
        f"kept {report['kept']}, dropped {report['dropped']} {report['dropped_by_reason']}"
    )
    print(
        f"wrote {args.out}: {report['pairs']} pairs ({report['records']} records, both orders) "
        f"from {report['leaderboards_with_pairs']} leaderboards; by split "
        f"{report['pairs_by_split']}, by tier {report['pairs_by_tier']}"
    )
    if report["extraction"]["identity_leak"]:
        print(
            "identity_leak: true -- some idea texts are the method name and paper title, which "
            "reveal the paper (the task logs identity_leak: true); prefer extracted texts"
        )
    papers = report["papers"]
    if papers["fetched"]:
        print(
            f"papers of paired ideas: {papers['papers_of_paired_ideas']} "
            f"(texts by source {papers['by_source']}, without text {len(papers['without_text'])}); "
            f"{papers['requests']} requests, {papers['answered_from_cache']} from the cache"
        )
        for arxiv_id, why in papers.get("arxiv_ids_dropped", {}).items():
            print(f"  arXiv id dropped: {arxiv_id}: {why}")
    if args.report:
        print(f"wrote {args.report}")
    # The task's default split is test: suggest only a command that finds pairs.
    by_split = report["pairs_by_split"]
    split = "" if by_split.get("test") else " -T split=all" if report["pairs"] else None
    if split is None:
        print(f"no pairs to evaluate in {args.out}: widen the sources or the filters")
        return 1
    if split and args.test_after:
        print(
            f"--test-after {args.test_after}: no pair falls after it, so the test split (the "
            "task's default) is empty; an earlier date makes one, or evaluate every pair:"
        )
    command = f"inspect eval research_taste_evals/idea_pairs -T pairs_file={args.out}{split}"
    print(f"evaluate with: {command}")
    return 0


def register(commands: Any) -> None:
    """Add ``research-taste ideapairs build`` to the CLI's subcommands."""
    family = commands.add_parser(
        "ideapairs", help="Idea pairs: build a pairs file from leaderboards"
    )
    actions = family.add_subparsers(dest="ideapairs_command", required=True)
    builder = actions.add_parser(
        "build",
        help="leaderboards (PapersWithCode JSON or NLP-progress markdown) -> pairs JSONL + report",
    )
    builder.add_argument(
        "leaderboards", nargs="*", help=".json / .parquet / .md files or folders of them"
    )
    builder.add_argument(
        "--source",
        metavar="pwc-archive|FILE",
        help="the paper's source: 'pwc-archive' downloads HF pwc-archive/evaluation-tables at a "
        "pinned commit into the cache; FILE is a local copy (JSON dump or parquet shards); "
        "either way only NLP leaderboards are kept, as the paper does",
    )
    builder.add_argument("--out", required=True, help="the pairs JSONL to write")
    builder.add_argument("--report", help="write the build report (every entry's fate) here")
    builder.add_argument(
        "--no-extract",
        action="store_true",
        help="no model: idea text = method name + paper title, goal = template",
    )
    builder.add_argument("--extractor", help="the extractor model (needed unless --no-extract)")
    builder.add_argument("--paper-texts", help="folder of paper texts named <arXiv id>.md|.txt")
    builder.add_argument(
        "--test-after",
        metavar="YYYY[-MM]",
        help="time split: ideas whose paper is dated after YYYY (or the month YYYY-MM) are test",
    )
    builder.add_argument(
        "--after",
        metavar="YYYY-MM[-DD]",
        help="a model's cutoff: the same split as --test-after YYYY-MM (a day counts by its "
        "month: later papers of that month are not called unseen)",
    )
    builder.add_argument(
        "--fetch-papers",
        action="store_true",
        help="fetch each idea's paper into the cache: arXiv abstract and first-version date, full "
        "text where arXiv renders HTML (pinned by version; ARXIV_API_BASE, ARXIV_HTML_BASE), "
        "one request every 3 s; the extractor reads them and ideas get paper_date",
    )
    builder.add_argument(
        "--abstracts",
        metavar="FILE",
        help="with --fetch-papers: a local copy of PapersWithCode papers-with-abstracts (JSON "
        "or parquet), the fallback for papers not on arXiv",
    )
    builder.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the 80/20 split")
    builder.add_argument("--log-dir", default="logs", help="where the extraction run logs")
    builder.set_defaults(func=_cmd_build)
