"""Each task logs one score group, the figures its spec names (``core/task_metric.py``).

A log's one score group (``results.scores[0]``: what Inspect's viewer and console show) holds
at most 30 figures for the configuration the run used: the headline with its CI and n, its
clean twin with n and the recall-control figures where items are dated, the failure rates and
the diagnostics the paper reports; no figure of another schedule or variant. The task's spec
(``core/spec.py``, the family's ``specs.py``) is the one statement of the list; a run must log
exactly it (``name/*`` standing for one figure per group of the data), the headline first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from research_taste.cli.demo import DEMO_RUNS, run_demo
from research_taste_evals.core.families import task_specs
from research_taste_evals.core.task_metric import MOST_FIGURES

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
DEMO_CONFIGURATION = {"tastybench": "ratings", "idea_pairs": "pairs", "eqinfer": "binary"}


@pytest.mark.parametrize(("task", "configuration"), GROUPS, ids=str)
def test_each_list_is_short_and_its_configuration_s_own(
    task: str, configuration: str | None
) -> None:
    expected = _first(task, configuration)
    assert len(expected) <= MOST_FIGURES
    assert len(set(expected)) == len(expected)
    foreign = FOREIGN.get((task, configuration), ())
    assert not [name for name in expected if name.startswith(foreign)], foreign


def test_every_task_with_a_spec_has_a_demo_run() -> None:
    assert set(task_specs()) == {run.name for run in DEMO_RUNS}


def _matches(logged: list[str], expected: list[str]) -> bool:
    """Do the logged names follow the spec's, in order (``name/*``: one or more ``name/...``)?"""
    at = 0
    for name in expected:
        if name.endswith("/*"):
            start = at
            while at < len(logged) and logged[at].startswith(name[:-1]):
                at += 1
            if at == start:
                return False
        elif at < len(logged) and logged[at] == name:
            at += 1
        else:
            return False
    return at == len(logged)


def _check(log: EvalLog, task: str, configuration: str | None) -> list[str]:
    assert log.status == "success", log.error
    assert log.results is not None
    (group,) = log.results.scores
    logged = list(group.metrics)
    assert _matches(logged, _first(task, configuration)), (task, configuration, logged)
    assert len(logged) <= MOST_FIGURES, (task, len(logged))
    assert log.results.headline is not None
    assert log.results.headline.metric == logged[0]
    return logged


def test_a_wildcard_stands_for_one_or_more_figures_of_its_group() -> None:
    expected = ["a", "b/*", "c"]
    assert _matches(["a", "b/x", "b/y", "c"], expected)
    assert not _matches(["a", "c"], expected)
    assert not _matches(["a", "b/x", "c", "d"], expected)
    assert not _matches(["b/x", "a", "c"], expected)


@pytest.mark.slow
def test_each_demo_run_logs_its_spec_s_figures(tmp_path: Path) -> None:
    for log in run_demo(log_dir=str(tmp_path / "logs")):
        task = log.eval.task.rsplit("/", 1)[-1]
        _check(log, task, DEMO_CONFIGURATION.get(task))


# The other configurations, on the same demo data.
OTHER_RUNS: list[tuple[str, str, dict[str, Any]]] = [
    ("tastybench", "matched", {"schedule": "matched", "bootstrap_resamples": 50}),
    ("idea_pairs", "ranking", {"split": "all", "mode": "ranking", "bootstrap_resamples": 50}),
    ("eqinfer", "multiple_choice", {"variant": "multiple_choice"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("task", "configuration", "args"), OTHER_RUNS)
def test_other_configurations_log_their_own_figures(
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
