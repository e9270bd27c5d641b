"""Every metric a task logs has its meaning in the family's eval.yaml; ties share a rank; plot
axes span the metric's declared range."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from research_taste.reporting.families import TaskReportSpec, _meanings_and_ranges, task_specs
from research_taste.reporting.leaderboard import ranked
from research_taste.reporting.plots import _span
from research_taste.reporting.report import write_report
from research_taste.reporting.runs import Run, read_runs
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.core.data import DataError
from research_taste_evals.core.families import task_specs as core_specs
from research_taste_evals.core.task_metric import log_results
from research_taste_evals.ideapairs.demo import write_demo_pairs
from research_taste_evals.ideapairs.ideapairs import idea_pairs

NAN = float("nan")


def _undescribed(task: str, names: list[str]) -> list[str]:
    spec = task_specs()[task]
    return [name for name in names if not spec.meaning(name)]


def _logged(log: EvalLog) -> list[str]:
    assert log.status == "success" and log.results is not None, log.error
    return list(log_results(log))  # every figure the log holds


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_every_metric_of_every_demo_log_is_described(demo_logs: Path) -> None:
    runs, _ = read_runs(str(demo_logs))
    rounds = {name for name, spec in core_specs().items() if spec.rounds is not None}
    # a round judgment is reported once scored (docs/rounds.md): its meanings, in its own tests
    assert {run.task for run in runs} == set(task_specs()) - rounds
    for run in runs:
        assert not _undescribed(run.task, list(run.metrics)), (run.task, run.model)


def test_variants_outside_the_demo_are_described(tmp_path: Path) -> None:
    """EqInfer's multiple-choice variant and idea_pairs' ranking mode log other metrics."""
    choice = eqinfer(data_path=str(write_demo_eqinfer(tmp_path)), variant="multiple_choice")
    pairs = idea_pairs(pairs_file=str(write_demo_pairs(tmp_path)), split="all", mode="ranking")
    for task, model, name in (
        (choice, "baseline/all-positive", "eqinfer"),
        (pairs, "baseline/first", "idea_pairs"),
    ):
        [log] = inspect_eval(task, model=model, limit=6, log_dir=str(tmp_path), display="none")
        logged = _logged(log)
        assert {"choice_accuracy", "top1_accuracy"} & set(logged)
        assert not _undescribed(name, logged), name


def test_the_rules_describe_statistics_groups_and_globs_from_the_named_metric() -> None:
    lft, pairs = task_specs()["lft"], task_specs()["idea_pairs"]
    critique = task_specs()["review_critique"]
    level = lft.metric_meanings["end_to_end"]
    assert lft.meaning("end_to_end/petunia-plastid") == (
        f"{level}; on the rubric task named after the slash only"
    )
    assert lft.meaning("end_to_end_stderr/petunia-plastid") == (
        f"standard error of end_to_end/petunia-plastid: {level}; on the rubric task named after "
        "the slash only"
    )
    accuracy = pairs.metric_meanings["accuracy"]
    assert pairs.meaning("accuracy/ci_low") == (
        f"lower end of the 95% interval of accuracy: {accuracy}"
    )
    assert str(pairs.meaning("accuracy/2sigma")).startswith(f"{accuracy}; only the pairs of")
    assert str(pairs.meaning("length_bias/p_value")).startswith("length bias: accuracy on")
    assert str(critique.meaning("recall_by_type/either_no/Neglect")).startswith("recall of")
    assert pairs.meaning("no_such_metric") is None and lft.meaning("no/such") is not None


def test_meanings_are_true_to_the_code_where_the_issue_found_them_wrong() -> None:
    """EqInfer's strict metrics leave an unreadable answer out (the task's docstring and
    README); the two failure counts that had no meaning have one."""
    eqinfer_spec = task_specs()["eqinfer"]
    for name in ("decision_f1", "decision_precision", "decision_recall", "decision_accuracy"):
        meaning = str(eqinfer_spec.meaning(name))
        assert "left out" in meaning and "counts as wrong" not in meaning, name
    for task, spec in task_specs().items():
        shown = [*spec.headline_metrics, *spec.failure_metrics]
        assert not _undescribed(task, shown), task


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_the_page_has_no_missing_description(demo_logs: Path, tmp_path: Path) -> None:
    write_report(str(demo_logs), tmp_path / "report", bundle=False)
    assert "no description in eval.yaml" not in (tmp_path / "report" / "index.html").read_text()


def test_a_range_entry_must_be_low_high() -> None:
    meanings, ranges = _meanings_and_ranges(
        {"a": "plain", "b": {"meaning": "ranged", "range": [0, 10]}}, "f/eval.yaml: field 't"
    )
    assert meanings == {"a": "plain", "b": "ranged"} and ranges == {"b": (0.0, 10.0)}
    with pytest.raises(DataError, match=r"tasks.t.metrics.b.range': expected \[low, high\]"):
        _meanings_and_ranges({"b": {"meaning": "x", "range": [10, 0]}}, "f: field 'tasks.t")
    with pytest.raises(DataError, match="the meaning is empty"):
        _meanings_and_ranges({"b": {"range": [0, 1]}}, "f: field 'tasks.t")


def _run(model: str, value: float, partial: bool = False) -> Run:
    return Run(
        task="eqinfer", model=model, roles={}, config={}, metrics={"decision_f1": value},
        total_samples=1, completed_samples=1, tokens=0, cost=None, created="", started="",
        completed="", version="", log=model, partial=partial,
    )  # fmt: skip


def test_tied_rows_share_a_rank_and_the_next_rank_counts_them() -> None:
    rows = [_run("c", 0.5), _run("a", 0.9), _run("b", 0.9), _run("d", NAN), _run("e", NAN)]
    rows.append(_run("f", 0.9, partial=True))
    order = [(rank, run.model) for rank, run in ranked(rows, "decision_f1", False)]
    assert order == [("1", "a"), ("1", "b"), ("3", "c"), ("4", "d"), ("4", "e"), ("–", "f")]


def test_plot_axes_span_the_metric_range() -> None:
    spec: TaskReportSpec = task_specs()["lft"]
    assert spec.value_range("end_to_end") == (0.0, 10.0)
    assert spec.value_range("end_to_end/petunia-plastid") == (0.0, 10.0)
    assert spec.value_range("grader_alpha") is None
    levels = [1.0, 1.2]
    assert _span(levels, [NAN, NAN], [NAN, NAN], (0.0, 10.0)) == (0.0, 10.0)
    assert _span(levels, [NAN, NAN], [NAN, NAN]) == (0.0, 1.2)  # no range: the values'
    assert _span([0.5], [-0.1], [1.1], (0.0, 1.0)) == (-0.1, 1.1)  # an interval past it
    assert _span([NAN], [NAN], [NAN]) == (0.0, 1.0)
    assert math.isclose(_span([-3.0], [NAN], [NAN], (-10.0, 10.0))[0], -10.0)
