"""Dataset-level Long-Form Task metrics, per task id and over all samples.

Each sample's score value is a dict (see :mod:`research_taste_evals.lft.scorer`); an unscored
sample keeps its failure counts with NaN score fields, so the means below skip it while the
failure metrics still count it. Every metric returns NaN on degenerate input and never raises.

Keys: ``<stat>`` over all samples, ``<stat>/<task_id>`` per task (grouped by the sample
metadata ``task_id``), and ``<stat>_stderr`` (standard error of the mean, n-1 denominator).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Value, krippendorff_alpha, metric

from research_taste_evals.core.stats import NAN

TASK_ID_KEY = "task_id"
UNKNOWN_TASK = "unknown"
PANEL_LEVELS_KEY = "panel_levels"  # score metadata: each valid grader's end-to-end level
PANEL_CREDITS_KEY = "panel_partial_credits"  # score metadata: each valid grader's partial credit
PERCENT = 100.0
LEVELS_TO_PERCENT = 10.0  # end-to-end 0..10 -> 0..100 %


def value_dict(sample_score: SampleScore) -> dict[str, Any]:
    value = sample_score.score.value
    return value if isinstance(value, dict) else {}


def number(value: dict[str, Any], key: str) -> float:
    raw = value.get(key)
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return NAN
    return float(raw)


def task_of(sample_score: SampleScore) -> str:
    """The sample's task id (its metadata ``task_id``, else its rubric's, else ``unknown``)."""
    metadata = sample_score.sample_metadata or {}
    task_id = metadata.get(TASK_ID_KEY)
    if task_id is None and isinstance(metadata.get("rubric"), dict):
        task_id = metadata["rubric"].get(TASK_ID_KEY)
    return str(task_id) if task_id is not None else UNKNOWN_TASK


def mean_and_stderr(values: list[float]) -> tuple[float, float]:
    """Mean and standard error of the finite ``values`` (NaN when undefined)."""
    finite = [v for v in values if not math.isnan(v)]
    if not finite:
        return NAN, NAN
    mean = sum(finite) / len(finite)
    if len(finite) < 2:
        return mean, NAN
    variance = sum((v - mean) ** 2 for v in finite) / (len(finite) - 1)
    return mean, math.sqrt(variance / len(finite))


def grouped_mean(
    scores: list[SampleScore],
    name: str,
    extract: Callable[[dict[str, Any]], float],
    group: Callable[[SampleScore], str] = task_of,
) -> dict[str, float]:
    """``name`` and ``name_stderr`` over all samples and per group (default: per task id)."""
    groups: dict[str, list[float]] = {}
    every: list[float] = []
    for sample_score in scores:
        figure = extract(value_dict(sample_score))
        every.append(figure)
        groups.setdefault(group(sample_score), []).append(figure)
    result: dict[str, float] = {}
    for label, values in [("", every), *sorted(groups.items())]:
        mean, stderr = mean_and_stderr(values)
        suffix = f"/{label}" if label else ""
        result[f"{name}{suffix}"] = mean
        result[f"{name}_stderr{suffix}"] = stderr
    return result


@metric
def lft_end_to_end() -> Metric:
    """Mean median end-to-end score (0-10), and as a percentage, with standard errors."""

    def compute(scores: list[SampleScore]) -> Value:
        levels = grouped_mean(scores, "end_to_end", lambda v: number(v, "end_to_end"))
        percent = grouped_mean(
            scores, "end_to_end_pct", lambda v: number(v, "end_to_end") * LEVELS_TO_PERCENT
        )
        return {**levels, **percent}

    return compute


@metric
def lft_feasible() -> Metric:
    """Share of scored samples whose median end-to-end score is feasible (>= 5)."""

    def compute(scores: list[SampleScore]) -> Value:
        return grouped_mean(scores, "feasible_share", lambda v: number(v, "feasible"))

    return compute


@metric
def lft_partial_credit() -> Metric:
    """Mean median partial credit (0-1: points met / points available)."""

    def compute(scores: list[SampleScore]) -> Value:
        return grouped_mean(scores, "partial_credit", lambda v: number(v, "partial_credit"))

    return compute


def panel_alpha(scores: list[SampleScore], key: str, level: str) -> float:
    """Krippendorff's alpha over samples (units) x valid panel grades (score metadata ``key``).

    Uses Inspect's ``krippendorff_alpha``; samples with fewer than two valid grades add no
    pairable values, and when every grade is the same alpha is undefined (NaN). Under
    epochs > 1 Inspect keeps the first epoch's metadata, so this is the agreement of the first
    epoch's panels.
    """
    units = []
    for sample_score in scores:
        grades = (sample_score.score.metadata or {}).get(key)
        if isinstance(grades, list) and len(grades) >= 2:
            units.append(SampleScore(score=Score(value=[float(g) for g in grades])))
    if not units:
        return NAN
    distinct = {v for unit in units if isinstance(unit.score.value, list) for v in unit.score.value}
    if len(distinct) < 2:
        # No variation at all: expected disagreement is 0 and alpha is 0/0, not perfect
        # agreement (Inspect would report 1.0).
        return NAN
    alpha = krippendorff_alpha(level)  # type: ignore[arg-type]
    try:
        return float(alpha(units))  # type: ignore[arg-type]
    except (ValueError, ZeroDivisionError):
        return NAN


@metric
def lft_grader_agreement() -> Metric:
    """Agreement within each sample's panel: Krippendorff's alpha.

    Levels are treated as ordinal, partial credits as interval values.
    """

    def compute(scores: list[SampleScore]) -> Value:
        return {
            "grader_alpha": panel_alpha(scores, PANEL_LEVELS_KEY, "ordinal"),
            "grader_alpha_partial_credit": panel_alpha(scores, PANEL_CREDITS_KEY, "interval"),
        }

    return compute


@metric
def lft_grader_failures() -> Metric:
    """Pooled share of failed grader calls, and the number of unscored samples (below quorum)."""

    def compute(scores: list[SampleScore]) -> Value:
        valid = sum(number(value_dict(s), "valid_grades") for s in scores if value_dict(s))
        failed = sum(number(value_dict(s), "failed_grades") for s in scores if value_dict(s))
        unscored = sum(
            1
            for s in scores
            if not value_dict(s) or math.isnan(number(value_dict(s), "end_to_end"))
        )
        total = valid + failed
        return {
            "grader_failure_rate": failed / total if total > 0 else NAN,
            "unscored": float(unscored),
        }

    return compute


@metric
def lft_nudges() -> Metric:
    """``followup="nudge"``: nudges needed to reach level 10 (capped), and the share that did.

    NaN when the run did not nudge (the score values then carry no nudge fields).
    """

    def compute(scores: list[SampleScore]) -> Value:
        return {
            **grouped_mean(scores, "nudges_to_top", lambda v: number(v, "nudges_to_top")),
            **grouped_mean(scores, "reached_top", lambda v: number(v, "reached_top")),
        }

    return compute
