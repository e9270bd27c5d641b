"""core/metric_groups.py: one score group in the log, every figure derived from the log."""

from __future__ import annotations

import math
from pathlib import Path

from inspect_ai import Epochs, Task
from inspect_ai import eval as inspect_eval
from inspect_ai import score as inspect_score
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState
from mock_models import scripted_model

from research_taste_evals.core.metric_groups import Part, figures, group_metric, log_figures

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


FIRST = ("mean_x", "toy_half2")


@metric
def toy_figures(scale: float = 1.0, part: Part = "first") -> Metric:
    return group_metric(FIRST, [toy_counted(scale), toy_half(), toy_half(), toy_list()], part)


@scorer(metrics=[toy_figures(part="first")])
def toy_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=float(len(state.input_text)))

    return score


SAMPLES = [Sample(input="ab", id="a", metadata={"tag": 1}), Sample(input="abcd", id="b")]


def _run(task: Task, log_dir: Path | None = None) -> EvalLog:
    model = scripted_model(lambda _: "ok")
    logs = inspect_eval(
        task, model=model, display="none", log_dir=str(log_dir) if log_dir else None
    )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


def test_the_log_holds_the_first_group_and_every_figure_is_derived_from_it(
    tmp_path: Path,
) -> None:
    CALLS.clear()
    # The task gives the metric its settings: recorded in the header, as inspect score reads it.
    task = Task(
        dataset=SAMPLES, scorer=toy_scorer(), metrics=[toy_figures(scale=2.0, part="first")]
    )
    log = _run(task, tmp_path)
    assert log.results is not None
    (group,) = log.results.scores
    assert {n: m.value for n, m in group.metrics.items()} == {"mean_x": 6.0, "toy_half2": 0.5}
    calls = len(CALLS)
    # Inspect's own names: dict keys, a repeated scalar numbered, a list -1, -2; the sample
    # metadata reaches the derived figures, and a header-only log is read whole for them.
    header = read_eval_log(log.location, header_only=True)
    assert log_figures(header) == {
        "mean_x": 6.0,
        "toy_half2": 0.5,
        "n": 2.0,
        "tagged": 1.0,
        "toy_half": 0.5,
        "toy_list-1": 1.0,
        "toy_list-2": 2.0,
    }
    assert len(CALLS) == calls + 1  # one computation derives every other figure


def test_derived_figures_use_the_epoch_reduced_scores() -> None:
    task = Task(dataset=SAMPLES, scorer=toy_scorer(), epochs=Epochs(2, "mean"))
    found = log_figures(_run(task))
    assert found["n"] == 2.0 and found["mean_x"] == 3.0


def test_nan_figures_stay_nan() -> None:
    @metric
    def nan_metric() -> Metric:
        def compute(scores: list[SampleScore]) -> Value:
            return {"undefined": math.nan}

        return compute

    scores = [SampleScore(score=Score(value=1.0), sample_id="a")]
    assert math.isnan(figures([nan_metric()], scores)["undefined"])
    body = group_metric(("undefined",), [nan_metric()], "first")
    assert math.isnan(body(scores)["undefined"])  # type: ignore[call-arg,index,operator]


def test_inspect_score_recreates_the_metric_with_the_settings_it_ran_with(tmp_path: Path) -> None:
    figures_metric = toy_figures(scale=2.0, part="first")
    log = _run(Task(dataset=SAMPLES, scorer=toy_scorer(), metrics=[figures_metric]), tmp_path)
    rescored = inspect_score(log, toy_scorer(), action="overwrite", display="none")
    assert rescored.results is not None
    (group,) = rescored.results.scores
    assert {n: m.value for n, m in group.metrics.items()} == {"mean_x": 6.0, "toy_half2": 0.5}
