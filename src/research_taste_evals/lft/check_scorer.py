"""The ``lft_grader_check`` scorer: the LFT grader panel grades a reference of known level.

The panel is ``lft_scorer``'s (``scorer.py``: ``panel_score``); the value compares its median
level with the reference's known level. Its metric logs the figures the spec
names (``task_metrics.py``).
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.grading import check_quorum, resolve_graders
from research_taste_evals.core.stats import NAN
from research_taste_evals.lft.grader import LFT_GRADER_REPEATS, grade_solution
from research_taste_evals.lft.panel_scores import panel_score
from research_taste_evals.lft.rubric import rubric_from_metadata
from research_taste_evals.lft.task_metrics import grader_check_figures

# ``lft_grader_check``: the panel grades a reference of known level.
WITHIN = 1  # "within one level"


def check_value(
    panel_value: dict[str, float], levels: list[int], known: int, known_credit: float | None
) -> dict[str, float]:
    """Compare a panel's median with the known level (NaN fields when the panel is unscored)."""
    median = panel_value["end_to_end"]
    credit = panel_value["partial_credit"]
    scored = not math.isnan(median)
    error = median - known if scored else NAN
    return {
        "end_to_end": median,
        "known_level": float(known),
        "error": error,
        "abs_error": abs(error),
        "exact": float(median == known) if scored else NAN,
        "within_one": float(abs(error) <= WITHIN) if scored else NAN,
        "overscored": float(error > 0) if scored else NAN,
        "member_exact": sum(lv == known for lv in levels) / len(levels) if levels else NAN,
        "partial_credit_abs_error": (
            abs(credit - known_credit) if known_credit is not None and scored else NAN
        ),
        "valid_grades": panel_value["valid_grades"],
        "failed_grades": panel_value["failed_grades"],
        "unscored": panel_value.get("unscored", float(not scored)),
        "contradictions": panel_value.get("contradictions", NAN),
    }


@scorer(metrics=[grader_check_figures()])
def grader_check_scorer(
    grader_repeats: int = LFT_GRADER_REPEATS,
    quorum: int | None = None,
    partial_credit: bool = True,
    cache: bool = False,
) -> Scorer:
    """Grade the reference with the panel and compare its median level with the known level."""

    async def score(state: TaskState, target: Target) -> Score:
        rubric = rubric_from_metadata(state.metadata)
        models = resolve_graders(None)
        check_quorum(quorum, len(models) * grader_repeats)
        graded = await grade_solution(
            rubric, state.output.completion, models, grader_repeats, quorum, partial_credit, cache
        )
        panel = panel_score(graded, partial_credit)
        assert isinstance(panel.value, dict)
        known = int(state.metadata["known_level"])
        credit = state.metadata.get("known_partial_credit") if partial_credit else None
        panel.value = check_value(panel.value, graded.levels, known, credit)
        panel.explanation = f"Known level {known}. {panel.explanation}"
        return panel

    return score
