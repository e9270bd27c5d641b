"""What each family declares once in its ``eval.yaml``: tasks, versions and report metadata.

A family folder's ``eval.yaml`` is in the inspect_evals register format. Its
``metadata.extras.tasks`` block holds, per task, what the reports need and nothing else
declares: the few headline metrics, the metrics that count unparsed/unscored answers, the
approximate model calls per sample (for ``sweep --dry-run``), each reported metric's one-line
meaning (``metrics``: name -> sentence; a family-wide ``metadata.extras.metrics`` block holds
the meanings its tasks share) and the paper's numbers (or the reason there are none) for the
evaluation report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from research_taste_evals.core.data import DataError

EVAL_YAML = "eval.yaml"
# The two answer-shape figures every task logs (issue #17), the same meaning in every family.
ANSWER_SHAPE_MEANINGS = {
    "unparsed_rate": "share of answers the task could not read (after any re-ask); each is "
    "scored as the task's contract says, never dropped",
    "reasked_rate": "share of samples whose first answer was unreadable and were asked once more",
}


@dataclass(frozen=True)
class PaperNumbers:
    """The paper's results for a task (rows of model -> metric values), or why there are none."""

    source: str = ""
    results: tuple[dict[str, Any], ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class TaskReportSpec:
    """How a task is reported: its family, headline and failure metrics, and paper numbers."""

    task: str
    family: str
    title: str
    version: str
    dataset_samples: int | None
    headline_metrics: tuple[str, ...]
    failure_metrics: tuple[str, ...] = ()
    model_calls_per_sample: dict[str, float] = field(default_factory=dict)
    paper: PaperNumbers = field(default_factory=PaperNumbers)
    metric_meanings: dict[str, str] = field(default_factory=dict)


def family_eval_yamls() -> dict[str, dict[str, Any]]:
    """Every family's parsed ``eval.yaml``, by family folder name."""
    return dict(_load_all())


@cache
def _load_all() -> tuple[tuple[str, dict[str, Any]], ...]:
    root = resources.files("research_taste_evals")
    found = []
    for folder in sorted(root.iterdir(), key=lambda entry: entry.name):
        source = folder / EVAL_YAML
        if not source.is_file():
            continue
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise DataError(f"{folder.name}/{EVAL_YAML}: expected a mapping")
        found.append((folder.name, data))
    return tuple(found)


def _spec(family: str, data: dict[str, Any], entry: dict[str, Any]) -> TaskReportSpec:
    name = entry["name"]
    where = f"{family}/{EVAL_YAML}: field 'metadata.extras.tasks.{name}'"
    extras_root = (data.get("metadata") or {}).get("extras") or {}
    extras = extras_root.get("tasks") or {}
    if name not in extras:
        raise DataError(f"{where}: missing (every task declares its headline metrics)")
    declared = extras[name]
    headline = tuple(declared.get("headline_metrics") or ())
    if not headline:
        raise DataError(f"{where}.headline_metrics: at least one metric is required")
    paper = declared.get("paper") or {}
    meanings = {**ANSWER_SHAPE_MEANINGS, **(extras_root.get("metrics") or {})}
    meanings.update(declared.get("metrics") or {})
    return TaskReportSpec(
        task=name,
        family=family,
        title=str(data.get("title", family)),
        version=str(declared.get("version") or data.get("version", "")),
        dataset_samples=entry.get("dataset_samples"),
        headline_metrics=headline,
        failure_metrics=tuple(declared.get("failure_metrics") or ()),
        model_calls_per_sample={
            role: float(calls)
            for role, calls in (declared.get("model_calls_per_sample") or {}).items()
        },
        paper=PaperNumbers(
            source=str(paper.get("source", "")),
            results=tuple(paper.get("results") or ()),
            reason=str(paper.get("reason", "")),
        ),
        metric_meanings={str(k): str(v).strip() for k, v in meanings.items()},
    )


@cache
def task_specs() -> dict[str, TaskReportSpec]:
    """Every task declared in a family ``eval.yaml``, by task name."""
    specs: dict[str, TaskReportSpec] = {}
    for family, data in _load_all():
        for entry in data.get("tasks") or []:
            specs[entry["name"]] = _spec(family, data, entry)
    return specs
