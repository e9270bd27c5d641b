"""Repeated runs as samples, epochs, and the self-grading rule of the ``lft`` task."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from inspect_ai.scorer import SampleScore, Score
from log_metrics import every_figure_of
from mock_models import counting_model, scripted_model

from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.panel_agreement import panel_alpha

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

PETUNIA, ABLATION = "petunia-plastid", "ablation-plan"
# Levels the scripted grader gives each task's k-th solution (k = 0..9), and by hand:
# petunia: mean 2.4, sum of squared deviations 38.4 -> stderr sqrt(38.4 / 9 / 10);
# ablation: mean 5.5, squared deviations 82.5 -> stderr sqrt(82.5 / 9 / 10).
LEVELS = {"P": [0, 1, 2, 3, 4, 5, 6, 0, 1, 2], "A": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}
_SOLUTION = re.compile(r"<solution>\s*SOLUTION ([PA])-(\d+)")


def grade(level: int) -> str:
    return f'```json\n{{"level": {level}, "criteria_met": [], "rationale": "r"}}\n```'


def per_task_author() -> scripted_model:  # type: ignore[valid-type]
    """The evaluated model: its n-th answer to a task is 'SOLUTION <P|A>-n'."""
    counts: dict[str, int] = defaultdict(int)

    def respond(messages: list[ChatMessage]) -> str:
        key = "P" if "petunia" in messages[-1].text.lower() else "A"
        counts[key] += 1
        return f"SOLUTION {key}-{counts[key] - 1}"

    return scripted_model(respond)


def level_grader(messages: list[ChatMessage]) -> str:
    match = _SOLUTION.search(messages[-1].text)
    assert match is not None
    return grade(LEVELS[match.group(1)][int(match.group(2))])


def test_runs_are_samples_with_per_task_mean_and_stderr_over_runs() -> None:
    log = inspect_eval(
        lft(task_ids=[PETUNIA, ABLATION], runs=10, grader_repeats=1),
        model=per_task_author(),
        model_roles={"grader": scripted_model(level_grader)},
        display="none",
    )[0]
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 20
    assert len({s.id for s in log.samples}) == 20
    assert {s.id for s in log.samples if s.metadata["task_id"] == PETUNIA} == {
        f"{PETUNIA}/run-{k:02d}" for k in range(1, 11)
    }
    m = every_figure_of(log)
    assert m["end_to_end/petunia-plastid"] == pytest.approx(2.4)
    assert m["end_to_end_stderr/petunia-plastid"] == pytest.approx(math.sqrt(38.4 / 90))
    assert m["end_to_end/ablation-plan"] == pytest.approx(5.5)
    assert m["end_to_end_stderr/ablation-plan"] == pytest.approx(math.sqrt(82.5 / 90))
    # Overall: the mean of the two task means, its stderr from the two task stderrs.
    assert m["end_to_end"] == pytest.approx((2.4 + 5.5) / 2)
    assert m["end_to_end_stderr"] == pytest.approx(math.sqrt(38.4 / 90 + 82.5 / 90) / 2)
    assert m["feasible_share/petunia-plastid"] == pytest.approx(0.2)  # levels 5 and 6
    assert m["feasible_share/ablation-plan"] == pytest.approx(0.6)
    assert m["feasible_share"] == pytest.approx(0.4)


def test_each_run_has_its_own_grader_cache_scope(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path))
    grader, calls = counting_model(lambda n: grade(3))
    log = inspect_eval(
        lft(task_ids=PETUNIA, runs=3, grader_repeats=2, grader_cache=True),
        model=scripted_model(lambda m: "the same answer every run"),
        model_roles={"grader": grader},
        display="none",
    )[0]
    assert log.status == "success", log.error
    # Identical prompts in three runs: six calls, not the two of one shared scope.
    assert len(calls) == 6


def test_epochs_count_an_unscored_panel_and_keep_every_panel() -> None:
    seen: dict[int, int] = defaultdict(int)

    def grader(messages: list[ChatMessage]) -> str:
        match = re.search(r"<solution>\s*SOLUTION (\d+)", messages[-1].text)
        assert match is not None
        k = int(match.group(1))
        seen[k] += 1
        return {0: "no grade", 1: grade(2 + seen[k]), 2: grade(6)}[k]

    author, _ = counting_model(lambda n: f"SOLUTION {n}")
    log = inspect_eval(
        lft(task_ids=PETUNIA, grader_repeats=2),
        model=author,
        model_roles={"grader": scripted_model(grader)},
        epochs=3,
        display="none",
    )[0]
    assert log.status == "success", log.error
    m = every_figure_of(log)
    # One of three panels below quorum: counted, whatever the epochs.
    assert m["unscored"] == 1.0
    assert m["grader_failure_rate"] == pytest.approx(2 / 6)
    assert m["end_to_end"] == pytest.approx((3.5 + 6) / 2)  # the scored epochs' medians
    # Agreement from every epoch's panel ((3, 4) and (6, 6)), not the first epoch's only.
    units = [
        SampleScore(score=Score(value={}, metadata={"panel_levels": u})) for u in ([3, 4], [6, 6])
    ]
    assert m["grader_alpha"] == pytest.approx(panel_alpha(units, "panel_levels", "ordinal"))
    assert not math.isnan(m["grader_alpha"])


def test_no_grader_role_stops_before_any_model_call() -> None:
    """Built by Inspect's loader (the task given to eval as a function) or by hand, the first
    solver step stops the run with one sentence as the log's error (core/roles.py: a task build
    reads no role). No model is called either way."""
    author, calls = counting_model(lambda n: "an answer")
    (by_loader,) = inspect_eval(lft, task_args={"task_ids": PETUNIA}, model=author, display="none")
    (by_hand,) = inspect_eval(lft(task_ids=PETUNIA), model=author, display="none")
    for log in (by_loader, by_hand):
        assert log.status == "error" and log.error is not None
        assert "--model-role grader=" in log.error.message
        assert len(log.error.message.splitlines()) == 1
    assert by_loader.error.message == by_hand.error.message  # type: ignore[union-attr]
    assert calls == []


def test_allow_self_grading_restores_the_evaluated_model_as_grader() -> None:
    log = inspect_eval(
        lft,
        task_args={"task_ids": PETUNIA, "grader_repeats": 2, "allow_self_grading": True},
        model=scripted_model(lambda m: grade(4) if "<solution>" in m[-1].text else "plan"),
        display="none",
    )[0]
    assert log.status == "success", log.error
    assert log.samples is not None
    score = next(iter(log.samples[0].scores.values()))  # type: ignore[union-attr]
    assert score.metadata is not None and score.metadata["self_graded"] is True
    assert log.eval.metadata is not None
    assert log.eval.metadata["provenance"]["paper_faithful"]["independent_grader"] is False
