"""The Long-Form Task scorer: a grader panel's median end-to-end score and partial credit.

Score value (a dict, so it survives epochs and metrics can count failures):

- ``end_to_end``: median end-to-end level over the valid grades (0-10; a half when the two
  middle grades differ), ``iqr`` its inter-quartile range, ``feasible`` 1.0 if the median >= 5;
- ``partial_credit``: median of each grade's points met / points available (0-1),
  ``partial_credit_iqr`` its inter-quartile range;
- ``valid_grades`` and ``failed_grades``: how many panel members gave a grade or failed;
- ``unscored``: 1.0 when the panel was below quorum (a count: summed over epochs);
- ``contradictions``: valid grades whose level claims criteria their own ``criteria_met``
  does not list (NaN when partial credit is not graded, since nothing is listed then).

Below quorum the score fields are NaN (the failure counts stay) and ``reason`` is
``grader_failed``: the sample is unscored, never 0. Every member's grade, rationale and
reasoning (or failure and raw answer) is in the score metadata and the explanation.
"""

from __future__ import annotations

from inspect_ai.model import CachePolicy
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.grading import check_quorum, resolve_graders
from research_taste_evals.core.reasons import (
    OVERFLOW_STOP_REASON,
)
from research_taste_evals.lft.dataset import RUN_KEY, run_cache
from research_taste_evals.lft.grader import (
    DEFAULT_MEDIAN_RULE,
    LFT_GRADER_REPEATS,
    MedianRule,
    grade_solution,
    require_grader_role,
)
from research_taste_evals.lft.panel_scores import (
    context_overflow_score,
    missing_answer_score,
    panel_score,
    record_nudges,
)
from research_taste_evals.lft.rubric import rubric_from_metadata
from research_taste_evals.lft.task_metrics import lft_figures
from research_taste_evals.lft.turns import NUDGE_METADATA_KEY


@scorer(metrics=[lft_figures()])
def lft_scorer(
    grader_repeats: int = LFT_GRADER_REPEATS,
    quorum: int | None = None,
    partial_credit: bool = True,
    graders: str | list[str] | None = None,
    cache: bool | CachePolicy = False,
    allow_self_grading: bool = False,
    median: MedianRule = DEFAULT_MEDIAN_RULE,
) -> Scorer:
    """Grade the final solution with a panel: ``grader`` role models x ``grader_repeats``.

    Args:
        grader_repeats: Calls per grader model (AISI: 10; the median is reported).
        quorum: Valid grades a sample needs to be scored (default: half the panel).
        partial_credit: Also grade the flattened checklist (points met / points available).
        graders: Grader models; default the ``grader`` role (one model or a list). With
            neither, the evaluated model grades itself only if ``allow_self_grading``.
        cache: Cache grader calls (each member, and each run, under its own scope).
        allow_self_grading: Let the evaluated model grade itself when no grader is given.
        median: How the median of an even number of grades is taken (``MedianRule``).
    """
    if grader_repeats < 1:
        raise ValueError(f"grader_repeats must be >= 1, got {grader_repeats}")

    async def score(state: TaskState, target: Target) -> Score:
        rubric = rubric_from_metadata(state.metadata)
        solution = state.output.completion.strip()
        if not solution and state.output.stop_reason == OVERFLOW_STOP_REASON:
            return context_overflow_score(state.output.error)
        if not solution:
            missing = missing_answer_score()
            record_nudges(missing, state.metadata.get(NUDGE_METADATA_KEY))
            return missing
        if graders is None:
            require_grader_role(allow_self_grading)
        models = resolve_graders(graders)
        check_quorum(quorum, len(models) * grader_repeats)
        graded = await grade_solution(
            rubric,
            solution,
            models,
            grader_repeats,
            quorum,
            partial_credit,
            run_cache(cache, state.metadata.get(RUN_KEY)),
            median=median,
        )
        result = panel_score(graded, partial_credit)
        result.answer = solution
        assert result.metadata is not None
        result.metadata["self_graded"] = any(str(m) == str(state.model) for m in models)
        result.metadata["rubric_hash"] = rubric.content_hash()
        record_nudges(result, state.metadata.get(NUDGE_METADATA_KEY))
        return result

    return score
