"""LFT grading and scorer: parsing, hand-worked partial credit, panel medians, quorum, metrics."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import SampleScore, Score
from inspect_ai.solver import generate
from mock_models import counting_model

from research_taste_evals.core.reasons import GRADER_FAILED
from research_taste_evals.core.task_metric import log_results
from research_taste_evals.lft.grader import grading_prompt, panel_median
from research_taste_evals.lft.metrics import (
    lft_end_to_end,
    lft_feasible,
    lft_grader_failures,
)
from research_taste_evals.lft.panel_agreement import (
    lft_epochs_reducer,
    lft_grader_agreement,
    panel_alpha,
)
from research_taste_evals.lft.parsing import extract_json_object, parse_lft_grade
from research_taste_evals.lft.rubric import Rubric
from research_taste_evals.lft.scorer import lft_scorer

# Hand-worked rubric: one criterion per level, points 3,2,1,4 then 1 x 6 -> 16 points in all.
POINTS = [3, 2, 1, 4, 1, 1, 1, 1, 1, 1]
IDS = "abcdefghij"
SOLUTION = "Step 1: do the thing. Step 2: check the thing."


def hand_rubric(task_id: str = "hand-task") -> Rubric:
    return Rubric.model_validate(
        {
            "task_id": task_id,
            "title": "Hand-worked task",
            "domain": "testing",
            "prompt": "Write a protocol.",
            "levels": [
                {
                    "level": i + 1,
                    "criteria": [{"id": IDS[i], "text": f"does {IDS[i]}", "points": p}],
                }
                for i, p in enumerate(POINTS)
            ],
        }
    )


def grade_json(level: int, met: list[str], rationale: str = "because") -> str:
    body = json.dumps({"level": level, "criteria_met": met, "rationale": rationale})
    return f"Level 1: met. Level 2: ...\n```json\n{body}\n```"


def test_partial_credit_is_points_met_over_points_available() -> None:
    rubric = hand_rubric()
    assert rubric.total_points() == 16
    grade = parse_lft_grade(grade_json(2, ["a", "b", "d"]), rubric)
    assert (grade.level, grade.points_met, grade.points_available) == (2, 9, 16)
    assert grade.partial_credit == pytest.approx(9 / 16)
    assert grade.reasoning.startswith("Level 1: met") and grade.rationale == "because"


def test_unknown_and_duplicate_ids_earn_nothing_and_are_recorded() -> None:
    grade = parse_lft_grade(grade_json(1, ["a", "a", "zzz"]), hand_rubric())
    assert grade.points_met == 3 and grade.unknown_criteria == ("zzz",)


def test_level_not_backed_by_listed_criteria_is_flagged() -> None:
    grade = parse_lft_grade(grade_json(3, ["a"]), hand_rubric())
    assert grade.unlisted_below_level == ("b", "c")


def test_partial_credit_off_ignores_listed_criteria() -> None:
    grade = parse_lft_grade(grade_json(3, ["a", "b"]), hand_rubric(), partial_credit=False)
    assert grade.criteria_met == () and grade.points_met == 0


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("no json here", "no JSON object"),
        ('```json\n{"level": 11, "criteria_met": []}\n```', "field 'level'"),
        ('{"level": "high"}', "field 'level'"),
        ('{"level": 2, "criteria_met": "a"}', "field 'criteria_met'"),
    ],
)
def test_unparseable_grades_raise_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_lft_grade(text, hand_rubric())


def test_bare_json_after_reasoning_and_the_last_object_wins() -> None:
    value, before = extract_json_object('thinking {"x": 1} ... {"level": 5} trailing')
    assert value == {"level": 5} and before.endswith("... ")


def test_prompt_lists_every_criterion_with_points_and_the_solution() -> None:
    prompt = grading_prompt(hand_rubric(), SOLUTION)
    assert "- [d] (4 pt) does d" in prompt and SOLUTION in prompt and "## Level 10" in prompt
    assert "partial credit" in prompt.lower()
    assert "EVERY criterion of EVERY" not in grading_prompt(hand_rubric(), SOLUTION, False)


# ---- end to end: an Inspect eval with a scripted solver model and a scripted grader panel ----


def solver_model(text: str = SOLUTION) -> Any:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return get_model("mockllm/model", custom_outputs=[out])


def run_lft(
    answers: list[str], solution: str = SOLUTION, **scorer_args: Any
) -> tuple[EvalLog, list[int]]:
    rubric = hand_rubric()
    sample = Sample(
        input=rubric.prompt,
        id="hand",
        metadata={"rubric": rubric.model_dump(mode="json"), "task_id": rubric.task_id},
    )
    grader, calls = counting_model(lambda n: answers[n])
    # As the lft task scores: one scorer (the per-task figures are derived from the log).
    task = Task(dataset=[sample], solver=generate(), scorer=lft_scorer(**scorer_args))
    log = inspect_eval(
        task, model=solver_model(solution), model_roles={"grader": grader}, display="none"
    )[0]
    assert log.status == "success", log.error
    return log, calls


def only_score(log: EvalLog) -> Score:
    assert log.samples is not None
    return next(iter(log.samples[0].scores.values()))  # type: ignore[union-attr]


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return log_results(log)


def test_six_fours_and_four_sevens_give_end_to_end_four() -> None:
    answers = [grade_json(4, ["a", "b", "c", "d"])] * 6 + [grade_json(7, list(IDS[:7]))] * 4
    log, calls = run_lft(answers)
    score = only_score(log)
    assert isinstance(score.value, dict)
    assert len(calls) == 10
    assert score.value["end_to_end"] == 4 and score.value["valid_grades"] == 10
    # partial credits: 10/16 six times, 13/16 four times -> median 10/16.
    assert score.value["partial_credit"] == pytest.approx(10 / 16)
    assert score.value["feasible"] == 0.0 and score.value["iqr"] == 3.0
    assert score.metadata is not None and len(score.metadata["graders"]) == 10
    assert all(g["rationale"] == "because" for g in score.metadata["graders"])
    assert score.explanation is not None and score.explanation.count(": level 4,") == 6
    m = metrics(log)
    assert m["end_to_end"] == 4 and m["end_to_end/hand-task"] == 4 and m["end_to_end_pct"] == 40
    assert m["grader_failure_rate"] == 0 and m["unscored"] == 0


def test_with_caching_on_ten_distinct_grader_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path))
    answers = [grade_json(level, []) for level in range(10)]
    log, calls = run_lft(answers, cache=True)
    score = only_score(log)
    assert len(calls) == 10
    assert score.metadata is not None
    assert sorted(g["level"] for g in score.metadata["graders"]) == list(range(10))
    # Re-run: every member is served its own cached answer (no call, still ten distinct grades);
    # one shared cache scope would have served a single answer ten times.
    again, calls_again = run_lft([grade_json(10, [])] * 10, cache=True)
    assert calls_again == []
    rerun = only_score(again).metadata
    assert rerun is not None and sorted(g["level"] for g in rerun["graders"]) == list(range(10))


def test_three_unparseable_of_ten_score_from_the_seven_valid() -> None:
    answers = ["I cannot grade this."] * 3 + [grade_json(6, list(IDS[:6]))] * 7
    log, _ = run_lft(answers)
    score = only_score(log)
    assert isinstance(score.value, dict) and score.reason is None
    assert score.value["end_to_end"] == 6 and score.value["feasible"] == 1.0
    assert (score.value["valid_grades"], score.value["failed_grades"]) == (7, 3)
    assert score.metadata is not None
    assert score.metadata["failures_by_kind"]["unparseable"] == 3
    failed = [g for g in score.metadata["graders"] if "failure" in g]
    assert len(failed) == 3 and failed[0]["raw"] == "I cannot grade this."
    assert metrics(log)["grader_failure_rate"] == pytest.approx(0.3)


def test_below_quorum_is_unscored_not_zero() -> None:
    answers = ["garbage"] * 8 + [grade_json(9, [])] * 2
    log, _ = run_lft(answers, quorum=3)
    score = only_score(log)
    assert isinstance(score.value, dict) and score.reason == GRADER_FAILED
    assert math.isnan(score.value["end_to_end"]) and math.isnan(score.value["partial_credit"])
    assert (score.value["valid_grades"], score.value["failed_grades"]) == (2, 8)
    m = metrics(log)
    assert m["unscored"] == 1 and m["grader_failure_rate"] == pytest.approx(0.8)
    assert math.isnan(m["end_to_end"])


def test_empty_solution_is_level_zero_without_calling_graders() -> None:
    log, calls = run_lft([], solution="   ")
    score = only_score(log)
    assert calls == [] and isinstance(score.value, dict) and score.value["end_to_end"] == 0


def test_quorum_larger_than_the_panel_is_rejected() -> None:
    with pytest.raises(ValueError, match="grader_repeats"):
        lft_scorer(grader_repeats=0)


# ---- metrics on hand-built sample scores ----


def sample(task: str, value: dict[str, float], levels: list[int] | None = None) -> SampleScore:
    return SampleScore(
        score=Score(value=value, metadata={"panel_levels": levels or []}),
        sample_metadata={"task_id": task},
    )


def test_grouped_means_stderr_and_feasible_share() -> None:
    nan = float("nan")
    scores = [
        sample("t1", {"end_to_end": 2.0, "feasible": 0.0, "valid_grades": 10, "failed_grades": 0}),
        sample("t1", {"end_to_end": 6.0, "feasible": 1.0, "valid_grades": 8, "failed_grades": 2}),
        sample("t2", {"end_to_end": 7.0, "feasible": 1.0, "valid_grades": 10, "failed_grades": 0}),
        sample("t2", {"end_to_end": nan, "feasible": nan, "valid_grades": 1, "failed_grades": 9}),
    ]
    e2e = lft_end_to_end()(scores)
    assert isinstance(e2e, dict)
    # Changed on purpose (issue 12): overall = mean of the per-task means (4 and 7), not the
    # pooled mean of the three scored samples (5.0); the unscored sample is skipped.
    assert e2e["end_to_end"] == pytest.approx(5.5)
    assert e2e["end_to_end/t1"] == 4.0 and e2e["end_to_end/t2"] == 7.0
    # t1 over its runs (2, 6): sd sqrt(8), stderr sqrt(8)/sqrt(2) = 2.
    assert e2e["end_to_end_stderr/t1"] == pytest.approx(2.0)
    # t2 has one scored run: its stderr, and so the overall one, is undefined.
    assert math.isnan(e2e["end_to_end_stderr/t2"]) and math.isnan(e2e["end_to_end_stderr"])
    assert e2e["end_to_end_pct"] == pytest.approx(55)
    feasible = lft_feasible()(scores)
    assert isinstance(feasible, dict) and feasible["feasible_share"] == pytest.approx(0.75)
    failures = lft_grader_failures()(scores)
    assert isinstance(failures, dict)
    assert failures["grader_failure_rate"] == pytest.approx(11 / 40)
    assert failures["unscored"] == 1.0 and math.isnan(failures["grade_contradiction_rate"])


def test_metrics_return_nan_on_empty_input() -> None:
    e2e = lft_end_to_end()([])
    assert isinstance(e2e, dict) and math.isnan(e2e["end_to_end"])
    failures = lft_grader_failures()([])
    assert isinstance(failures, dict) and math.isnan(failures["grader_failure_rate"])
    agreement = lft_grader_agreement()([])
    assert isinstance(agreement, dict) and math.isnan(agreement["grader_alpha"])


def test_krippendorff_alpha_hand_worked() -> None:
    # Units (1, 2) and (3, 3), interval: coincidences o12 = o21 = 1, o33 = 2, n = 4.
    # D_o = (1 + 1) / 4 = 0.5; D_e = (2*1*1*1 + 2*1*2*4 + 2*1*2*1) / (4*3) = 22/12;
    # alpha = 1 - 0.5 / (22/12) = 8/11.
    scores = [sample("t", {}, [1, 2]), sample("t", {}, [3, 3]), sample("t", {}, [5])]
    assert panel_alpha(scores, "panel_levels", "interval") == pytest.approx(8 / 11)
    # Perfect agreement within every unit -> 1.
    same = [sample("t", {}, [4, 4, 4]), sample("t", {}, [7, 7])]
    assert panel_alpha(same, "panel_levels", "ordinal") == pytest.approx(1.0)
    # Every grade identical (no variation to agree on): undefined, not a perfect 1.
    constant = [sample("t", {}, [0, 0, 0]), sample("t", {}, [0, 0])]
    assert math.isnan(panel_alpha(constant, "panel_levels", "ordinal"))


def test_bracketed_ids_earn_their_points() -> None:
    grade = parse_lft_grade(grade_json(2, ["[a]", " `b` ", "[zzz]"]), hand_rubric())
    assert grade.criteria_met == ("a", "b") and grade.points_met == 5
    assert grade.unknown_criteria == ("zzz",)


def test_level_contradicting_the_checklist_is_counted_in_a_metric() -> None:
    # Level 3 claims a, b, c; two of the four grades list only a: two contradictions.
    answers = [grade_json(3, ["a"])] * 2 + [grade_json(3, ["a", "b", "c"])] * 2
    log, _ = run_lft(answers, grader_repeats=4)
    score = only_score(log)
    assert isinstance(score.value, dict) and score.value["contradictions"] == 2
    assert metrics(log)["grade_contradiction_rate"] == pytest.approx(0.5)


def test_even_panel_median_midpoint_or_lower() -> None:
    assert panel_median([4.0, 4.0, 5.0, 5.0], "midpoint").median == 4.5
    assert panel_median([4.0, 4.0, 5.0, 5.0], "lower").median == 4.0
    assert panel_median([4.0, 5.0, 6.0], "lower").median == 5.0
    answers = [grade_json(4, [])] * 5 + [grade_json(5, [])] * 5
    midpoint = only_score(run_lft(answers)[0]).value
    lower = only_score(run_lft(answers, median="lower")[0]).value
    assert isinstance(midpoint, dict) and isinstance(lower, dict)
    assert (midpoint["end_to_end"], midpoint["feasible"]) == (4.5, 0.0)
    assert (lower["end_to_end"], lower["feasible"]) == (4.0, 0.0)


def test_alpha_of_a_single_panel_is_undefined() -> None:
    # One unit: Krippendorff's alpha is 0 by construction, so it is reported as NaN.
    assert math.isnan(panel_alpha([sample("t", {}, [3, 4, 5, 5])], "panel_levels", "ordinal"))


def test_epochs_reducer_sums_counts_and_averages_scored_epochs() -> None:
    def epoch(
        e2e: float, unscored: float, valid: float, levels: list[int], **extra: float
    ) -> Score:
        value = {"end_to_end": e2e, "unscored": unscored, "valid_grades": valid, **extra}
        return Score(value=value, metadata={"panel_levels": levels})

    reduced = lft_epochs_reducer()(
        [
            epoch(4.0, 0.0, 2.0, [4, 4]),
            epoch(math.nan, 1.0, 0.0, []),
            epoch(6.0, 0.0, 2.0, [6, 5], nudges_to_top=3.0),
        ]
    )
    assert reduced.value == {
        "end_to_end": 5.0,  # the mean of the scored epochs
        "unscored": 1.0,  # counts are summed: the unscored epoch stays visible
        "valid_grades": 4.0,
        "nudges_to_top": 3.0,  # a field only some epochs have is kept
    }
    assert reduced.metadata is not None
    assert reduced.metadata["panel_levels_by_epoch"] == [[4, 4], [], [6, 5]]
