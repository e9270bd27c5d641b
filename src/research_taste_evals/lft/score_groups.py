"""The figures of ``lft`` and ``lft_grader_check``: one metric per task (``core/metric_groups.py``).

Each task's scorer reports the first group its spec declares (``specs.py``: the headline with
its standard error, the other overall figures the paper reports, the grader agreement and the
failure rates); every other figure (per-task breakdowns, standard errors of the others) is
derived from the log (``part="all"``, ``core.metric_groups.log_figures``).
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

# Each task's metrics, in the order their figures are named (``core.metric_groups.figures``).
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
    """``lft``'s figures: the first group (``part="first"``) or every figure (``all``)."""
    return logged_figures(LFT.first_names(), _LFT)


@metric
def grader_check_figures() -> Metric:
    """``lft_grader_check``'s figures: the first group or every figure (``all``)."""
    return logged_figures(LFT_GRADER_CHECK.first_names(), _CHECK)
