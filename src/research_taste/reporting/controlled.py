"""The controlled headline beside the raw one: the headline on items the model cannot recall.

A dated task's spec (``core/spec.py``) declares ``controlled=Controlled(floor=10)``: the
controlled headline is the task's headline on its clean items only, ``<headline>_clean``
(after the run's cutoff, not recognised by the probe, not named by their text: issue 34),
``n`` the log's count of those items (``clean_items`` unless the spec names another), ``floor``
the least ``n`` worth ranking by. An undated task's spec gives its ``undated_reason`` instead;
its tables say that recall is not controlled, and why.

A dated table shows ``<metric> (n)`` beside the raw headline and, for every row, the log's
``recognized_rate``, ``post_cutoff_recognized`` and ``clean_cutoff`` (the month that made items
clean, and whether it was stated or estimated by the recognition probe). Marks:

- ``†``: the row's ``n`` is below the floor (its figure is shown but not ranked by);
- ``‡``: the row's stated knowledge cutoff is contradicted: the model recognised items
  published after it (``post_cutoff_recognized`` > 0), and a note under the table says by how
  many;
- ``– (<reason>)``: no controlled figure, with its real reason (:func:`missing_reason`).

A table ranks by the controlled headline only when every ranked row has one with ``n`` at or
above the floor, else by the raw headline; :func:`ranking_note` says which in one sentence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from research_taste.reporting.cells import DASH, Cell, cell, interval
from research_taste.reporting.recognition import (
    CONTRADICTED,
    RECOGNITION_COLUMNS,
    contradicted,
    value_of,
)
from research_taste.reporting.runs import Run
from research_taste_evals.core.families import task_specs as declared_specs
from research_taste_evals.core.spec import Controlled

BELOW_FLOOR = "†"
MIN_CLEAN = 3  # fewer clean items than this: no controlled figure is shown at all
PREDATES = "log predates clean items"


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


@cache
def controlled_specs() -> dict[str, ControlledHeadline]:
    """Every task's controlled headline (its spec's ``controlled``), by task name."""
    return {
        task: _headline(task, spec.headline, spec.controlled)
        for task, spec in declared_specs().items()
        if spec.controlled is not None
    }


@cache
def uncontrolled_reasons() -> dict[str, str]:
    """Every undated task (its spec has no ``items``), with its spec's ``undated_reason``."""
    return {
        task: str(spec.undated_reason or "its items carry no dates")
        for task, spec in declared_specs().items()
        if not spec.dated
    }


def recall_note(task: str) -> str:
    """One sentence for an undated task's table (empty for a dated or undeclared one)."""
    reason = uncontrolled_reasons().get(task)
    if reason is None:
        return ""
    return f"Recall is not controlled for this task: {reason.rstrip('.')}."


@cache
def variant_controlled_specs() -> dict[tuple[str, str], ControlledHeadline]:
    """The controlled headlines of headline variants (a spec's ``variants``), by (task, raw)."""
    found: dict[tuple[str, str], ControlledHeadline] = {}
    for task, spec in declared_specs().items():
        for variant in spec.variants:
            if variant.controlled is not None:
                raw = spec.headline_of(variant.configuration)
                found[task, raw] = _headline(task, raw, variant.controlled)
    return found


def _headline(task: str, raw: str, declared: Controlled) -> ControlledHeadline:
    return ControlledHeadline(
        task=task, raw=raw, metric=f"{raw}_clean", count=declared.n, floor=declared.floor
    )


def controlled_for(task: str, metrics: list[str]) -> ControlledHeadline | None:
    """The controlled headline of the table's first column when it is a raw headline (the
    task's own or a headline variant's), else None."""
    if not metrics:
        return None
    spec = controlled_specs().get(task)
    if spec is not None and metrics[0] == spec.raw:
        return spec
    return variant_controlled_specs().get((task, metrics[0]))


def recognition_columns(task: str) -> list[str]:
    """The recognition columns (``recognition.py``) for a dated task, else none."""
    return list(RECOGNITION_COLUMNS) if task in controlled_specs() else []


