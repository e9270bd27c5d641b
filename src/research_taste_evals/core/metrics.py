"""Generic dataset-level metrics over dict-valued sample scores.

Benchmarks keep several numbers per sample in ``Score.value`` (so they survive epochs). Two
kinds of metric read them:

- Binary decisions scored against a label (a yes/no question per sample): the value holds
  confusion indicators plus an ``unparsed`` flag, so Inspect's epoch reducer (mean) keeps
  pooled F1 exact and an unparseable answer is never a silent 0: it is counted in
  ``unparsed_rate``, and in ``strict`` mode it is left out of precision/recall/F1 instead of
  being forced to a label.
- One key turned into a metric (:func:`key_mean`, :func:`key_ratio`). Non-numeric or NaN
  entries (a sample that could not be scored on that figure) are skipped, and a metric with
  nothing left is NaN, never an error.

A dataset-level metric that computes many figures at once runs them through
:func:`nan_on_error`: a raising metric would mark the whole log as an error, so its figures
become NaN and the cause is logged instead.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from typing import Any, Literal

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.answers import answer_rates
from research_taste_evals.core.stats import NAN, precision_recall_f1

logger = logging.getLogger(__name__)
UnparsedPolicy = Literal["strict", "faithful"]
COUNT_KEYS = ("tp", "fp", "fn", "tn")


def decision_value(label: int, prediction: int | None, policy: UnparsedPolicy) -> dict[str, float]:
    """The score value of one binary decision.

    Args:
        label: The true label (1 = positive class).
        prediction: The parsed answer, or None when the answer did not parse.
        policy: ``strict`` leaves an unparsed answer out of the confusion counts;
            ``faithful`` scores it as the wrong label (what release code that treats an
            unreadable answer as a wrong one does; the family says which upstream).
    """
    unparsed = prediction is None
    if unparsed and policy == "faithful":
        prediction = 1 - label
    value = dict.fromkeys(COUNT_KEYS, 0.0)
    if prediction is not None:
        key = ("t" if prediction == label else "f") + ("p" if prediction == 1 else "n")
        value[key] = 1.0
    value["unparsed"] = 1.0 if unparsed else 0.0
    return value


def _totals(scores: list[SampleScore]) -> dict[str, float]:
    totals = dict.fromkeys((*COUNT_KEYS, "unparsed"), 0.0)
    for sample_score in scores:
        value = sample_score.score.value
        if isinstance(value, dict):
            for key in totals:
                totals[key] += float(value.get(key) or 0.0)
    return totals


def _from_totals(compute: Callable[[dict[str, float]], float]) -> Metric:
    def metric_fn(scores: list[SampleScore]) -> Value:
        try:
            return compute(_totals(scores))
        except (ZeroDivisionError, ValueError):
            return NAN

    return metric_fn


@metric
def decision_f1() -> Metric:
    """Binary F1, positive class = label 1, pooled over all scored decisions."""
    return _from_totals(lambda t: precision_recall_f1(t["tp"], t["fp"], t["fn"])[2])


@metric
def decision_precision() -> Metric:
    """Binary precision pooled over all scored decisions."""
    return _from_totals(lambda t: precision_recall_f1(t["tp"], t["fp"], t["fn"])[0])


@metric
def decision_recall() -> Metric:
    """Binary recall pooled over all scored decisions."""
    return _from_totals(lambda t: precision_recall_f1(t["tp"], t["fp"], t["fn"])[1])


@metric
def decision_accuracy() -> Metric:
    """Share of scored decisions that are right (unparsed ones excluded in strict mode)."""

    def accuracy(t: dict[str, float]) -> float:
        scored = sum(t[key] for key in COUNT_KEYS)
        return (t["tp"] + t["tn"]) / scored if scored else NAN

    return _from_totals(accuracy)


@metric
def reasked_rate() -> Metric:
    """Share of samples whose answer was asked again (``reasked``; 0 where never re-asked)."""

    def rate(scores: list[SampleScore]) -> Value:
        return answer_rates(scores)["reasked_rate"]

    return rate


@metric
def answer_shape(unparsed_key: str = "unparsed", answers_per_sample: float = 1.0) -> Metric:
    """The agreed ``unparsed_rate`` and ``reasked_rate`` of a task (``core.answers``).

    Args:
        unparsed_key: The score-value key counting a sample's unreadable answers.
        answers_per_sample: Answers the model gives per sample (the rates' denominator).
    """

    def compute(scores: list[SampleScore]) -> Value:
        return answer_rates(
            scores, unparsed_key=unparsed_key, answers_per_sample=answers_per_sample
        )

    return compute


@metric
def unparsed_rate() -> Metric:
    """Share of decisions whose answer did not parse (in either policy)."""

    def rate(scores: list[SampleScore]) -> Value:
        if not scores:
            return NAN
        return _totals(scores)["unparsed"] / len(scores)

    return rate


def score_dict(sample_score: SampleScore) -> dict[str, Any]:
    """The sample's score value if it is a dict, else an empty dict."""
    value = sample_score.score.value
    return value if isinstance(value, dict) else {}


def finite_values(scores: list[SampleScore], key: str) -> list[float]:
    """The finite numeric values of ``key`` over the samples (bools are not numbers here)."""
    values = []
    for sample_score in scores:
        raw = score_dict(sample_score).get(key)
        if isinstance(raw, int | float) and not isinstance(raw, bool) and math.isfinite(raw):
            values.append(float(raw))
    return values


def key_mean(key: str) -> Metric:
    """A metric: the mean of ``key`` over the samples that have a finite value for it."""

    # Annotated so Inspect passes SampleScores (it passes bare Scores to unannotated callables).
    def compute(scores: list[SampleScore]) -> Value:
        values = finite_values(scores, key)
        return sum(values) / len(values) if values else NAN

    return compute


def key_ratio(numerator: str, denominator: str) -> Metric:
    """A metric: sum of ``numerator`` over sum of ``denominator`` (pooled over samples)."""

    def compute(scores: list[SampleScore]) -> Value:
        bottom = sum(finite_values(scores, denominator))
        return sum(finite_values(scores, numerator)) / bottom if bottom else NAN

    return compute


@metric
def empty_prediction_rate() -> Metric:
    """Share of samples whose answer held no list item to score (each scored 0)."""
    return key_mean("empty_prediction")


def nan_on_error(
    what: str, keys: Iterable[str], compute: Callable[[], dict[str, float]]
) -> dict[str, float]:
    """``compute()``, or every key NaN (and the cause logged as ``what`` failing) if it raises.

    Inspect marks a whole log as failed when a metric raises; one figure that cannot be
    computed must not cost the run's other figures.
    """
    try:
        return compute()
    except Exception:  # noqa: BLE001 - see the docstring
        logger.exception("%s failed; reporting NaN", what)
        return dict.fromkeys(keys, NAN)
