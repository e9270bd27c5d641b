"""The headline first: every task's first score group, per configuration, listed here.

A log's first score group (``results.scores[0]``: what Inspect's viewer and console show
first) holds at most ~12 figures for the configuration the run used: the headline with its CI
and n, its clean twin with n, ``recognized_rate`` and ``estimated_cutoff`` where items are
dated, the failure rates and the paper's comparable figure; no figure of another schedule or
variant. Every other figure is in the second group (``core/metric_groups.py``), under the name
the single group gave it. The lists below are the contract; each family's ``eval.yaml``
(``first_group``) must say the same, and a run must show exactly them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

import research_taste_evals
from research_taste.cli.demo import DEMO_RUNS, run_demo
from research_taste_evals.core.metric_groups import first_group

MOST = 13  # "at most ~12"

# (task, configuration) -> its first group, in order; configuration None: the task has one.
FIRST_GROUPS: dict[tuple[str, str | None], list[str]] = {
    ("tastybench", "ratings"): [
        "bt_spearman",
        "bt_spearman_ci_low",
        "bt_spearman_ci_high",
        "papers_correlated",
        "bt_spearman_clean",
        "clean_items",
        "recognized_rate",
        "estimated_cutoff",
        "elo_upstream_rank_pearson",  # upstream's statistic, the paper's comparable figure
        "unclear_rate",
        "extractor_failure_rate",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("tastybench", "matched"): [
        "pairwise_accuracy",
        "pairwise_accuracy_ci_low",
        "pairwise_accuracy_ci_high",
        "matched_pairs",
        "pairwise_accuracy_clean",
        "clean_pairs",
        "recognized_rate",
        "estimated_cutoff",
        "unclear_rate",
        "extractor_failure_rate",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("tastybench_extract", None): [
        "extraction_rate",
        "unparsed_rate",
        "withheld_rate",
        "reasked_rate",
    ],
    ("idea_pairs", "pairs"): [
        "accuracy",
        "accuracy/ci_low",
        "accuracy/ci_high",
        "pairs",
        "accuracy_clean",
        "clean_items",
        "recognized_rate",
        "estimated_cutoff",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("idea_pairs", "ranking"): [
        "accuracy",
        "accuracy/ci_low",
        "accuracy/ci_high",
        "pairs",
        "accuracy_clean",
        "clean_items",
        "recognized_rate",
        "estimated_cutoff",
        "top1_accuracy",
        "rank_rmse_median",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("review_critique", None): [
        "labeling_all_f1",
        "labeling_all_f1_ci_low",
        "labeling_all_f1_ci_high",
        "select_deficient_f1",
        "both_no_f1",
        "either_no_f1",
        "unparsed_rate",
        "reasked_rate",
        "labeling_all_unparsed_rate",
        "select_deficient_unparsed_rate",
        "labeling_all_unscored_segments",
        "select_deficient_unscored_segments",
    ],
    ("lft", None): [
        "end_to_end",
        "end_to_end_stderr",
        "end_to_end_pct",
        "feasible_share",
        "partial_credit",
        "grader_alpha",
        "grader_failure_rate",
        "unscored",
        "grade_contradiction_rate",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("lft_grader_check", None): [
        "exact",
        "exact_stderr",
        "within_one",
        "abs_error",
        "bias",
        "member_exact",
        "grader_failure_rate",
        "unscored",
        "grade_contradiction_rate",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("eqinfer", "binary"): [
        "decision_f1",
        "decision_precision",
        "decision_recall",
        "decision_accuracy",
        "unparsed_rate",
        "reasked_rate",
        "faithful_f1",
        "faithful_precision",
        "faithful_recall",
        "faithful_accuracy",
        "faithful_forced_rate",
    ],
    ("eqinfer", "multiple_choice"): [
        "choice_accuracy",
        "choice_unparsed_rate",
        "faithful_choice_accuracy",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("expdesign", None): [
        "en_f1",
        "en_f1_clean",
        "clean_items",
        "recognized_rate",
        "estimated_cutoff",
        "faithful_en_f1",
        "judge_failure_rate",
        "judge_unparsed_rate",
        "explanation_failure_rate",
        "empty_prediction_rate",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("paper_weakness", None): [
        "s_f1",
        "s_f1_clean",
        "clean_items",
        "recognized_rate",
        "estimated_cutoff",
        "itf_idf_score",
        "itf_idf_papers",
        "empty_prediction_rate",
        "unparsed_rate",
        "reasked_rate",
    ],
    ("scijudge", None): [
        "accuracy",
        "accuracy_ci_low",
        "accuracy_ci_high",
        "pairs",
        "incomplete_pairs",
        "accuracy_single_order",
        "accuracy_clean",
        "clean_pairs",
        "clean_items",
        "recognized_rate",
        "estimated_cutoff",
        "unparsed_rate",
        "reasked_rate",
    ],
}
FAMILY = {
    "tastybench": "tastybench",
    "tastybench_extract": "tastybench",
    "idea_pairs": "ideapairs",
    "review_critique": "reviewcritique",
    "lft": "lft",
    "lft_grader_check": "lft",
    "eqinfer": "aaar",
    "expdesign": "aaar",
    "paper_weakness": "aaar",
    "scijudge": "scijudge",
}
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
    "idea_pairs": 59,
    "review_critique": 91,
    "lft": 67,
    "lft_grader_check": 103,
    "eqinfer": 11,
    "expdesign": 37,
    "paper_weakness": 29,
    "scijudge": 40,  # both orders: answers, incomplete_pairs, single-order and per-order figures
}
DEMO_CONFIGURATION = {"tastybench": "ratings", "idea_pairs": "pairs", "eqinfer": "binary"}


def _eval_yaml(task: str) -> str:
    return str(Path(research_taste_evals.__file__).parent / FAMILY[task] / "eval.yaml")


@pytest.mark.parametrize(("task", "configuration"), sorted(FIRST_GROUPS, key=str))
def test_eval_yaml_lists_the_first_group(task: str, configuration: str | None) -> None:
    expected = FIRST_GROUPS[(task, configuration)]
    assert list(first_group(_eval_yaml(task), task, configuration)) == expected
    assert len(expected) <= MOST
    assert len(set(expected)) == len(expected)
    foreign = FOREIGN.get((task, configuration), ())
    assert not [name for name in expected if name.startswith(foreign)], foreign


def test_every_task_has_a_first_group() -> None:
    assert {task for task, _ in FIRST_GROUPS} == {run.name for run in DEMO_RUNS}


def _groups(log: EvalLog) -> tuple[list[str], list[str]]:
    assert log.status == "success", log.error
    assert log.results is not None
    first, *rest = log.results.scores
    return list(first.metrics), [name for score in rest for name in score.metrics]


def _check(log: EvalLog, task: str, configuration: str | None) -> tuple[list[str], list[str]]:
    first, rest = _groups(log)
    assert first == FIRST_GROUPS[(task, configuration)], (task, configuration)
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