def count_of(run: Run, spec: ControlledHeadline) -> float | None:
    """The run's ``n`` (None when the log lacks it or it is NaN: no cutoff was known)."""
    return value_of(run, spec.count)


def missing_reason(run: Run, spec: ControlledHeadline) -> str | None:
    """Why the run has no controlled figure to show, or None when it has one.

    In this order: the log has no such metric (it predates clean items); the items carry no
    dates (the probe ran over items none of which is dated); the model recognises every
    probed item; no cutoff is known (neither stated nor estimated); the raw headline itself is
    NaN (its clean subset cannot be defined either); the figure is NaN on enough clean items;
    fewer than :data:`MIN_CLEAN` clean items.
    """
    if spec.metric not in run.metrics:
        return PREDATES
    n, value = count_of(run, spec), value_of(run, spec.metric)
    if n is not None and n >= MIN_CLEAN and value is not None:
        return None
    probed, dated = value_of(run, "probed_items"), value_of(run, "estimated_cutoff_items")
    if probed and dated == 0:
        return "no dates: the items carry none"
    rate, recognized = value_of(run, "recognized_rate"), value_of(run, "recognized_items")
    if rate == 1 or (probed and recognized == probed):
        return "the model recognises every item"
    if n is None and value_of(run, "clean_cutoff") is None:
        return "no cutoff known (none stated, none estimable)"
    if value_of(run, spec.raw) is None:  # the clean subset of an undefined figure is undefined
        return f"undefined: the raw {spec.raw} is NaN too"
    if n is not None and n >= MIN_CLEAN:
        return f"undefined on its {int(n)} clean items"
    return f"too few clean items ({0 if n is None else int(n)}, fewer than {MIN_CLEAN})"


def below_floor(run: Run, spec: ControlledHeadline) -> bool:
    """Is the run's controlled figure missing or its ``n`` below the floor?"""
    n = count_of(run, spec)
    return missing_reason(run, spec) is not None or n is None or n < spec.floor


def controlled_text(run: Run, spec: ControlledHeadline) -> str:
    """``value [low, high] (n=N)``, ``†`` below the floor; ``– (reason)`` with no figure."""
    reason = missing_reason(run, spec)
    if reason is not None:
        return f"{DASH} ({reason})"
    shown = cell(run, spec.metric)
    bounds = interval(run, spec.metric)
    if bounds is None or any(math.isnan(bound) for bound in bounds):
        shown = Cell(shown.value)  # no interval logged, or none defined
    text = f"{shown.text()} (n={int(count_of(run, spec) or 0)})"
    return text + (f" {BELOW_FLOOR}" if below_floor(run, spec) else "")


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
            f"Ranked by {spec.metric} (higher first), {spec.raw} on clean items only (after "
            f"each model's cutoff, not recognised, not named): every row has at least "
            f"{spec.floor} ({spec.count})."
        )
    return (
        f"Ranked by the raw {spec.raw} (higher first), not by {spec.metric}: a row has fewer "
        f"than {spec.floor} {spec.count} (marked {BELOW_FLOOR}) or no controlled figure, so the "
        "raw figure, which includes items the model may remember, orders the table."
    )


def contradicted_note(task: str, rows: list[Run]) -> str:
    """One sentence naming the rows whose stated cutoff is contradicted (empty when none)."""
    if task not in controlled_specs():
        return ""
    listed = [
        f"{run.model} ({int(run.metrics['post_cutoff_recognized'])} items)"
        for run in rows
        if contradicted(run)
    ]
    if not listed:
        return ""
    return (
        f"{CONTRADICTED} Stated knowledge cutoff contradicted: the model recognised items "
        f"published after it: {', '.join(listed)}."
    )


def recall_notes(task: str, rows: list[Run]) -> str:
    """The recall sentences of a task's table: recall not controlled, contradicted cutoffs."""
    return " ".join(part for part in (recall_note(task), contradicted_note(task, rows)) if part)


def table_notes(task: str, rows: list[Run], metrics: list[str], include_partial: bool) -> str:
    """The sentences above a ranked table: which metric ranks it, then :func:`recall_notes`."""
    parts = (ranking_note(task, rows, metrics, include_partial), recall_notes(task, rows))
    return " ".join(part for part in parts if part)
