"""``research-taste lft-export`` and ``lft-agreement``: LFT human validation."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from research_taste.lft.human_agreement import agreement, format_report, read_pairs
from research_taste.lft.human_validation import (
    DEFAULT_EXPERTS,
    DEFAULT_PER_TASK,
    DEFAULT_SEED,
    KEY_SUFFIX,
    export_for_experts,
    key_path,
)
from research_taste_evals.lft.grader import FEASIBLE_LEVEL


def register(commands: Any) -> None:
    """Register ``lft-export`` and ``lft-agreement`` on the ``research-taste`` parser."""
    export = commands.add_parser(
        "lft-export", help="sample feasible LFT solutions from logs into a file for experts"
    )
    export.add_argument("--log-dir", default="logs", help="folder of Inspect logs (default: logs)")
    export.add_argument("--out", required=True, help="expert file to write (.csv or .jsonl)")
    export.add_argument("--per-task", type=int, default=DEFAULT_PER_TASK)
    export.add_argument("--experts", type=int, default=DEFAULT_EXPERTS)
    export.add_argument("--seed", type=int, default=DEFAULT_SEED)
    export.add_argument(
        "--min-level",
        type=float,
        default=FEASIBLE_LEVEL,
        help=f"lowest autograder median to export (default {FEASIBLE_LEVEL}: feasible; 0: all)",
    )
    export.set_defaults(func=cmd_export)
    agreement = commands.add_parser(
        "lft-agreement", help="autograder-vs-expert agreement from a graded expert file"
    )
    agreement.add_argument("grades", help="the expert file, with expert_<i>_end_to_end filled")
    agreement.add_argument("--key", help=f"the key file (default: <grades stem>{KEY_SUFFIX})")
    agreement.set_defaults(func=cmd_agreement)


def cmd_export(args: argparse.Namespace) -> int:
    out = Path(args.out)
    chosen, key = export_for_experts(
        args.log_dir, out, args.per_task, args.seed, args.experts, args.min_level
    )
    if not chosen:
        print(f"no LFT solution with autograder median >= {args.min_level} under {args.log_dir}")
        return 1
    tasks = sorted({c.task_id for c in chosen})
    print(f"wrote {len(chosen)} solution(s) from {len(tasks)} task(s) to {out}")
    print(f"autograder grades (keep them from the experts) in {key}")
    return 0


def cmd_agreement(args: argparse.Namespace) -> int:
    grades = Path(args.grades)
    key = Path(args.key) if args.key else key_path(grades)
    pairs = read_pairs(grades, key)
    if not pairs:
        print(f"{grades}: no expert grades filled in (columns expert_<i>_end_to_end)")
        return 1
    print(format_report(agreement(pairs)))
    return 0
