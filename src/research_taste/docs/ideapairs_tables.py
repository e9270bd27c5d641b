"""The idea-pairs README's generated figures: reference build facts and baseline rows from logs.

``bench/ideapairs_readme.py`` rewrites the README's generated blocks with these functions; the
tests compare the README with what they produce now (issue #21 item 8: no figure typed by hand).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from research_taste_evals.core.task_metric import log_results

REFERENCE_SOURCE = Path("sota-extractor/data/tasks/nlp-progress.json")  # under the upstream dir
BASELINE_HEADER = [
    "judge",
    "accuracy [95% CI]",
    "consistency",
    "single-order",
    "accuracy 1/2/3-sigma",
    "length bias [95% CI], p",
    "recency bias [95% CI], p",
]
RANKING_HEADER = ["judge", "pairs", "consistency", "Top-1", "rank RMSE (median)", "boards"]


@dataclass(frozen=True)
class BaselineRun:
    """One offline baseline run on the reference pairs (``split=all``)."""

    model: str
    label: str
    args: dict[str, Any] = field(default_factory=dict)


BASELINE_RUNS = (
    BaselineRun("baseline/first", "always Idea A"),
    BaselineRun("baseline/longer", "length prior"),
    BaselineRun("baseline/newer", "recency prior, reads years"),
    BaselineRun("baseline/idea-oracle", "reads the scores"),
)
RANKING_RUNS = (
    BaselineRun("baseline/first", "always Idea A", {"mode": "ranking"}),
    BaselineRun("baseline/idea-oracle", "reads the scores", {"mode": "ranking"}),
)
BASELINE_DEFAULTS: dict[str, Any] = {"split": "all"}


def _fmt(value: float) -> str:
    return "NaN" if math.isnan(value) else f"{value:.3f}"


def _metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return log_results(log)


def _bias(m: dict[str, float], name: str) -> str:
    return (
        f"{_fmt(m[f'{name}_bias/delta'])} [{_fmt(m[f'{name}_bias/ci_low'])}, "
        f"{_fmt(m[f'{name}_bias/ci_high'])}], p = {_fmt(m[f'{name}_bias/p_value'])}"
    )


def baseline_row(log: EvalLog, label: str) -> list[str]:
    """One row of the baselines table from a ``mode=pairs`` log."""
    m = _metrics(log)
    tiers = " / ".join(_fmt(m[f"accuracy/{t}sigma"]) for t in (1, 2, 3))
    return [
        f"`{log.eval.model}` ({label})",
        f"{_fmt(m['accuracy'])} [{_fmt(m['accuracy/ci_low'])}, {_fmt(m['accuracy/ci_high'])}]",
        _fmt(m["consistency"]),
        _fmt(m["single_order_accuracy"]),
        tiers,
        _bias(m, "length"),
        _bias(m, "recency"),
    ]


def ranking_row(log: EvalLog, label: str) -> list[str]:
    """One row of the ranking table from a ``mode=ranking`` log."""
    m = _metrics(log)
    return [
        f"`{log.eval.model}` ({label})",
        str(int(m["pairs"])),
        _fmt(m["consistency"]),
        _fmt(m["top1_accuracy"]),
        _fmt(m["rank_rmse_median"]),
        str(int(m["ranking/leaderboards"])),
    ]


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def build_facts(report: dict[str, Any]) -> str:
    """The reference build's counts, from its report."""
    reasons = ", ".join(f"{k} {v}" for k, v in report["dropped_by_reason"].items() if v)
    tiers = " / ".join(str(report["pairs_by_tier"].get(str(t), 0)) for t in (1, 2, 3))
    split = report["pairs_by_split"]
    contradictions = sorted({c["board"] for c in report["row_order_contradicts_polarity"]})
    return (
        f"{report['entries_read']} entries read, {report['kept']} kept, {report['dropped']} "
        f"dropped ({reasons}); {report['pairs']} pairs ({split.get('train', 0)} train, "
        f"{split.get('test', 0)} test; tiers {tiers}) from {report['leaderboards_with_pairs']} "
        f"leaderboards; {report['pairs_left_out_metrics_disagree']} tier pairs left out because "
        f"two named metrics disagree. Boards whose row order contradicts their metric's "
        f"meaning ({len(contradictions)}, labelled by the meaning): {'; '.join(contradictions)}."
    )
