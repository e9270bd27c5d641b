"""The recognition columns of every dated table: what the model recognised, and the cutoff
that made items clean (issues 34 and 42).

``recognized_rate``, ``post_cutoff_recognized`` (``‡`` when above 0: the stated cutoff is
contradicted) and ``clean_cutoff``, shown as its month and where it came from: the stated
cutoff, or the month the recognition probe shows recall through (``core.recall_metrics``
uses the later of the two).
"""

from __future__ import annotations

import math

from research_taste.reporting.cells import DASH, fmt
from research_taste.reporting.runs import Run

CONTRADICTED = "‡"
# Every dated table: how much the model recognised, and the cutoff that made items clean.
RECOGNITION_COLUMNS = ("recognized_rate", "post_cutoff_recognized", "clean_cutoff")
STATED, ESTIMATED = "stated", "estimated by the probe"


def value_of(run: Run, name: str) -> float | None:
    value = run.metrics.get(name)
    return None if value is None or math.isnan(value) else value


def contradicted(run: Run) -> bool:
    """Did the model recognise items published after its stated cutoff?"""
    recognized = value_of(run, "post_cutoff_recognized")
    return recognized is not None and recognized > 0


def _month(yyyymm: float) -> str:
    return f"{int(yyyymm) // 100}-{int(yyyymm) % 100:02d}"


def cutoff_source(run: Run) -> str | None:
    """Where the run's ``clean_cutoff`` came from: :data:`STATED` or :data:`ESTIMATED`.

    The clean twin uses the later of the stated cutoff and the month the probe shows recall
    through (``core.recall_metrics``). Stated: the ``knowledge_cutoff`` argument's month, or,
    with no argument, a cutoff from Inspect's model database (then ``post_cutoff_recognized``
    is defined) that is not the estimate. None without a clean cutoff.
    """
    clean = value_of(run, "clean_cutoff")
    if clean is None:
        return None
    argument = str(run.task_args.get("knowledge_cutoff") or "")
    if argument[:7].replace("-", "") == str(int(clean)):
        return STATED
    if value_of(run, "estimated_cutoff") == clean:
        return ESTIMATED
    stated_elsewhere = not argument and value_of(run, "post_cutoff_recognized") is not None
    return STATED if stated_elsewhere else ESTIMATED


def recognition_text(run: Run, name: str) -> str:
    """A recognition column's cell: the figure, ``‡`` on a contradicted cutoff, the clean
    cutoff's month and where it came from (``2024-02 estimated by the probe``), or a dash."""
    value = run.metrics.get(name)
    if value is None:
        return DASH
    if name == "clean_cutoff":
        source = cutoff_source(run)
        return f"{_month(value)} {source}" if source else "none"
    if name != "post_cutoff_recognized":
        return fmt(value)
    mark = f" {CONTRADICTED}" if contradicted(run) else ""
    return (str(int(value)) if float(value).is_integer() else fmt(value)) + mark  # a count
