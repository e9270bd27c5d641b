"""Autograder-vs-expert agreement for exported LFT solutions (``research-taste lft-agreement``).

Each (solution, expert) grade is one pair with the autograder's panel median. Reported: the
share of pairs the expert downgraded (expert level below the autograder median; the Long-Form
Tasks paper, section "Human expert validation", reports "more than 70% ... downgraded" for
petunia), upgraded and equal; the mean and mean absolute difference (expert minus autograder);
exact and within-one agreement; Cohen's kappa (unweighted and quadratic-weighted, on the
autograder median rounded down, since a median of 4.5 has not reached level 5) and Spearman's
rho (NaN below three pairs); per task; and expert-vs-expert agreement when two experts graded
the same solution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.lft.human_validation import (
    EXPERT_COLUMN,
    JSONL_SUFFIX,
    parse_expert_level,
)
from research_taste_evals.core.data import DataError, read_csv, read_jsonl
from research_taste_evals.core.stats import NAN, KappaWeights, cohen_kappa, spearman
from research_taste_evals.lft.rubric import MAX_LEVEL

LEVELS = list(range(MAX_LEVEL + 1))


@dataclass(frozen=True)
class GradePair:
    export_id: str
    task_id: str
    expert: str
    autograder: float
    expert_level: int


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of an expert or key file: JSON lines (``.jsonl``) or CSV, by the file's suffix."""
    return read_jsonl(path) if path.suffix == JSONL_SUFFIX else list(read_csv(path))


def read_pairs(grades: Path, key: Path) -> list[GradePair]:
    """Pair every filled expert grade in ``grades`` with the autograder median in ``key``."""
    autograder = {}
    for number, row in enumerate(read_rows(key), start=1):
        try:
            autograder[str(row["export_id"])] = (
                str(row["task_id"]),
                float(row["autograder_end_to_end"]),
            )
        except KeyError as error:
            raise DataError(f"{key}: row {number}: field {error}: missing") from error
        except (TypeError, ValueError) as error:
            raise DataError(
                f"{key}: row {number}: field 'autograder_end_to_end': not a number"
            ) from error
    pairs = []
    for number, row in enumerate(read_rows(grades), start=1):
        export_id = str(row.get("export_id", ""))
        if export_id not in autograder:
            raise DataError(f"{grades}: row {number}: export_id {export_id!r} is not in {key}")
        task_id, median = autograder[export_id]
        for column, raw in row.items():
            match = EXPERT_COLUMN.match(str(column))
            if match is None:
                continue
            level = parse_expert_level(raw, f"{grades}: row {number}: column '{column}'")
            if level is not None:
                pairs.append(GradePair(export_id, task_id, match.group(1), median, level))
    return pairs


def kappa(a: list[int], b: list[int], weights: KappaWeights | None = None) -> float:
    """Cohen's kappa on the full 0-10 level scale (NaN when undefined)."""
    return cohen_kappa(a, b, labels=LEVELS, weights=weights)


@dataclass(frozen=True)
class Agreement:
    pairs: int
    solutions: int
    downgraded: float
    upgraded: float
    equal: float
    mean_diff: float
    mean_abs_diff: float
    exact: float
    within_one: float
    kappa: float
    kappa_quadratic: float
    spearman: float
    expert_vs_expert_spearman: float = NAN
    expert_vs_expert_kappa_quadratic: float = NAN
    by_task: dict[str, Agreement] = field(default_factory=dict)


def agreement(pairs: list[GradePair], per_task: bool = True) -> Agreement:
    """Agreement statistics over ``pairs`` (NaN fields when there are none)."""
    if not pairs:
        return Agreement(0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN)
    auto = [p.autograder for p in pairs]
    expert = [p.expert_level for p in pairs]
    diffs = [e - a for e, a in zip(expert, auto, strict=True)]
    auto_level = [math.floor(a) for a in auto]
    by_solution: dict[str, dict[str, int]] = {}
    for p in pairs:
        by_solution.setdefault(p.export_id, {})[p.expert] = p.expert_level
    both = [sorted(g.items()) for g in by_solution.values() if len(g) >= 2]
    first, second = [g[0][1] for g in both], [g[1][1] for g in both]
    n = len(pairs)
    return Agreement(
        pairs=n,
        solutions=len(by_solution),
        downgraded=sum(d < 0 for d in diffs) / n,
        upgraded=sum(d > 0 for d in diffs) / n,
        equal=sum(d == 0 for d in diffs) / n,
        mean_diff=sum(diffs) / n,
        mean_abs_diff=sum(abs(d) for d in diffs) / n,
        exact=sum(a == e for a, e in zip(auto_level, expert, strict=True)) / n,
        within_one=sum(abs(d) <= 1 for d in diffs) / n,
        kappa=kappa(auto_level, expert),
        kappa_quadratic=kappa(auto_level, expert, "quadratic"),
        spearman=spearman(auto, [float(e) for e in expert]),
        expert_vs_expert_spearman=spearman([float(x) for x in first], [float(x) for x in second]),
        expert_vs_expert_kappa_quadratic=kappa(first, second, "quadratic"),
        by_task=(
            {
                t: agreement([p for p in pairs if p.task_id == t], per_task=False)
                for t in sorted({p.task_id for p in pairs})
            }
            if per_task
            else {}
        ),
    )


def _row(label: str, a: Agreement) -> str:
    return (
        f"| {label} | {a.pairs} | {a.solutions} | {a.downgraded:.0%} | {a.upgraded:.0%} | "
        f"{a.mean_diff:+.2f} | {a.mean_abs_diff:.2f} | {a.exact:.0%} | {a.within_one:.0%} | "
        f"{a.kappa:.2f} | {a.kappa_quadratic:.2f} | {a.spearman:.2f} |"
    )


def format_report(a: Agreement) -> str:
    """A markdown table: overall and per task, then expert-vs-expert agreement."""
    lines = [
        "| task | grades | solutions | downgraded | upgraded | mean diff (expert-auto) | "
        "mean abs diff | exact | within 1 | kappa | kappa (quadratic) | Spearman |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        _row("all", a),
        *(_row(task, sub) for task, sub in a.by_task.items()),
        "",
        "expert vs expert (solutions graded by two experts): "
        f"Spearman {a.expert_vs_expert_spearman:.2f}, "
        f"quadratic kappa {a.expert_vs_expert_kappa_quadratic:.2f}",
    ]
    return "\n".join(lines)
