"""TastyBench from the command line: ``tastybench build`` (a new paper set from Semantic Scholar,
``research_taste.builders.tastybench_set``) and ``tastybench-extract`` (the extraction step)."""

from __future__ import annotations

import argparse
import csv
import datetime as dt
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import CachePolicy

from research_taste.builders.tastybench_args import parse_after, parse_date
from research_taste.builders.tastybench_set import (
    SEARCH_SEMANTICS,
    UPSTREAM_FIELDS_OF_STUDY,
    UPSTREAM_PUBLICATION_TYPES,
    SetRequest,
    build,
)
from research_taste_evals.core.data import DataError
from research_taste_evals.tastybench.tastybench_extract import tastybench_extract


def write_representations(log: EvalLog, output: str | Path) -> tuple[int, list[str]]:
    """Write an extraction log's texts as a representations CSV.

    Columns: ``paper_id,title,abstract,idea`` (upstream's ``*_with_ideas.csv`` layout) or
    ``paper_id,title,summary``. A paper whose reply had no tags gets an empty text (the judge
    task leaves it out and lists it in its metadata).

    Returns:
        (papers written with a text, ids of papers without one).
    """
    samples = log.samples or []
    kind = str((samples[0].metadata or {}).get("kind", "idea")) if samples else "idea"
    columns = ["paper_id", "title"] + (["abstract", "idea"] if kind == "idea" else ["summary"])
    rows, failed = [], []
    for sample in samples:
        metadata = sample.metadata or {}
        score = next(iter((sample.scores or {}).values()), None)
        text = score.answer if score is not None and score.answer else ""
        if not text:
            failed.append(str(metadata.get("paper_id", sample.id)))
        row = {"paper_id": metadata.get("paper_id", sample.id), "title": metadata.get("title", "")}
        row.update({"abstract": metadata.get("abstract") or ""} if kind == "idea" else {})
        row[kind] = text
        rows.append(row)
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return len(rows) - len(failed), failed


def run_extraction(
    model: str,
    output: str | Path,
    log_dir: str = "logs",
    **task_args: str | bool | None,
) -> tuple[EvalLog, int, list[str]]:
    """Run ``tastybench_extract`` with ``model`` as the extractor and write ``output``."""
    log = inspect_eval(
        tastybench_extract(**task_args),  # type: ignore[arg-type]
        model=model,
        log_dir=log_dir,
        display="none",
        # The command's cache, kept for good: re-running it on the same inputs costs no call
        # (the task itself follows whatever --cache its run is given).
        cache=CachePolicy(expiry=None),
    )[0]
    if log.status != "success":
        message = log.error.message if log.error else log.status
        raise RuntimeError(f"extraction run failed: {message}")
    written, failed = write_representations(log, output)
    return log, written, failed


def _cmd_extract(args: argparse.Namespace) -> int:
    _, written, failed = run_extraction(
        args.model,
        args.output,
        log_dir=args.log_dir,
        paper_set=args.paper_set,
        kind=args.kind,
        idea_prompt=args.idea_prompt,
        data_path=args.data_path,
        sources_path=args.sources_path,
        anonymize=args.anonymize,
    )
    unusable = "no tags or naming its paper" if args.anonymize else f"no <{args.kind}> tags"
    print(f"wrote {args.output}: {written} {args.kind}s; {unusable} for {len(failed)}")
    for paper_id in failed:
        print(f"  missing: {paper_id}")
    print(f"use it with: -T representation={args.kind} -T representations_path={args.output}")
    return 0


BUILD_HELP = "TastyBench: build a new paper set from the Semantic Scholar Graph API"


