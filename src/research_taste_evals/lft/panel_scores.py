"""How a grader panel's verdicts become one LFT sample score: each member's record and line, the
panel's median score (with partial credit or not), and the unscored results (no answer, a
context overflow), plus the nudge trajectory a nudge run records. The @scorers are scorer.py.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Score

from research_taste_evals.core.grading import MemberGrade
from research_taste_evals.core.reasons import (
    CONTEXT_OVERFLOW,
    GRADER_FAILED,
)
from research_taste_evals.core.stats import NAN
from research_taste_evals.lft.grader import FEASIBLE_LEVEL, LftPanelGrade
from research_taste_evals.lft.panel_agreement import (
    PANEL_CREDITS_KEY,
    PANEL_LEVELS_KEY,
)
from research_taste_evals.lft.parsing import LftGrade
from research_taste_evals.lft.turns import NUDGE_METADATA_KEY


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
