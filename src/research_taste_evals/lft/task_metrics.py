"""The figures of ``lft`` and ``lft_grader_check``: one metric per task (``core/task_metric.py``).

Each task's scorer logs the figures its spec names (``specs.py``: the headline with its standard
error, the other overall figures the paper reports, the per-research-task level and partial
credit, the grader agreement and the failure rates); the log holds them all.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, metric

from research_taste_evals.core.task_metric import logged_figures
from research_taste_evals.lft.metrics import (
    grader_error,
    grader_recovery,
    lft_end_to_end,
    lft_feasible,
    lft_grader_failures,
    lft_nudges,
    lft_partial_credit,
)
from research_taste_evals.lft.panel_agreement import lft_grader_agreement
from research_taste_evals.lft.specs import LFT, LFT_GRADER_CHECK

# Each task's metrics, in the order their figures are named (``core.task_metric.figures``).
_LFT = (
    lft_end_to_end(),
    lft_feasible(),
    lft_partial_credit(),
    lft_grader_agreement(),
    lft_grader_failures(),
    lft_nudges(),
)
_CHECK = (grader_recovery(), grader_error(), lft_grader_failures())


@metric
def lft_figures() -> Metric:
    """``lft``'s figures: those its spec names."""
    return logged_figures(LFT.first_names(), _LFT)


@metric
def grader_check_figures() -> Metric:
    """``lft_grader_check``'s figures: those its spec names."""
    return logged_figures(LFT_GRADER_CHECK.first_names(), _CHECK)
