"""Rows -> boards: one ranked table per task and headline, never two headlines in one ranking.

A task's runs share a table unless a family declares a headline variant (``families.py``,
``headline_variants``): TastyBench's ``schedule=matched`` runs report ``pairwise_accuracy``,
its other schedules ``bt_spearman``, and two schedules' figures are not comparable, so each
variant's runs get a board of their own, headed and ranked by the variant's headline (issue 42).
"""

from __future__ import annotations

from dataclasses import dataclass

from research_taste.reporting.families import task_specs
from research_taste.reporting.runs import Run


@dataclass(frozen=True)
class Board:
    """One leaderboard: a task's runs that share a headline."""

    task: str
    variant: str  # "" for the task's own headline, else the selecting arguments
    headline: tuple[str, ...]
    rows: list[Run]

    @property
    def name(self) -> str:
        """``tastybench`` or ``tastybench (schedule=matched)``."""
        return f"{self.task} ({self.variant})" if self.variant else self.task

    @property
    def slug(self) -> str:
        """A file and anchor name: ``tastybench`` or ``tastybench-schedule-matched``."""
        if not self.variant:
            return self.task
        return f"{self.task}-{self.variant.replace('=', '-').replace(' ', '-')}"

    def columns(self, requested: list[str] | None) -> list[str]:
        """The metric columns: the requested ones its rows report, else its headline."""
        if requested:
            reported = {name for run in self.rows for name in run.metrics}
            return [name for name in requested if name in reported]
        return list(self.headline)


def boards(rows: list[Run]) -> list[Board]:
    """The boards of ``rows``: tasks in family order, each task's own headline first, then its
    declared variants in order; a board only where it has rows."""
    found: list[Board] = []
    for task, spec in task_specs().items():
        task_rows = [run for run in rows if run.task == task]
        if not task_rows:
            continue
        own = [run for run in task_rows if spec.variant_for(run.config) is None]
        if own:
            found.append(Board(task, "", spec.headline_metrics, own))
        for variant in spec.variants:
            picked = [run for run in task_rows if spec.variant_for(run.config) == variant]
            if picked:
                found.append(Board(task, variant.label, variant.headline_metrics, picked))
    return found


def board_of(run: Run) -> str:
    """The name of the board ``run`` belongs to."""
    variant = task_specs()[run.task].variant_for(run.config)
    return f"{run.task} ({variant.label})" if variant else run.task
