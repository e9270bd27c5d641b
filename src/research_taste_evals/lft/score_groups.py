"""The two score groups of ``lft`` and ``lft_grader_check`` (``core/metric_groups.py``).

Each task's scorer reports the first group (eval.yaml ``first_group``: the headline with its
standard error, the other overall figures the paper reports, the grader agreement and the
failure rates); ``lft_details`` and ``grader_check_details`` copy its score (no grader call)
and report every other figure (per-task breakdowns, standard errors of the others), under the
names the single group gave them.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, Scorer, metric, scorer

from research_taste_evals.core.metric_groups import (
    bundle_figures,
    copy_score,
    details_metric,
    first_group_metric,
)
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

# The metrics each scorer declared when they were one group, in that order.
_LFT = bundle_figures(
    "lft",
    [
        lft_end_to_end(),
        lft_feasible(),
        lft_partial_credit(),
        lft_grader_agreement(),
        lft_grader_failures(),
        lft_nudges(),
    ],
)
_CHECK = bundle_figures(
    "lft_grader_check", [grader_recovery(), grader_error(), lft_grader_failures()]
)


def _lft_names(scores: list[SampleScore]) -> tuple[str, ...]:
    return LFT.first_names()


def _check_names(scores: list[SampleScore]) -> tuple[str, ...]:
    return LFT_GRADER_CHECK.first_names()


@metric
def lft_headline() -> Metric:
    """``lft``'s first score group (eval.yaml ``first_group``)."""
    return first_group_metric(_LFT, _lft_names)


@metric
def lft_figures() -> Metric:
    """Every other ``lft`` figure (the second score group)."""
    return details_metric(_LFT, _lft_names)


@metric
def grader_check_headline() -> Metric:
    """``lft_grader_check``'s first score group (eval.yaml ``first_group``)."""
    return first_group_metric(_CHECK, _check_names)


@metric
def grader_check_figures() -> Metric:
    """Every other ``lft_grader_check`` figure (the second score group)."""
    return details_metric(_CHECK, _check_names)


@scorer(metrics=[lft_figures()])
def lft_details(of: str = "lft_scorer") -> Scorer:
    """The second score group: a copy of ``lft_scorer``'s score, every other figure."""
    return copy_score(of)


@scorer(metrics=[grader_check_figures()])
def grader_check_details(of: str = "grader_check_scorer") -> Scorer:
    """The second score group: a copy of ``grader_check_scorer``'s score, every other figure."""
    return copy_score(of)
