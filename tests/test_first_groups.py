"""The headline first: every task's first score group, per configuration, as its spec declares.

A log's first score group (``results.scores[0]``: what Inspect's viewer and console show
first) holds at most ~12 figures for the configuration the run used: the headline with its CI
and n, its clean twin with n, ``recognized_rate`` and ``estimated_cutoff`` where items are
dated, the failure rates and the paper's comparable figure; no figure of another schedule or
variant. The task's spec (``core/spec.py``, the family's ``specs.py``) is the one statement of
the group; a run must show exactly it, as its only score group, and every other figure is
derived from the log's samples (``core.metric_groups.log_figures``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from research_taste.cli.demo import DEMO_RUNS, run_demo
from research_taste_evals.core.families import task_specs
from research_taste_evals.core.metric_groups import log_figures

MOST = 13  # "at most ~12"

# (task, configuration) of every first group; configuration None: the task has one.
GROUPS = [
    (task, configuration)
    for task, spec in task_specs().items()
    for configuration in spec.configurations() or (None,)
]


def _first(task: str, configuration: str | None) -> list[str]:
    return list(task_specs()[task].first_names(configuration))


# Figures of another configuration, which that configuration's first group must not show.
FOREIGN = {
    ("tastybench", "ratings"): ("pairwise_accuracy", "matched_", "clean_pairs"),
    ("tastybench", "matched"): ("bt_", "elo_", "papers_correlated"),
    ("idea_pairs", "pairs"): ("top1_", "rank_rmse", "ranking/"),
    ("idea_pairs", "ranking"): ("accuracy/1sigma", "accuracy/2sigma", "accuracy/3sigma"),
    ("eqinfer", "binary"): ("choice_",),
    ("eqinfer", "multiple_choice"): ("decision_", "faithful_f1"),
}
# Every figure the demo run's log reported in one group before the split: both groups together
# must report the same number (and the second none of the first's).
DEMO_TOTALS = {
    "tastybench": 73,  # with matched_incomplete_pairs (matched schedule: whole pairs only)
    "tastybench_extract": 4,
    "tastybench_round": 12,  # a round's metric: one group, every figure in it
    "idea_pairs": 59,
    "review_critique": 91,
    "lft": 67,
    "lft_grader_check": 103,
    "eqinfer": 11,
    "expdesign": 37,
    "paper_weakness": 29,
    "paper_weakness_round": 7,
    "scijudge": 40,  # both orders: answers, incomplete_pairs, single-order and per-order figures
}
DEMO_CONFIGURATION = {"tastybench": "ratings", "idea_pairs": "pairs", "eqinfer": "binary"}


@pytest.mark.parametrize(("task", "configuration"), GROUPS, ids=str)
def test_each_first_group_is_short_and_its_configuration_s_own(
    task: str, configuration: str | None
) -> None:
    expected = _first(task, configuration)
    assert len(expected) <= MOST
    assert len(set(expected)) == len(expected)
    foreign = FOREIGN.get((task, configuration), ())
    assert not [name for name in expected if name.startswith(foreign)], foreign


def test_every_task_with_a_spec_has_a_demo_run() -> None:
    assert set(task_specs()) == {run.name for run in DEMO_RUNS}
    assert set(DEMO_TOTALS) == set(task_specs())


def _groups(log: EvalLog) -> tuple[list[str], list[str]]:
    """The log's one score group, and the figures derived from its samples beside it."""
    assert log.status == "success", log.error
    assert log.results is not None
    (first,) = log.results.scores
    return list(first.metrics), [name for name in log_figures(log) if name not in first.metrics]


def _check(log: EvalLog, task: str, configuration: str | None) -> tuple[list[str], list[str]]:
    first, rest = _groups(log)
    assert first == _first(task, configuration), (task, configuration)
    assert not set(first) & set(rest), (task, set(first) & set(rest))
    assert log.results is not None and log.results.headline is not None
    assert log.results.headline.metric == first[0]
    return first, rest


@pytest.mark.slow
def test_each_demo_run_shows_its_first_group_first_and_every_figure(tmp_path: Path) -> None:
    for log in run_demo(log_dir=str(tmp_path / "logs")):
        task = log.eval.task.rsplit("/", 1)[-1]
        first, rest = _check(log, task, DEMO_CONFIGURATION.get(task))
        assert len(first) + len(rest) == DEMO_TOTALS[task], (task, len(first) + len(rest))


# The other configurations, on the same demo data.
OTHER_RUNS: list[tuple[str, str, dict[str, Any]]] = [
    ("tastybench", "matched", {"schedule": "matched", "bootstrap_resamples": 50}),
    ("idea_pairs", "ranking", {"split": "all", "mode": "ranking", "bootstrap_resamples": 50}),
    ("eqinfer", "multiple_choice", {"variant": "multiple_choice"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("task", "configuration", "args"), OTHER_RUNS)
def test_other_configurations_show_their_own_first_group(
    tmp_path: Path, task: str, configuration: str, args: dict[str, Any]
) -> None:
    run = next(run for run in DEMO_RUNS if run.name == task)
    assert run.write_data is not None and run.data_arg is not None
    data = run.write_data(tmp_path / "data")
    log = inspect_eval(
        f"research_taste_evals/{task}",
        task_args={run.data_arg: str(data), **args},
        model=run.model,
        model_roles=run.model_roles or None,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    _check(log, task, configuration)
