"""core/metric_groups.py: two score groups from one computation, under Inspect's own names."""

from __future__ import annotations

import math

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState
from mock_models import scripted_model

from research_taste_evals.core.metric_groups import (
    bundle_figures,
    copy_score,
    details_metric,
    first_group_metric,
    with_metrics,
)

CALLS: list[int] = []  # one entry per computation of the toy bundle


@metric
def toy_counted() -> Metric:
    def compute(scores: list[SampleScore]) -> Value:
        CALLS.append(len(scores))
        xs = [float(s.score.value["x"]) for s in scores]  # type: ignore[index]
        return {"mean_x": sum(xs) / len(xs), "n": float(len(xs)), "skipped": None}

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


def _bundle() -> list[Metric]:
    return [toy_counted(), toy_half(), toy_half(), toy_list()]


async def _toy_score(state: TaskState, target: Target) -> Score:
    return Score(value={"x": float(len(state.input_text))}, metadata={"big": "packed", "k": 1})


@scorer(metrics=_bundle())
def toy_single() -> Scorer:
    return _toy_score


TOY = bundle_figures("toy", _bundle(), ignore=("big",))
FIRST = ("n", "toy_half")


def _first(scores: list[SampleScore]) -> tuple[str, ...]:
    return FIRST


@metric
def toy_first() -> Metric:
    return first_group_metric(TOY, _first)


@metric
def toy_rest() -> Metric:
    return details_metric(TOY, _first)


@scorer(metrics=[])
def toy_scorer() -> Scorer:
    return _toy_score


@scorer(metrics=[])
def toy_details() -> Scorer:
    return copy_score("toy_scorer", without=("big",))


def _run(*scorers: Scorer) -> EvalLog:
    samples = [Sample(input="ab", id="a"), Sample(input="abcd", id="b")]
    task = Task(dataset=samples, scorer=list(scorers))
    return inspect_eval(task, model=scripted_model(lambda _: "ok"), display="none", log_dir=None)[0]


def _groups(log: EvalLog) -> list[dict[str, float]]:
    assert log.status == "success", log.error
    assert log.results is not None
    return [{n: m.value for n, m in s.metrics.items()} for s in log.results.scores]


def test_both_groups_hold_every_figure_of_one_group_under_inspects_names() -> None:
    (single,) = _groups(_run(toy_single()))
    # Inspect's own names: dict keys (None skipped), a repeated scalar numbered, a list -1, -2.
    assert single == {
        "mean_x": 3.0,
        "n": 2.0,
        "toy_half": 0.5,
        "toy_half2": 0.5,
        "toy_list-1": 1.0,
        "toy_list-2": 2.0,
    }
    CALLS.clear()
    first = with_metrics(toy_scorer, toy_first())()
    details = with_metrics(toy_details, toy_rest())()
    log = _run(first, details)
    head, rest = _groups(log)
    assert list(head) == list(FIRST)
    assert head | rest == single and not set(head) & set(rest)
    assert [n for n in CALLS if n] == [2]  # the second group reads the first's computation
    assert log.samples is not None
    copied = log.samples[0].scores["toy_details"]  # type: ignore[index]
    original = log.samples[0].scores["toy_scorer"]  # type: ignore[index]
    assert copied.value == original.value and copied.metadata == {"k": 1}


def test_the_second_group_alone_says_which_score_it_copies() -> None:
    log = inspect_eval(
        Task(dataset=[Sample(input="ab", id="a")], scorer=toy_details()),
        model=scripted_model(lambda _: "ok"),
        display="none",
        log_dir=None,
    )[0]
    assert log.status == "error"
    assert log.error is not None and "the toy_scorer score of sample a is missing" in (
        log.error.message
    )


def test_nan_figures_stay_nan() -> None:
    @metric
    def nan_metric() -> Metric:
        def compute(scores: list[SampleScore]) -> Value:
            return {"undefined": math.nan}

        return compute

    found = bundle_figures("nan", [nan_metric()])
    scores = [SampleScore(score=Score(value=1.0), sample_id="a")]
    assert math.isnan(found(scores)["undefined"])
