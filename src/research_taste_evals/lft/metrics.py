"""Dataset-level Long-Form Task metrics: per task over runs, then the mean of the task means.

AISI's Long-Form Tasks report ("A Case Study", Figure 3) reports, per task and configuration,
"the average over ten runs, with error bars giving the standard error". Here a run is a sample
(``-T runs=N`` gives each task N samples, see :mod:`research_taste_evals.lft.dataset`), so:

- ``<stat>/<task_id>`` is the mean over that task's runs and ``<stat>_stderr/<task_id>`` its
  standard error over runs (n-1 denominator; NaN with one run: undefined, never 0);
- ``<stat>`` is the mean of the per-task means (each task weighs the same whatever its number
  of runs) and ``<stat>_stderr`` the standard error of that mean, ``sqrt(sum se_t^2) / T``
  (NaN when any task has a single run).

Each sample's score value is a dict (see :mod:`research_taste_evals.lft.scorer`). An unscored
panel keeps its failure counts with NaN score fields, so the means skip it while ``unscored``
counts it; the epoch reducer sums the counts over epochs, so an unscored epoch is counted
whatever ``--epochs`` is (:mod:`research_taste_evals.lft.panel_agreement`, with the panel's
Krippendorff's alpha). Every metric returns NaN on degenerate input and never raises.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.stats import NAN, mean_and_stderr

TASK_ID_KEY = "task_id"
UNKNOWN_TASK = "unknown"
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


def _groups(
    scores: list[SampleScore],
    extract: Callable[[dict[str, Any]], float],
    group: Callable[[SampleScore], str],
) -> dict[str, list[float]]:
    groups: dict[str, list[float]] = {}
    for sample_score in scores:
        groups.setdefault(group(sample_score), []).append(extract(value_dict(sample_score)))
    return groups


def grouped_mean(
    scores: list[SampleScore],
    name: str,
    extract: Callable[[dict[str, Any]], float],
    group: Callable[[SampleScore], str],
) -> dict[str, float]:
    """``name``/``name_stderr`` pooled over all samples, and per group (the grader check's)."""
    groups = _groups(scores, extract, group)
    every = [v for values in groups.values() for v in values]
    result: dict[str, float] = {}
    for label, values in [("", every), *sorted(groups.items())]:
        mean, stderr = mean_and_stderr(values)
        suffix = f"/{label}" if label else ""
        result[f"{name}{suffix}"] = mean
        result[f"{name}_stderr{suffix}"] = stderr
    return result


def task_means(
    scores: list[SampleScore], name: str, extract: Callable[[dict[str, Any]], float]
) -> dict[str, float]:
    """Per task: mean and standard error over runs; overall: the mean of the task means."""
    result: dict[str, float] = {}
    means: list[float] = []
    errors: list[float] = []
    for label, values in sorted(_groups(scores, extract, task_of).items()):
        mean, stderr = mean_and_stderr(values)
        result[f"{name}/{label}"] = mean
        result[f"{name}_stderr/{label}"] = stderr
        if not math.isnan(mean):
            means.append(mean)
            errors.append(stderr)
    overall = sum(means) / len(means) if means else NAN
    # Tasks are fixed, runs random: the variance of a mean of independent task means.
    stderr = math.sqrt(sum(e * e for e in errors)) / len(errors) if errors else NAN
    return {name: overall, f"{name}_stderr": stderr, **result}


@metric
def lft_end_to_end() -> Metric:
    """End-to-end score (0-10, and %): per task over runs, overall the mean of task means."""

    def compute(scores: list[SampleScore]) -> Value:
        return {
            **task_means(scores, "end_to_end", lambda v: number(v, "end_to_end")),
            **task_means(
                scores,
                "end_to_end_pct",
                lambda v: number(v, "end_to_end") * LEVELS_TO_PERCENT,
            ),
        }

    return compute


@metric
def lft_feasible() -> Metric:
    """Share of scored runs whose median end-to-end score is feasible (>= 5), per task."""

    def compute(scores: list[SampleScore]) -> Value:
        return task_means(scores, "feasible_share", lambda v: number(v, "feasible"))

    return compute


@metric
def lft_partial_credit() -> Metric:
    """Median partial credit (0-1: points met / points available), per task over runs."""

    def compute(scores: list[SampleScore]) -> Value:
        return task_means(scores, "partial_credit", lambda v: number(v, "partial_credit"))

    return compute


def unscored_panels(value: dict[str, Any]) -> float:
    """Unscored panels in a score value (its count, else 1 when the end-to-end is NaN)."""
    if not value:
        return 1.0
    count = number(value, "unscored")
    if not math.isnan(count):
        return count
    return 1.0 if math.isnan(number(value, "end_to_end")) else 0.0


def _total(scores: list[SampleScore], key: str) -> float:
    values = [number(value_dict(s), key) for s in scores if value_dict(s)]
    return sum(v for v in values if not math.isnan(v))


@metric
def lft_grader_failures() -> Metric:
    """Failed grader calls, unscored panels, and grades whose level contradicts their checklist.

    - ``grader_failure_rate``: failed calls / all calls, pooled;
    - ``unscored``: panels below quorum (every epoch counted; a sample with no score value
      counts once);
    - ``grade_contradiction_rate``: valid grades whose level claims a criterion their own
      ``criteria_met`` does not list / valid grades (NaN when partial credit was not graded);
    - ``unparsed_rate``: grader replies that could not be read / all grader calls (the
      evaluated model's protocol is free text, never parsed: the replies read are the
      graders'); ``reasked_rate``: 0, no grader call is asked again.
    """

    def compute(scores: list[SampleScore]) -> Value:
        valid = _total(scores, "valid_grades")
        failed = _total(scores, "failed_grades")
        unscored = sum(unscored_panels(value_dict(s)) for s in scores)
        checked = [s for s in scores if not math.isnan(number(value_dict(s), "contradictions"))]
        contradictions = _total(checked, "contradictions")
        checked_grades = _total(checked, "valid_grades")
        return {
            "grader_failure_rate": failed / (valid + failed) if valid + failed > 0 else NAN,
            "unscored": float(unscored),
            "grade_contradiction_rate": (
                contradictions / checked_grades if checked_grades > 0 else NAN
            ),
            "unparsed_rate": (
                _total(scores, "unparseable_grades") / (valid + failed)
                if valid + failed > 0
                else NAN
            ),
            "reasked_rate": 0.0 if valid + failed > 0 else NAN,
        }

    return compute


@metric
def lft_nudges() -> Metric:
    """``followup="nudge"``: nudges needed to reach level 10 (capped), and the share that did.

    NaN when the run did not nudge (the score values then carry no nudge fields).
    """

    def compute(scores: list[SampleScore]) -> Value:
        return {
            **task_means(scores, "nudges_to_top", lambda v: number(v, "nudges_to_top")),
            **task_means(scores, "reached_top", lambda v: number(v, "reached_top")),
        }

    return compute


# ``lft_grader_check``: how well the grader panel recovers the known level, by reference kind.


def _kind(sample_score: SampleScore) -> str:
    return str((sample_score.sample_metadata or {}).get("reference_kind", "unknown"))


def _by_kind(scores: list[SampleScore], name: str, key: str) -> dict[str, float]:
    return grouped_mean(scores, name, lambda v: number(v, key), group=_kind)


@metric
def grader_recovery() -> Metric:
    """Exact and within-one recovery of the known level, by reference kind."""

    def compute(scores: list[SampleScore]) -> Value:
        return {
            **_by_kind(scores, "exact", "exact"),
            **_by_kind(scores, "within_one", "within_one"),
            **_by_kind(scores, "member_exact", "member_exact"),
        }

    return compute


@metric
def grader_error() -> Metric:
    """Mean absolute and signed level error (positive: lenient), over-scored share, by kind."""

    def compute(scores: list[SampleScore]) -> Value:
        return {
            **_by_kind(scores, "abs_error", "abs_error"),
            **_by_kind(scores, "bias", "error"),
            **_by_kind(scores, "overscored", "overscored"),
            **_by_kind(scores, "partial_credit_abs_error", "partial_credit_abs_error"),
        }

    return compute
