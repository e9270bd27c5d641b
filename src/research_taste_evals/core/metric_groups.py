"""Two score groups: the headline first, every other figure in a second group shown apart.

Inspect's viewer, its console summary and ``log.results.scores[0]`` show a task's first score
group first. A task keeps its scorer (name, arguments, grader calls) and gives it the *first
group*: the headline with its CI and n, its clean twin with n, ``recognized_rate`` and
``estimated_cutoff`` where items are dated, the failure rates and the paper's comparable figure,
for the configuration the run used. A second scorer, ``<family>_details``
(:func:`copy_score`), returns a copy of that scorer's ``Score`` from ``state.scores`` (no
model call, under ``inspect eval`` and ``inspect score`` alike) and reports every other figure,
under the names the single group gave them before, so a reader looping over
``log.results.scores`` finds every figure as before.

Both groups come from one computation of the family's metrics (:func:`figures`, remembered
for the last score list seen), so the split costs no second bootstrap. Which names form the
first group is the task's ``first_group`` in its family's ``eval.yaml`` (:func:`first_group`):
a list, or a list per configuration (e.g. per pair schedule).

A metric's settings (bootstrap resamples, seed) are task arguments, and Inspect takes a
scorer's metrics from its ``@scorer`` declaration (``Task(metrics=...)`` would give both
scorers the same list), so :func:`with_metrics` declares a family's scorer again with the
run's metric objects. ``inspect score`` re-creates a scorer from its registered declaration:
the module-level one, with the default settings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ParamSpec, cast

from inspect_ai.scorer import (
    Metric,
    MetricProtocol,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    scorer,
)
from inspect_ai.solver import TaskState
from inspect_ai.util import registry_info

from research_taste_evals.core.data import read_yaml

P = ParamSpec("P")
Figures = dict[str, float]
FiguresOf = Callable[[list[SampleScore]], Figures]  # a metric body returning figures
NamesOf = Callable[[list[SampleScore]], Sequence[str]]  # the first group's names for a run
FIRST_GROUP_FIELD = "first_group"


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


_LAST: dict[str, tuple[str, Figures]] = {}  # per family and settings: the last score list's


def _fingerprint(scores: list[SampleScore], ignore: Sequence[str]) -> str:
    """Everything a metric reads of the scores (a copy's left-out metadata aside)."""
    digest = hashlib.sha1(usedforsecurity=False)
    for s in scores:
        score = s.score
        metadata = {k: v for k, v in (score.metadata or {}).items() if k not in ignore}
        seen = (score.value, score.answer, score.explanation, score.reason, metadata)
        digest.update(repr((s.sample_id, s.sample_metadata, seen)).encode())
    return digest.hexdigest()


def remembered(label: str, compute: FiguresOf, ignore: Sequence[str] = ()) -> FiguresOf:
    """``compute`` remembering its last result per ``label`` (family and settings).

    The first group's metric and the second's see copies of the same scores (the second's
    without the metadata keys ``ignore`` names); the second reads the figures the first
    computed instead of computing them again.
    """

    def run(scores: list[SampleScore]) -> Figures:
        key = _fingerprint(scores, ignore)
        last = _LAST.get(label)
        if last is not None and last[0] == key:
            return last[1]
        result = compute(scores)
        _LAST[label] = (key, result)
        return result

    return run


def bundle_figures(label: str, metrics: Sequence[Metric], ignore: Sequence[str] = ()) -> FiguresOf:
    """Every figure of ``metrics`` (:func:`figures`), remembered per ``label`` (family+settings).

    ``ignore``: metadata keys the second group's copies leave out (:func:`copy_score`).
    """
    return remembered(label, lambda scores: figures(metrics, scores), ignore)


def first_group_metric(found: FiguresOf, names_of: NamesOf) -> Metric:
    """A metric's body reporting the first group: the figures ``names_of`` names, in order."""

    # Annotated: Inspect passes SampleScores only to a metric whose hints say so.
    def compute(scores: list[SampleScore]) -> Value:
        return first_of(found(scores), names_of(scores))

    return compute


def details_metric(found: FiguresOf, names_of: NamesOf) -> Metric:
    """A metric's body reporting the second group: every figure ``names_of`` does not name."""

    def compute(scores: list[SampleScore]) -> Value:
        return rest_of(found(scores), names_of(scores))

    return compute


def first_of(found: Figures, names: Sequence[str]) -> Figures:
    """The first group: ``names`` in their order, those the run reported."""
    return {name: found[name] for name in names if name in found}


def rest_of(found: Figures, names: Sequence[str]) -> Figures:
    """The second group: every figure not in ``names``."""
    first = set(names)
    return {name: value for name, value in found.items() if name not in first}


@cache
def _declared(family_dir: str, task: str) -> Any:
    declared = read_yaml(Path(family_dir) / "eval.yaml")
    return declared["metadata"]["extras"]["tasks"][task][FIRST_GROUP_FIELD]


def first_group(family_file: str, task: str, configuration: str | None = None) -> tuple[str, ...]:
    """The first group's names for ``task`` (and ``configuration``) from the family's eval.yaml.

    Args:
        family_file: ``__file__`` of a module in the family folder (beside its ``eval.yaml``).
        task: The task name (``metadata.extras.tasks.<task>.first_group``).
        configuration: The key when ``first_group`` is a mapping (one list per configuration).
    """
    declared = _declared(str(Path(family_file).parent), task)
    if isinstance(declared, Mapping):
        declared = declared[configuration]
    return tuple(str(name) for name in declared)


def copy_score(of: str, without: Sequence[str] = ()) -> Scorer:
    """A scorer returning a copy of the ``of`` scorer's score of this sample (run before it).

    ``without``: metadata keys only first-group figures read (e.g. packed embeddings), left out
    of the copy so that the log does not hold them twice.
    """

    async def score(state: TaskState, target: Target) -> Score:
        found = (state.scores or {}).get(of)
        if found is None:
            raise ValueError(
                f"the {of} score of sample {state.sample_id} is missing: run the {of} scorer "
                "before this one (its figures are the second group of that score)"
            )
        copy = found.model_copy(deep=True)
        if without and copy.metadata:
            copy.metadata = {k: v for k, v in copy.metadata.items() if k not in without}
        return copy

    return score


def with_metrics(factory: Callable[P, Scorer], *metrics: Metric) -> Callable[P, Scorer]:
    """``factory`` (an ``@scorer``) declared again, under its name, with these metric objects."""
    return scorer(metrics=list(metrics), name=factory.__name__)(factory)