def _cmd_build(args: argparse.Namespace) -> int:
    if (args.date_from is None) == (args.after is None):
        raise DataError(
            "give the window's start with --from YYYY-MM-DD or --after YYYY-MM[-DD] (a model's "
            "cutoff), one of them"
        )
    start = (
        parse_date(args.date_from, "--from")
        if args.date_from is not None
        else parse_after(args.after)
    )
    request = SetRequest(
        query=args.query,
        date_from=start,
        date_to=parse_date(args.date_to, "--to") if args.date_to else dt.date.today(),
        min_citations=args.min_citations,
        fields_of_study=args.fields_of_study,
        publication_types=args.publication_types,
        search=args.search,
        from_flag="--from" if args.date_from is not None else f"--after {args.after}: the day",
    )
    report = build(request, args.out, progress=not args.no_progress)
    dropped = ", ".join(f"{reason} {count}" for reason, count in report["dropped"].items())
    requests = report["requests"]
    print(
        f"wrote {Path(args.out) / 'papers.csv'}: {report['kept']} papers (fetched "
        f"{report['fetch_date']}); dropped: {dropped or 'none'}; "
        f"{report['undated_citations_left_out']} undated citations left out"
    )
    without, short = report["papers_without_velocity"], report["short_citation_lists"]
    sources = ", ".join(f"{k} {v}" for k, v in report["abstracts_by_source"].items())
    print(
        f"abstracts by source: {sources}; {len(without)} papers without velocity; "
        f"{len(short)} with fewer citations listed than citationCount"
    )
    print(
        f"requests: {requests['network']} sent, {requests['cached']} from the cache, "
        f"{requests['retried']} retried; report: {Path(args.out) / 'build_report.json'}"
    )
    if report["search_limit_reached"]:
        print(
            f"the relevance search matched {report['search_total']:,} papers and reads only "
            "the first 1,000; --search bulk reads every match (its terms are ANDed)"
        )
    print(f"use it with: -T data_path={args.out} -T representation=abstract")
    return 0


def _add_build(commands: Any) -> None:
    tastybench = commands.add_parser("tastybench", help=BUILD_HELP)
    actions = tastybench.add_subparsers(dest="action", required=True)
    command = actions.add_parser(
        "build",
        help="search a publication window, fetch each paper's citations, write papers.csv",
        description="Environment: S2_API_BASE (default the public Graph API v1), S2_API_KEY "
        "(optional; sent as x-api-key), ARXIV_API_BASE (abstracts missing from Semantic "
        "Scholar).",
    )
    command.add_argument("--query", required=True, help="search query")
    command.add_argument(
        "--search",
        choices=sorted(SEARCH_SEMANTICS),
        default="relevance",
        help="relevance (default, upstream's: ranked, first 1,000 results at most) or bulk "
        "(every match, unranked; plain terms are ANDed, | is OR)",
    )
    command.add_argument("--from", dest="date_from", help="first publication day, YYYY-MM-DD")
    command.add_argument(
        "--after",
        metavar="YYYY-MM[-DD]",
        help="instead of --from: papers published after this day (a month: after its end), "
        "e.g. a model's knowledge cutoff",
    )
    command.add_argument(
        "--to", dest="date_to", help="last publication day, YYYY-MM-DD (default: today)"
    )
    command.add_argument(
        "--min-citations", type=int, default=20, help="citation floor (upstream: 20)"
    )
    command.add_argument(
        "--out", required=True, help="folder to write (new, empty or an earlier build)"
    )
    command.add_argument(
        "--fields-of-study", default=UPSTREAM_FIELDS_OF_STUDY, help="search filter; '' for none"
    )
    command.add_argument(
        "--publication-types", default=UPSTREAM_PUBLICATION_TYPES, help="search filter; '' for none"
    )
    command.add_argument("--no-progress", action="store_true", help="no progress bars")
    command.set_defaults(func=_cmd_build)


def register(commands: Any) -> None:
    """Add ``research-taste tastybench-extract`` and ``tastybench build`` to the subcommands."""
    extract = commands.add_parser(
        "tastybench-extract",
        help="TastyBench: extract ideas/summaries with a model and write a representations CSV",
    )
    extract.add_argument("--model", required=True, help="the extractor model, e.g. openai/gpt-4o")
    extract.add_argument("--output", required=True, help="CSV to write")
    extract.add_argument("--paper-set", choices=["curated", "full"], default="curated")
    extract.add_argument("--kind", choices=["idea", "summary"], default="idea")
    extract.add_argument("--idea-prompt", choices=["seed", "curated"], default="seed")
    extract.add_argument(
        "--data-path", help="local directory with the upstream files, or a built set"
    )
    extract.add_argument("--sources-path", help="abstracts CSV (ideas) or full texts (summaries)")
    extract.add_argument("--log-dir", default="logs", help="where to write the Inspect log")
    extract.add_argument(
        "--anonymize",
        action="store_true",
        help="ask for texts naming no method, model, author or system; withhold any that "
        "still name their paper",
    )
    extract.set_defaults(func=_cmd_extract)
    _add_build(commands)
