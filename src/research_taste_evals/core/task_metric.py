"""A task's one metric: the figures its log holds, computed once over the run's scores.

Every task has one scorer and one metric (the family's ``<task>_figures``, a body made by
:func:`logged_figures`). It runs the family's metrics over the run's (epoch-reduced) sample
scores and keeps the figures the task's spec names (``core/spec.py``: ``first_group``, the log's
one score group, the headline first): the headline with its CI and n, its clean or prospective
twin with n, the failure counts and the diagnostics the paper reports, at most 30. Those are
every figure a reader of the task sees: ``research-taste report``, its leaderboard and the docs'
tables read them from ``log.results.scores[*].metrics`` and never compute one again from the
samples. The configuration that picks the names (a schedule, a mode) and the bootstrap settings
are the metric's arguments, given when the task is built (``Task(metrics=[...])``): Inspect
records them in the log's header, and ``inspect score`` re-creates the metric from there and
rebuilds every figure (``inspect_ai.score``). Per-item detail an analysis needs stays in each
sample's score (its value, answer and metadata), not in the log's figures.

Why not a dict-valued ``Score`` with a metrics mapping (one group per key): Inspect applies a
mapping's metrics to each key's values on their own, so each key would compute the family's
figures again (the bootstraps included); a sample whose value under a key is NaN is left out of
that key's metrics (an unscored answer would leave a rate's denominator).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from inspect_ai.log import EvalLog
from inspect_ai.scorer import Metric, MetricProtocol, SampleScore, Value
from inspect_ai.util import registry_info

Figures = dict[str, float]
MOST_FIGURES = 30  # a task's log holds at most this many figures (issue 60)


def figures(metrics: Sequence[Metric], scores: list[SampleScore]) -> Figures:
    """Every figure of ``metrics`` over ``scores``, named as Inspect names one score group's.

    A mapping contributes its keys (``None`` values skipped), a list ``<name>-1``, ``-2``...,
    a number the metric's registered name; a repeated name gets a number (``name2``), as
    Inspect does for a scorer's metrics.
    """
    out: Figures = {}
    for compute in metrics:
        name = registry_info(compute).name.split("/")[-1]
        value = cast(MetricProtocol, compute)(scores)
        items: list[tuple[str, Any]]
        if isinstance(value, Mapping):
            items = [(str(k), v) for k, v in value.items() if v is not None]
        elif isinstance(value, Sequence) and not isinstance(value, str | bytes):
            items = [(f"{name}-{i + 1}", v) for i, v in enumerate(value) if v is not None]
        else:
            items = [(name, value)]
        for key, item in items:
            out[_unique(key, out)] = float(item)
    return out


def _unique(key: str, taken: Mapping[str, Any]) -> str:
    if key not in taken:
        return key
    index = 2
    while f"{key}{index}" in taken:
        index += 1
    return f"{key}{index}"


def logged_figures(names: Sequence[str], metrics: Sequence[Metric]) -> Metric:
    """A task's metric body: ``metrics``' figures named in ``names``, in that order (those the
    run computed; a twin of a run without dated items is absent, not 0). A name ending in
    ``/*`` stands for one figure per group of the data (``end_to_end/*``: one per research task).

    Raises:
        ValueError: ``names`` holds more than :data:`MOST_FIGURES` figures.
    """
    if len(names) > MOST_FIGURES:
        raise ValueError(f"{len(names)} figures named; a task logs at most {MOST_FIGURES}")

    # Annotated: Inspect passes SampleScores only to a metric whose hints say so.
    def compute(scores: list[SampleScore]) -> Value:
        found = figures(metrics, scores)
        return cast(Value, {key: found[key] for name in names for key in _matching(name, found)})

    return compute


def _matching(name: str, found: Figures) -> list[str]:
    if name.endswith("/*"):
        return [key for key in found if key.startswith(name[:-1])]
    return [name] if name in found else []


def log_results(log: EvalLog) -> Figures:
    """Every figure a log holds: its score groups' metrics (``log.results.scores``), the first
    group's first where two groups share a name. A log with no results holds none."""
    found: Figures = {}
    for group in log.results.scores if log.results else []:
        for name, value in group.metrics.items():
            found.setdefault(name, float(value.value))
    return found
