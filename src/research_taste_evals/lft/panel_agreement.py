"""Long-Form Task grader panels over epochs: agreement within panels, and the epoch reducer.

Each valid grader's end-to-end level and partial credit are kept in the score metadata
(:mod:`research_taste_evals.lft.panel_scores`). :func:`lft_epochs_reducer` reduces a sample's
epochs (fields averaged, counts summed, so an unscored epoch stays counted) and keeps every
epoch's panel grades; :func:`lft_grader_agreement` is Krippendorff's alpha over those panels.
NaN when undefined, never an exception.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    ScoreReducer,
    Value,
    krippendorff_alpha,
    metric,
    score_reducer,
)

from research_taste_evals.core.stats import NAN
from research_taste_evals.lft.metrics import number

PANEL_LEVELS_KEY = "panel_levels"  # score metadata: each valid grader's end-to-end level
PANEL_CREDITS_KEY = "panel_partial_credits"  # score metadata: each valid grader's partial credit
EPOCH_UNITS_SUFFIX = "_by_epoch"  # reduced metadata: one list of grades per epoch
# Score-value fields that are counts: summed over epochs (a mean would hide an unscored epoch).
COUNT_KEYS = frozenset({"valid_grades", "failed_grades", "unscored", "contradictions"})
MIN_ALPHA_UNITS = 2  # with one unit Krippendorff's alpha is 0 by construction: undefined


def _units(sample_score: SampleScore, key: str) -> list[list[float]]:
    metadata = sample_score.score.metadata or {}
    per_epoch = metadata.get(key + EPOCH_UNITS_SUFFIX)
    grades = per_epoch if isinstance(per_epoch, list) else [metadata.get(key)]
    return [[float(g) for g in unit] for unit in grades if isinstance(unit, list) and unit]


def panel_alpha(scores: list[SampleScore], key: str, level: str) -> float:
    """Krippendorff's alpha over panels (units) x valid grades (score metadata ``key``).

    A unit is one panel: one sample in one epoch (:func:`lft_epochs_reducer` keeps every
    epoch's grades). Uses Inspect's ``krippendorff_alpha``. Units with fewer than two grades
    add no pairable values. NaN when undefined: fewer than two units (alpha is then 0 by
    construction), or every grade the same (Inspect would report 1.0).
    """
    units = [
        SampleScore(score=Score(value=unit))
        for sample_score in scores
        for unit in _units(sample_score, key)
        if len(unit) >= 2
    ]
    if len(units) < MIN_ALPHA_UNITS:
        return NAN
    distinct = {v for unit in units if isinstance(unit.score.value, list) for v in unit.score.value}
    if len(distinct) < 2:
        return NAN
    alpha = krippendorff_alpha(level)  # type: ignore[arg-type]
    try:
        return float(alpha(units))  # type: ignore[arg-type]
    except (ValueError, ZeroDivisionError):
        return NAN


@metric
def lft_grader_agreement() -> Metric:
    """Agreement within each panel: Krippendorff's alpha (levels ordinal, credits interval)."""

    def compute(scores: list[SampleScore]) -> Value:
        return {
            "grader_alpha": panel_alpha(scores, PANEL_LEVELS_KEY, "ordinal"),
            "grader_alpha_partial_credit": panel_alpha(scores, PANEL_CREDITS_KEY, "interval"),
        }

    return compute


def _reduce_values(values: list[dict[str, Any]]) -> dict[str, Any]:
    reduced: dict[str, Any] = {}
    for key in dict.fromkeys(k for value in values for k in value):  # every epoch's keys
        numbers = [number(v, key) for v in values]
        finite = [n for n in numbers if not math.isnan(n)]
        if key in COUNT_KEYS:
            reduced[key] = float(sum(finite)) if finite else NAN
        else:
            reduced[key] = statistics.mean(finite) if finite else NAN
    return reduced


@score_reducer(name="lft_epochs")
def lft_epochs_reducer() -> ScoreReducer:
    """Reduce a sample's epochs: fields averaged over scored epochs, counts summed.

    ``valid_grades``, ``failed_grades``, ``unscored`` and ``contradictions`` are summed, so an
    unscored epoch stays counted; every other field is the mean over the epochs where it is
    defined. The metadata keeps every epoch's panel grades (``panel_levels_by_epoch``,
    ``panel_partial_credits_by_epoch``), so grader agreement uses every epoch's panels.
    """

    def reduce(scores: list[Score]) -> Score:
        dicts = [s.value for s in scores if isinstance(s.value, dict)]
        if not dicts:
            return Score(value=NAN, metadata=scores[0].metadata if scores else None)
        metadata = dict(scores[0].metadata or {})
        for key in (PANEL_LEVELS_KEY, PANEL_CREDITS_KEY):
            metadata[key + EPOCH_UNITS_SUFFIX] = [(s.metadata or {}).get(key, []) for s in scores]
        reasons = {s.reason for s in scores}
        return Score(
            value=_reduce_values(dicts),
            answer=scores[0].answer if len({s.answer for s in scores}) == 1 else None,
            reason=scores[0].reason if len(reasons) == 1 else None,
            explanation=scores[0].explanation if len(scores) == 1 else None,
            metadata=metadata,
        )

    return reduce
