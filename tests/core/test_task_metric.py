"""core/task_metric.py: a task's one metric logs the figures its spec names; the log holds them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai import Epochs, Task
from inspect_ai import eval as inspect_eval
from inspect_ai import score as inspect_score
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState
from mock_models import scripted_model

from research_taste_evals.core.task_metric import MOST_FIGURES, figures, log_results, logged_figures

CALLS: list[int] = []  # one entry per computation of the toy figures


@metric
def toy_counted(scale: float = 1.0) -> Metric:
    def compute(scores: list[SampleScore]) -> Value:
        CALLS.append(len(scores))
        xs = [float(s.score.value) for s in scores]  # type: ignore[arg-type]
        tagged = sum(1 for s in scores if (s.sample_metadata or {}).get("tag"))
        return {"mean_x": scale * sum(xs) / len(xs), "n": float(len(xs)), "tagged": float(tagged)}

    return compute


@metric
def toy_half() -> Metric:
    def compute(scores: list[SampleScore]) -> Value:
        return 0.5

    return compute


@metric
def toy_list() -> Metric:
    def compute(scores: list[SampleScore]) -> Value:
        return [1.0, 2.0]

    return compute


LOGGED = ("mean_x", "tagged", "toy_half2", "toy_list-2")


@metric
def toy_figures(scale: float = 1.0) -> Metric:
    return logged_figures(LOGGED, [toy_counted(scale), toy_half(), toy_half(), toy_list()])


@scorer(metrics=[toy_figures()])
def toy_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=float(len(state.input_text)))

    return score


SAMPLES = [Sample(input="ab", id="a", metadata={"tag": 1}), Sample(input="abcd", id="b")]
EXPECTED = {"mean_x": 6.0, "tagged": 1.0, "toy_half2": 0.5, "toy_list-2": 2.0}


def _run(task: Task, log_dir: Path | None = None) -> EvalLog:
    model = scripted_model(lambda _: "ok")
    logs = inspect_eval(
        task, model=model, display="none", log_dir=str(log_dir) if log_dir else None
    )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


def test_the_log_holds_the_named_figures_in_their_order(tmp_path: Path) -> None:
    # The task gives the metric its settings: recorded in the header, as inspect score reads it.
    task = Task(dataset=SAMPLES, scorer=toy_scorer(), metrics=[toy_figures(scale=2.0)])
    log = _run(task, tmp_path)
    assert log.results is not None
    (group,) = log.results.scores
    # Inspect's own names: dict keys, a repeated scalar numbered, a list -1, -2; the sample
    # metadata reaches the figures; the unnamed ones (n, toy_half, toy_list-1) are not logged.
    assert {n: m.value for n, m in group.metrics.items()} == EXPECTED
    assert list(group.metrics) == list(LOGGED)
    # A reader of the header alone (the report) has every figure.
    header = read_eval_log(log.location, header_only=True)
    assert header.samples is None
    assert log_results(header) == EXPECTED


def test_the_figures_use_the_epoch_reduced_scores() -> None:
    task = Task(dataset=SAMPLES, scorer=toy_scorer(), epochs=Epochs(2, "mean"))
    found = log_results(_run(task))
    assert found["mean_x"] == 3.0 and found["tagged"] == 1.0


def test_nan_figures_stay_nan() -> None:
    @metric
    def nan_metric() -> Metric:
        def compute(scores: list[SampleScore]) -> Value:
            return {"undefined": math.nan}

        return compute

    scores = [SampleScore(score=Score(value=1.0), sample_id="a")]
    assert math.isnan(figures([nan_metric()], scores)["undefined"])
    body = logged_figures(("undefined",), [nan_metric()])
    assert math.isnan(body(scores)["undefined"])  # type: ignore[call-arg,index,operator]


def test_a_task_logs_at_most_thirty_figures() -> None:
    names = [f"figure_{i}" for i in range(MOST_FIGURES + 1)]
    with pytest.raises(ValueError, match="at most 30"):
        logged_figures(names, [toy_half()])
    assert logged_figures(names[:MOST_FIGURES], [toy_half()])


def test_inspect_score_recreates_the_metric_with_the_settings_it_ran_with(tmp_path: Path) -> None:
    log = _run(
        Task(dataset=SAMPLES, scorer=toy_scorer(), metrics=[toy_figures(scale=2.0)]), tmp_path
    )
    rescored = inspect_score(log, toy_scorer(), action="overwrite", display="none")
    assert rescored.results is not None
    (group,) = rescored.results.scores
    assert {n: m.value for n, m in group.metrics.items()} == EXPECTED
