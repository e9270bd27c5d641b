"""``research-taste tastybench-extract``: TastyBench's extraction step from the command line."""

from __future__ import annotations

import argparse
from typing import Any

from research_taste_evals.tastybench.tastybench_extract import run_extraction


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
    )
    print(f"wrote {args.output}: {written} {args.kind}s; no <{args.kind}> tags for {len(failed)}")
    for paper_id in failed:
        print(f"  missing: {paper_id}")
    print(f"use it with: -T representation={args.kind} -T representations_path={args.output}")
    return 0


def register(commands: Any) -> None:
    """Add ``research-taste tastybench-extract`` to the CLI's subcommands."""
    extract = commands.add_parser(
        "tastybench-extract",
        help="TastyBench: extract ideas/summaries with a model and write a representations CSV",
    )
    extract.add_argument("--model", required=True, help="the extractor model, e.g. openai/gpt-4o")
    extract.add_argument("--output", required=True, help="CSV to write")
    extract.add_argument("--paper-set", choices=["curated", "full"], default="curated")
    extract.add_argument("--kind", choices=["idea", "summary"], default="idea")
    extract.add_argument("--idea-prompt", choices=["seed", "curated"], default="seed")
    extract.add_argument("--data-path", help="local directory with the upstream files")
    extract.add_argument("--sources-path", help="abstracts CSV (ideas) or full texts (summaries)")
    extract.add_argument("--log-dir", default="logs", help="where to write the Inspect log")
    extract.set_defaults(func=_cmd_extract)
