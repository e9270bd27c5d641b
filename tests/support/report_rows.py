"""Leaderboard rows (``reporting.runs.Run``) for report tests, without running a task."""

from __future__ import annotations

from typing import Any

from research_taste.reporting.families import task_specs
from research_taste.reporting.runs import Run


def run_of(metrics: dict[str, float], task: str = "tastybench", **fields: Any) -> Run:
    """A leaderboard row of ``task`` with ``metrics`` (and any other ``Run`` field)."""
    values: dict[str, Any] = {
        "task": task,
        "model": "baseline/m",
        "roles": {},
        "config": {},
        "metrics": metrics,
        "total_samples": 20,
        "completed_samples": 20,
        "tokens": 0,
        "cost": None,
        "created": "2026-01-01T00:00:00",
        "started": "2026-01-01T00:00:00",
        "completed": "2026-01-01T00:01:00",
        "version": task_specs()[task].version,
        "log": "m.eval",
    }
    return Run(**(values | fields))
