"""One scorer and one score group per task: the first group in the log, every figure from it.

Inspect's viewer, its console summary and ``log.results.scores[0]`` show a task's first score
group first. A task has one scorer, which computes each sample's score once; its one metric
(the family's ``<task>_figures``, a body made by :func:`group_metric`) computes the family's
figures over the run's scores and reports the *first group* the task's spec declares
(``core/spec.py``): the headline with its CI and n, its clean twin with n, ``recognized_rate``
and ``estimated_cutoff`` where items are dated, the failure rates and the paper's comparable
figure. The configuration that picks the group (a schedule, a mode) and the bootstrap settings
are that metric's arguments, given when the task is built (``Task(metrics=[...])``): Inspect
records them in the log's header, and ``inspect score`` re-creates the metric from there as it
ran (``_eval/score.py``, ``metrics_from_log_header``).

Every other figure is derived from what the log holds: :func:`log_figures` re-creates the
log's metrics with ``part="all"`` (the same arguments otherwise) and applies them to the log's
epoch-reduced sample scores (``log.reductions``), under the names one group gave them
(:func:`figures`). ``research-taste report``, the docs' tables and the tests read it. A
figures metric is known by the ``part`` argument its header records, so a task and a scorer
give it explicitly (``<task>_figures(..., part="first")``).

Why not a dict-valued ``Score`` with a metrics mapping (one group per key): Inspect applies a
mapping's metrics to each key's values on their own (``_eval/task/results.py``,
``scorers_from_metric_dict``), so each group would compute the family's figures again (the
bootstraps included) or share a memo between them; a sample whose value under a key is NaN is
left out of that key's metrics (an unscored answer would leave a rate's denominator); and each
sample's value would change shape for every reader of the log.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal, cast

from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import Metric, MetricProtocol, SampleScore, Score, Value
from inspect_ai.util import registry_create, registry_info

Figures = dict[str, float]
Part = Literal["first", "all"]  # the first group only, or every figure
PART_ARG = "part"  # the figures metric's argument that says which


def figures(metrics: Sequence[Metric], scores: list[SampleScore]) -> Figures:
    """Every figure of ``metrics`` over ``scores``, named as Inspect names one score group's.

    A mapping contributes its keys (``None`` values skipped), a list ``<name>-1``, ``-2``...,
    a number the metric's registered name; a repeated name gets a number (``name2``), as in
    Inspect (``_eval/task/results.py``, ``scorer_for_metrics``).
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


def first_of(found: Figures, names: Sequence[str]) -> Figures:
    """The first group: ``names`` in their order, those the run reported."""
    return {name: found[name] for name in names if name in found}


def group_metric(names: Sequence[str], metrics: Sequence[Metric], part: Part) -> Metric:
    """A figures metric's body: ``metrics``' figures, the first group (``names``) or all.

    Raises:
        ValueError: ``part`` is neither ``first`` nor ``all``.
    """
    if part not in ("first", "all"):
        raise ValueError(f"{PART_ARG}={part!r}: expected 'first' or 'all'")

    # Annotated: Inspect passes SampleScores only to a metric whose hints say so.
    def compute(scores: list[SampleScore]) -> Value:
        found = figures(metrics, scores)
        return cast(Value, found if part == "all" else first_of(found, names))

    return compute


def log_figures(log: EvalLog) -> Figures:
    """Every figure of a log: its score groups', then those its figures metrics derive from
    its sample scores (module docstring). A log read without its samples (a header) is read
    again, whole, from its location when it has figures to derive."""
    found: Figures = {}
    for group in log.results.scores if log.results else []:
        for name, value in group.metrics.items():
            found.setdefault(name, float(value.value))
    derived = _figures_metrics(log)
    if derived and log.samples is None and log.location:
        log = read_eval_log(log.location)
    with _lines_already_said():
        for scorer, definition in derived:
            scores = _sample_scores(log, scorer)
            if not scores:
                continue
            options = {**(definition.options or {}), PART_ARG: "all"}
            derive = registry_create("metric", definition.name, **options)
            for name, figure in figures([derive], scores).items():
                found.setdefault(name, figure)
    return found


@contextlib.contextmanager
def _lines_already_said() -> Iterator[None]:
    """The metrics' lines (a NaN's reason, a contradicted cutoff: ``core/recall_metrics.py``
    says each once per run) were said when the log's run computed them; a figure derived again
    from the log (a report, a docs table) says them not again. Errors still pass."""
    logger = logging.getLogger(__name__.split(".")[0])
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _definitions(declared: object) -> list[Any]:
    """The metric definitions (``name``, ``options``) of a header's metrics list."""
    if not isinstance(declared, list):  # none, or a metrics mapping: no figures metric
        return []
    return [entry for entry in declared if not isinstance(entry, dict)]


def _figures_metrics(log: EvalLog) -> list[tuple[str, Any]]:
    """(scorer, metric definition) for every metric of the log with a ``part`` argument;
    ``Task(metrics=...)`` applies to every scorer, else each scorer's own."""
    shared = _definitions(log.eval.metrics)
    found = []
    for scorer in log.eval.scorers or []:
        declared = shared or _definitions(scorer.metrics)
        found += [(scorer.name, m) for m in declared if PART_ARG in (m.options or {})]
    return found


def _sample_scores(log: EvalLog, scorer: str) -> list[SampleScore]:
    """The scores the log's metrics saw: epoch-reduced where the log keeps them, else each
    sample's own, with the sample's metadata."""
    metadata = {sample.id: sample.metadata for sample in log.samples or []}
    reduced = next((r for r in log.reductions or [] if r.scorer == scorer), None)
    if reduced is not None:
        return [
            SampleScore(
                score=Score(**{k: v for k, v in s.__dict__.items() if k != "sample_id"}),
                sample_id=s.sample_id,
                sample_metadata=metadata.get(s.sample_id) if s.sample_id is not None else None,
                scorer=scorer,
            )
            for s in reduced.samples
        ]
    return [
        SampleScore(
            score=sample.scores[scorer],
            sample_id=sample.id,
            sample_metadata=sample.metadata,
            scorer=scorer,
        )
        for sample in log.samples or []
        if sample.scores and scorer in sample.scores
    ]
