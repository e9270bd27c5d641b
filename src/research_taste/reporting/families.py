"""How each task is reported: its spec's headlines with its ``eval.yaml``'s prose and numbers.

A task's headline, its further headline columns and the argument values with a headline of
their own (``Variant``: TastyBench's ``schedule=matched``, ranked in a table of their own, never
with the task's other runs) are its spec's (``core/spec.py``, the family's ``specs.py``). A
family folder's ``eval.yaml`` is in the inspect_evals register format; its
``metadata.extras.tasks`` block holds, per task, the metrics that count unparsed/unscored
answers, the approximate model calls per sample (for ``sweep --dry-run``), each reported
metric's one-line
meaning (``metrics``: name -> sentence, or name -> ``{meaning: sentence, range: [low, high]}``
where the metric has a fixed range, which its plot's axis then spans; a family-wide
``metadata.extras.metrics`` block holds the meanings its tasks share) and the paper's numbers
(or the reason there are none) for the evaluation report.

The meanings are the only description of a metric the reports show, and every metric a task
logs has one (tests/reporting/test_metric_meanings.py): besides its own name, a metric is
described by (1) a glob key (``recall_by_type/*``, ``*/[123]sigma``), whose sentence may name
``{metric}``, the meaning of the part before the first ``/``; (2) the statistic suffixes every
family uses: ``<m>_stderr``, ``<m>_ci_low``/``<m>_ci_high`` (also ``<m>_stderr/<group>`` and
``<m>/ci_low``), described from ``<m>``'s meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from typing import Any

import yaml

from research_taste_evals.core.data import DataError
from research_taste_evals.core.families import task_specs as declared_specs
from research_taste_evals.core.spec import TaskSpec

EVAL_YAML = "eval.yaml"
# The two answer-shape figures every task logs (issue #17), the same meaning in every family.
ANSWER_SHAPE_MEANINGS = {
    "unparsed_rate": "share of answers the task could not read (after any re-ask); each is "
    "scored as the task's contract says, never dropped",
    "reasked_rate": "share of samples whose first answer was unreadable and were asked once more",
}
_STATISTICS = {
    "stderr": "standard error of",
    "ci_low": "lower end of the 95% interval of",
    "ci_high": "upper end of the 95% interval of",
}
_STATISTIC = re.compile(r"^(?P<base>.+?)_(?P<stat>stderr|ci_low|ci_high)(?P<group>/.+)?$")
_STATISTIC_GROUP = re.compile(r"^(?P<base>.+)/(?P<stat>ci_low|ci_high)$")


@dataclass(frozen=True)
class PaperNumbers:
    """The paper's results for a task (rows of model -> metric values), or why there are none."""

    source: str = ""
    results: tuple[dict[str, Any], ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class HeadlineVariant:
    """Runs whose task arguments hold ``when`` report their own headline metrics (TastyBench's
    ``schedule=matched``: ``pairwise_accuracy``), ranked in a table of their own."""

    when: tuple[tuple[str, str], ...]
    headline_metrics: tuple[str, ...]

    @property
    def label(self) -> str:
        """``schedule=matched``: the arguments that select the variant."""
        return " ".join(f"{key}={value}" for key, value in self.when)

    def matches(self, config: dict[str, Any]) -> bool:
        """Do a run's task arguments select this variant?"""
        return all(key in config and str(config[key]) == value for key, value in self.when)


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
    metric_ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    variants: tuple[HeadlineVariant, ...] = ()

    def variant_for(self, config: dict[str, Any]) -> HeadlineVariant | None:
        """The headline variant a run's task arguments select, or None (the task's own)."""
        return next((variant for variant in self.variants if variant.matches(config)), None)

    def meaning(self, metric: str) -> str | None:
        """``metric``'s one-line meaning by the rules of the module docstring, or None."""
        meanings = self.metric_meanings
        if metric in meanings:
            return meanings[metric]
        found = _STATISTIC.match(metric) or _STATISTIC_GROUP.match(metric)
        if found:
            base = found.group("base") + (found.groupdict().get("group") or "")
            described = self.meaning(base)
            return f"{_STATISTICS[found.group('stat')]} {base}: {described}" if described else None
        for key, sentence in meanings.items():
            if any(char in key for char in "*?[") and fnmatchcase(metric, key):
                head = metric.split("/", 1)[0]
                return sentence.replace("{metric}", meanings.get(head, head))
        return None

    def value_range(self, metric: str) -> tuple[float, float] | None:
        """The fixed range a metric's values lie in (from its eval.yaml entry), or None."""
        found = self.metric_ranges.get(metric)
        if found is None and "/" in metric:
            found = self.metric_ranges.get(metric.split("/", 1)[0])
        return found


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
        raise DataError(f"{where}: missing (every task declares its metrics' meanings)")
    declared = extras[name]
    spec = declared_specs().get(name)
    if spec is None:
        raise DataError(
            f"{family}/specs.py: SPECS declares no task {name!r} (its eval.yaml lists it)"
        )
    paper = declared.get("paper") or {}
    entries = {**ANSWER_SHAPE_MEANINGS, **(extras_root.get("metrics") or {})}
    entries.update(declared.get("metrics") or {})
    meanings, ranges = _meanings_and_ranges(
        entries, f"{family}/{EVAL_YAML}: field 'metadata.extras.tasks.{name}"
    )
    return TaskReportSpec(
        task=name,
        family=family,
        title=str(data.get("title", family)),
        version=str(declared.get("version") or data.get("version", "")),
        dataset_samples=entry.get("dataset_samples"),
        headline_metrics=spec.headline_metrics,
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
        metric_meanings=meanings,
        metric_ranges=ranges,
        variants=_variants(spec),
    )


def _variants(spec: TaskSpec) -> tuple[HeadlineVariant, ...]:
    """The spec's variants: each its configuration's headline, then its columns."""
    return tuple(
        HeadlineVariant(
            tuple(sorted(variant.when)),
            (spec.headline_of(variant.configuration), *variant.columns),
        )
        for variant in spec.variants
    )


def _meanings_and_ranges(
    entries: dict[str, Any], where: str
) -> tuple[dict[str, str], dict[str, tuple[float, float]]]:
    """Each metric's sentence, and its ``[low, high]`` range where its entry gives one."""
    meanings: dict[str, str] = {}
    ranges: dict[str, tuple[float, float]] = {}
    for name, entry in entries.items():
        if isinstance(entry, dict):
            bounds = entry.get("range")
            if bounds is not None:
                if not (isinstance(bounds, list) and len(bounds) == 2 and bounds[0] < bounds[1]):
                    raise DataError(
                        f"{where}.metrics.{name}.range': expected [low, high], got {bounds!r}"
                    )
                ranges[str(name)] = (float(bounds[0]), float(bounds[1]))
            entry = entry.get("meaning", "")
        if not str(entry).strip():
            raise DataError(f"{where}.metrics.{name}': the meaning is empty")
        meanings[str(name)] = str(entry).strip()
    return meanings, ranges


@cache
def task_specs() -> dict[str, TaskReportSpec]:
    """Every task declared in a family ``eval.yaml``, by task name."""
    specs: dict[str, TaskReportSpec] = {}
    for family, data in _load_all():
        for entry in data.get("tasks") or []:
            specs[entry["name"]] = _spec(family, data, entry)
    return specs
