"""The controlled headline beside the raw one: the headline on items the model cannot recall.

A family declares, per task in its ``eval.yaml`` (``metadata.extras.tasks.<task>``)::

    controlled_headline: {metric: accuracy_post_cutoff, n: post_cutoff_pairs, floor: 100}

``metric`` is the family's headline (the first of ``headline_metrics``) computed only on items
published after the evaluated model's knowledge cutoff, ``n`` the log's count of those items,
``floor`` the least ``n`` at which the controlled figure is worth ranking by.

Tables whose first column is the raw headline show ``<metric> (n)`` beside it: the value, its
95% interval where the log has one, and ``n``; a row whose ``n`` is below the floor (or
unknown: no cutoff known for the model) is marked ``†``. A table ranks by the controlled
headline when every ranked row has it at or above the floor, else by the raw one, and
:func:`ranking_note` says which.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from research_taste.reporting.families import EVAL_YAML, family_eval_yamls
from research_taste.reporting.runs import Run
from research_taste_evals.core.data import DataError

CONTROLLED_KEY = "controlled_headline"
BELOW_FLOOR = "†"
# The CI key styles tasks write: ``<metric>_ci_low`` and ``<metric>/ci_low``.
_CI_SUFFIXES = (("_ci_low", "_ci_high"), ("/ci_low", "/ci_high"))


@dataclass(frozen=True)
class ControlledHeadline:
    """A task's controlled headline: its metric, the count behind it and the ranking floor."""

    task: str
    raw: str
    metric: str
    count: str
    floor: int

    @property
    def column(self) -> str:
        """The table column's name."""
        return f"{self.metric} (n)"


def _parse(family: str, task: str, raw: str, block: object) -> ControlledHeadline:
    where = f"{family}/{EVAL_YAML}: field 'metadata.extras.tasks.{task}.{CONTROLLED_KEY}'"
    if not isinstance(block, dict):
        raise DataError(f"{where}: expected a mapping with metric, n and floor")
    metric, count, floor = block.get("metric"), block.get("n"), block.get("floor")
    if not isinstance(metric, str) or not isinstance(count, str):
        raise DataError(f"{where}: 'metric' and 'n' must be metric names")
    if not isinstance(floor, int) or isinstance(floor, bool) or floor < 1:
        raise DataError(f"{where}.floor: expected a whole number >= 1, got {floor!r}")
    return ControlledHeadline(task=task, raw=raw, metric=metric, count=count, floor=floor)


@cache
def controlled_specs() -> dict[str, ControlledHeadline]:
    """Every task's declared controlled headline, by task name."""
    found: dict[str, ControlledHeadline] = {}
    for family, data in family_eval_yamls().items():
        tasks = ((data.get("metadata") or {}).get("extras") or {}).get("tasks") or {}
        for task, declared in tasks.items():
            if isinstance(declared, dict) and CONTROLLED_KEY in declared:
                raw = str((declared.get("headline_metrics") or [""])[0])
                found[task] = _parse(family, task, raw, declared[CONTROLLED_KEY])
    return found


def controlled_for(task: str, metrics: list[str]) -> ControlledHeadline | None:
    """The task's controlled headline when the table's first column is its raw headline."""
    spec = controlled_specs().get(task)
    return spec if spec is not None and metrics and metrics[0] == spec.raw else None


def count_of(run: Run, spec: ControlledHeadline) -> float | None:
    """The run's ``n`` (None when the log lacks it or it is NaN: no cutoff was known)."""
    value = run.metrics.get(spec.count)
    return None if value is None or math.isnan(value) else value


def below_floor(run: Run, spec: ControlledHeadline) -> bool:
    """Is the run's ``n`` unknown or below the floor?"""
    n = count_of(run, spec)
    return n is None or n < spec.floor


def controlled_text(run: Run, spec: ControlledHeadline) -> str:
    """``value [low, high] (n=N)``, marked when below the floor; a dash when not in the log."""
    from research_taste.reporting.leaderboard import DASH, Cell

    value = run.metrics.get(spec.metric)
    if value is None:
        return DASH
    low = high = None
    for low_key, high_key in _CI_SUFFIXES:
        if spec.metric + low_key in run.metrics and spec.metric + high_key in run.metrics:
            low, high = run.metrics[spec.metric + low_key], run.metrics[spec.metric + high_key]
            break
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        low = high = None  # no interval (none in the log, or none defined: n = 0)
    n = count_of(run, spec)
    shown = f"{Cell(value, low, high).text()} (n={'?' if n is None else int(n)})"
    return shown + (f" {BELOW_FLOOR}" if below_floor(run, spec) else "")


def _considered(rows: list[Run], include_partial: bool) -> list[Run]:
    return [run for run in rows if include_partial or not run.partial]


def ranking_metric(
    task: str, rows: list[Run], metrics: list[str], include_partial: bool
) -> str | None:
    """The metric a table ranks by: the controlled headline when every ranked row has it at or
    above the floor, else the first column (the raw headline or the first metric asked for)."""
    spec = controlled_for(task, metrics)
    considered = _considered(rows, include_partial)
    if spec is not None and considered and not any(below_floor(r, spec) for r in considered):
        return spec.metric
    return metrics[0] if metrics else None


def ranking_note(task: str, rows: list[Run], metrics: list[str], include_partial: bool) -> str:
    """One sentence: which metric the table ranks by, and why (empty without a metric)."""
    by = ranking_metric(task, rows, metrics, include_partial)
    if by is None:
        return ""
    spec = controlled_for(task, metrics)
    if spec is None:
        return f"Ranked by {by} (higher first)."
    if by == spec.metric:
        return (
            f"Ranked by {spec.metric} (higher first), {spec.raw} on the items published after "
            f"each model's knowledge cutoff: every row has at least {spec.floor} "
            f"({spec.count})."
        )
    return (
        f"Ranked by the raw {spec.raw} (higher first), not by {spec.metric}: a row has fewer "
        f"than {spec.floor} {spec.count} or no known cutoff (marked {BELOW_FLOOR}); the raw "
        "figure includes items the model may remember."
    )
