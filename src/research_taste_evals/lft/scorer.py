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

from typing import Any

from inspect_ai.model import CachePolicy
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.grading import MemberGrade, check_quorum, resolve_graders
from research_taste_evals.core.reasons import (
    CONTEXT_OVERFLOW,
    GRADER_FAILED,
    OVERFLOW_STOP_REASON,
)
from research_taste_evals.core.stats import NAN
from research_taste_evals.lft.dataset import RUN_KEY, run_cache
from research_taste_evals.lft.grader import (
    DEFAULT_MEDIAN_RULE,
    FEASIBLE_LEVEL,
    LFT_GRADER_REPEATS,
    LftGrade,
    LftPanelGrade,
    MedianRule,
    grade_solution,
    require_grader_role,
)
from research_taste_evals.lft.metrics import PANEL_CREDITS_KEY, PANEL_LEVELS_KEY
from research_taste_evals.lft.rubric import rubric_from_metadata
from research_taste_evals.lft.score_groups import lft_headline
from research_taste_evals.lft.solvers import NUDGE_METADATA_KEY


def _member_record(member: MemberGrade[LftGrade]) -> dict[str, Any]:
    record: dict[str, Any] = {"model": member.model, "repeat": member.repeat + 1}
    grade = member.grade
    if grade is None:
        return {
            **record,
            "failure": member.failure,
            "detail": member.detail,
            "raw": member.completion,
        }
    return {
        **record,
        "level": grade.level,
        "partial_credit": grade.partial_credit,
        "criteria_met": list(grade.criteria_met),
        "rationale": grade.rationale,
        "reasoning": grade.reasoning,
        "unknown_criteria": list(grade.unknown_criteria),
        "unlisted_below_level": list(grade.unlisted_below_level),
    }


def _member_line(number: int, record: dict[str, Any]) -> str:
    who = f"{number}. {record['model']} (repeat {record['repeat']})"
    if "failure" in record:
        return f"{who}: FAILED ({record['failure']}: {record['detail']})"
    credit = record["partial_credit"]
    return f"{who}: level {record['level']}, partial credit {credit:.2f}. {record['rationale']}"


def panel_score(graded: LftPanelGrade, partial_credit: bool) -> Score:
    """Turn a panel's grades into the sample's score (unscored below quorum)."""
    panel = graded.panel
    records = [_member_record(m) for m in panel.members]
    valid, failed = len(panel.valid), len(panel.failures)
    scored = panel.has_quorum
    e2e, credit = graded.end_to_end, graded.partial_credit
    value = {
        "end_to_end": e2e.median if scored else NAN,
        "iqr": e2e.iqr if scored else NAN,
        "feasible": float(e2e.median >= FEASIBLE_LEVEL) if scored else NAN,
        "partial_credit": credit.median if scored and credit is not None else NAN,
        "partial_credit_iqr": credit.iqr if scored and credit is not None else NAN,
        "valid_grades": float(valid),
        "failed_grades": float(failed),
        "unparseable_grades": float(panel.failure_counts()["unparseable"]),
        "unscored": 0.0 if scored else 1.0,
        "contradictions": (
            float(sum(g.contradicts_checklist for g in panel.valid)) if partial_credit else NAN
        ),
    }
    if scored:
        pc = "" if credit is None else f"; median partial credit {credit.median:.3f}"
        head = f"Median end-to-end level {e2e.median:g} (IQR {e2e.iqr:g}){pc}"
    else:
        head = f"UNSCORED: {valid} valid grade(s), fewer than the quorum of {panel.quorum}"
    lines = [f"{head}; {valid} valid, {failed} failed of {len(panel.members)} graders."]
    lines += [_member_line(i + 1, r) for i, r in enumerate(records)]
    return Score(
        value=value,
        reason=None if scored else GRADER_FAILED,
        explanation="\n\n".join(lines),
        metadata={
            "quorum": panel.quorum,
            "failures_by_kind": panel.failure_counts(),
            "partial_credit_graded": partial_credit,
            PANEL_LEVELS_KEY: graded.levels,
            PANEL_CREDITS_KEY: [g.partial_credit for g in panel.valid] if partial_credit else [],
            "graders": records,
        },
    )


def missing_answer_score() -> Score:
    """An empty solution is level 0 by definition (a "missing answer"), with no grader called."""
    return Score(
        value={
            "end_to_end": 0.0,
            "iqr": 0.0,
            "feasible": 0.0,
            "partial_credit": 0.0,
            "partial_credit_iqr": 0.0,
            "valid_grades": 0.0,
            "failed_grades": 0.0,
            "unscored": 0.0,
            "contradictions": 0.0,
        },
        answer="",
        explanation="The solution is empty: level 0 (missing answer) by the rubric's definition.",
        metadata={"missing_answer": True, PANEL_LEVELS_KEY: [], PANEL_CREDITS_KEY: []},
    )


def context_overflow_score(detail: str | None) -> Score:
    """No solution because the prompt did not fit the model's context: unscored, not level 0.

    A missing answer is level 0 by the rubric, but an overflow is the run's context budget
    (``access=context`` documents, a small local model), so it is counted in ``unscored``.
    """
    return Score(
        value={
            "end_to_end": NAN,
            "iqr": NAN,
            "feasible": NAN,
            "partial_credit": NAN,
            "partial_credit_iqr": NAN,
            "valid_grades": 0.0,
            "failed_grades": 0.0,
            "unscored": 1.0,
            "contradictions": NAN,
        },
        answer="",
        reason=CONTEXT_OVERFLOW,
        explanation=f"UNSCORED: {detail or 'the prompt is longer than the model context'}",
        metadata={
            "context_overflow": detail,
            PANEL_LEVELS_KEY: [],
            PANEL_CREDITS_KEY: [],
        },
    )


def record_nudges(result: Score, trajectory: dict[str, Any] | None) -> None:
    """Carry a nudge trajectory into the score value, so it survives epochs and metrics see it.

    ``nudges_to_top`` is capped at ``max_nudges`` when level 10 was never reached;
    ``reached_top`` says whether it was. A trajectory cut short by a failed grading panel
    has no defined count: both are NaN, and the trajectory stays in the metadata.
    """
    if not trajectory:
        return
    assert isinstance(result.value, dict) and result.metadata is not None
    failed = bool(trajectory.get("grading_failed"))
    result.value["nudges_to_top"] = NAN if failed else float(trajectory["nudges_to_top_capped"])
    result.value["reached_top"] = NAN if failed else float(bool(trajectory["reached_top"]))
    result.metadata[NUDGE_METADATA_KEY] = trajectory


@scorer(metrics=[lft_headline()])  # every other figure: score_groups.lft_details
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
