"""The log is the record: every figure the report and its leaderboards show for a demo run is
in that run's ``log.results``, each task logs at most 30 figures, and Inspect rebuilds them all
from the log's sample scores (issue 60).

The demo sweep (``sweeps/demo.yaml``: every task, two offline models each) is run once per
session (``conftest.demo_logs``).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log, recompute_metrics

from research_taste.reporting.boards import boards
from research_taste.reporting.controlled import controlled_for, recognition_columns
from research_taste.reporting.families import task_specs
from research_taste.reporting.leaderboard import ANSWER_SHAPE
from research_taste.reporting.report import write_report
from research_taste.reporting.runs import read_runs
from research_taste_evals.core.families import task_specs as declared_specs
from research_taste_evals.core.task_metric import MOST_FIGURES

pytestmark = pytest.mark.slow


def _logs(log_dir: Path) -> list[EvalLog]:
    return [read_eval_log(info) for info in list_eval_logs(str(log_dir), recursive=True)]


def _logged(log: EvalLog) -> dict[str, float]:
    assert log.results is not None, log.location
    return {
        name: float(value.value)
        for group in log.results.scores
        for name, value in group.metrics.items()
    }


def _shown(task: str, columns: list[str]) -> list[str]:
    """Every figure a leaderboard of ``task`` with these metric columns shows: the columns,
    the controlled headline and its n, the recognition columns, the answer-shape figures and
    the task's failure counts (reporting/report.py, leaderboard.py)."""
    control = controlled_for(task, columns)
    controlled = [control.metric, control.count] if control else []
    failures = list(task_specs()[task].failure_metrics)
    shown = [*columns, *controlled, *recognition_columns(task), *ANSWER_SHAPE, *failures]
    return list(dict.fromkeys(shown))


def test_every_figure_the_report_shows_is_in_its_log(demo_logs: Path, tmp_path: Path) -> None:
    files = write_report(str(demo_logs), tmp_path / "report")
    runs, _ = read_runs(str(demo_logs))
    assert set(files.tasks) >= {"tastybench", "review_critique", "scijudge", "lft"}
    checked: set[str] = set()
    for board in boards(runs):
        names = _shown(board.task, board.columns(None))
        for run in board.rows:
            logged = _logged(read_eval_log(run.log))
            missing = [name for name in names if name not in logged]
            assert not missing, (board.task, run.model, missing)
            # The report's figure is the log's, as the run computed it (never recomputed).
            for name in names:
                assert run.metrics[name] == logged[name] or (
                    math.isnan(run.metrics[name]) and math.isnan(logged[name])
                ), (board.task, name)
            checked.add(board.task)
    # Every task the report ranks was checked; the round tasks go to its Rounds section.
    ranked = {task for task, spec in declared_specs().items() if spec.rounds is None}
    assert checked == ranked
    assert set(files.tasks) >= ranked


def test_the_headline_columns_issue_60_names_are_logged(demo_logs: Path) -> None:
    by_task = {log.eval.task.rsplit("/", 1)[-1]: _logged(log) for log in _logs(demo_logs)}
    assert {"order_consistency", "position_bias"} <= set(by_task["tastybench"])
    for strategy in ("labeling_all", "select_deficient", "both_no", "either_no"):
        for figure in ("precision", "recall", "f1"):
            assert f"{strategy}_{figure}" in by_task["review_critique"]


def test_each_task_logs_at_most_thirty_figures(demo_logs: Path) -> None:
    counted = {}
    for log in _logs(demo_logs):
        task = log.eval.task.rsplit("/", 1)[-1]
        counted[task] = max(counted.get(task, 0), len(_logged(log)))
    assert set(counted) == set(declared_specs())
    too_many = {task: n for task, n in counted.items() if n > MOST_FIGURES}
    assert not too_many


def test_inspect_rebuilds_every_logged_figure_from_the_samples(demo_logs: Path) -> None:
    # recompute_metrics: the metrics the header records, re-created and run over the log's
    # (epoch-reduced) sample scores, as ``inspect score`` does.
    seen = set()
    differ: list[tuple[str, str, float, float]] = []
    for log in _logs(demo_logs):
        task = log.eval.task.rsplit("/", 1)[-1]
        if task in seen or not log.samples:
            continue
        seen.add(task)
        before = _logged(log)
        for group in log.results.scores if log.results else []:
            group.metrics.clear()
        recompute_metrics(log)
        after = _logged(log)
        assert list(after) == list(before), task
        differ += [
            (task, name, value, after[name])
            for name, value in before.items()
            if after[name] != pytest.approx(value, nan_ok=True)
        ]
    assert seen == set(declared_specs())
    assert not differ
