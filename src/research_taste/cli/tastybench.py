"""``research-taste tastybench-extract``: TastyBench's extraction step from the command line."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

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
    **task_args: str | None,
) -> tuple[EvalLog, int, list[str]]:
    """Run ``tastybench_extract`` with ``model`` as the extractor and write ``output``."""
    log = inspect_eval(
        tastybench_extract(**task_args),  # type: ignore[arg-type]
        model=model,
        log_dir=log_dir,
        display="none",
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
