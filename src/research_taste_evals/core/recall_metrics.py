"""Recall twins of a family's headline: on post-cutoff samples, and the recognition rate.

What a scorer stores (``Score.metadata``; Inspect's epoch reduction keeps the first epoch's
metadata, and these fields are the same in every epoch):

- :func:`recall_score_metadata` = ``core.cutoff.cutoff_fields`` (``knowledge_cutoff``,
  ``cutoff_source``, ``cutoff_entry``, ``post_cutoff``) + ``recall``: per item shown,
  ``{"recognized": bool | None, "identity_leak": bool}`` (the model's words stay in the
  sample's metadata, ``recall_probe``).

What a family's ``@metric`` returns from them:

- :func:`post_cutoff_values`: ``<headline>_post_cutoff`` (and its ``_ci_low``/``_ci_high``
  when the family's statistic gives them) computed by the family's own statistic on the
  post-cutoff samples only, and ``post_cutoff_samples``; both NaN when the cutoff is unknown,
  the statistic NaN (and the count 0) when no sample is post-cutoff;
- :func:`recognition_values`: ``recognized_rate`` over the distinct items probed without an
  identity leak, with ``recognized_items``, ``probed_items`` and ``leaked_items``; NaN when
  the probe was off, or every item leaks (the count says why);
- :func:`unrecognized_values`: ``<headline>_unrecognized`` on the samples whose every item
  was probed and not recognised, and ``unrecognized_samples``; both NaN when the probe was off.

These are plain functions, called inside a family's metric, so each family keeps one metric
per concern and its own CI method.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from inspect_ai.scorer import SampleScore
from inspect_ai.solver import TaskState

from research_taste_evals.core.cutoff import cutoff_fields, state_cutoff
from research_taste_evals.core.dates import ItemDate
from research_taste_evals.core.recognition import state_recognitions
from research_taste_evals.core.stats import NAN

SubsetStatistic = Callable[[list[SampleScore]], Mapping[str, float] | float]
RECALL_FIELD = "recall"


def recall_score_metadata(state: TaskState, dates: Iterable[ItemDate | None]) -> dict[str, Any]:
    """The ``Score.metadata`` fields of the module docstring for this sample."""
    recognitions = state_recognitions(state)
    compact = {
        item: {"recognized": r.get("recognized"), "identity_leak": bool(r.get("identity_leak"))}
        for item, r in recognitions.items()
    }
    return cutoff_fields(state_cutoff(state), dates) | {RECALL_FIELD: compact}


def _metadata(score: SampleScore) -> dict[str, Any]:
    return score.score.metadata or {}


def cutoff_known(scores: Iterable[SampleScore]) -> bool:
    """Did the run know a cutoff (some sample has a ``post_cutoff`` that is not None)?"""
    return any(_metadata(s).get("post_cutoff") is not None for s in scores)


def post_cutoff_scores(scores: Iterable[SampleScore]) -> list[SampleScore]:
    """The samples whose every item was published after the cutoff."""
    return [s for s in scores if _metadata(s).get("post_cutoff") is True]


def subset_values(
    headline: str, suffix: str, subset: list[SampleScore] | None, statistic: SubsetStatistic
) -> dict[str, float]:
    """``<headline>_<suffix>[...]`` from ``statistic(subset)``; NaN when ``subset`` is None/empty.

    ``statistic`` returns the headline as a number, or a mapping whose keys start with the
    headline (``{"accuracy": .., "accuracy_ci_low": ..}`` -> ``accuracy_<suffix>_ci_low``).
    """
    if not subset:
        return {f"{headline}_{suffix}": NAN}
    value = statistic(subset)
    if not isinstance(value, Mapping):
        return {f"{headline}_{suffix}": float(value)}
    return {
        f"{headline}_{suffix}{key[len(headline) :]}": float(number)
        for key, number in value.items()
        if key.startswith(headline)
    }


def post_cutoff_values(
    scores: list[SampleScore],
    headline: str,
    statistic: SubsetStatistic,
    count_key: str = "post_cutoff_samples",
) -> dict[str, float]:
    """The family's headline on its post-cutoff samples, and their count (module docstring)."""
    if not cutoff_known(scores):
        return {f"{headline}_post_cutoff": NAN, count_key: NAN}
    subset = post_cutoff_scores(scores)
    values = subset_values(headline, "post_cutoff", subset, statistic)
    return values | {count_key: float(len(subset))}


def item_recognitions(scores: Iterable[SampleScore]) -> dict[str, dict[str, Any]]:
    """Each distinct item's recognition across the run's samples (first one seen)."""
    items: dict[str, dict[str, Any]] = {}
    for score in scores:
        for item, found in (_metadata(score).get(RECALL_FIELD) or {}).items():
            items.setdefault(str(item), found)
    return items


def recognition_values(scores: Iterable[SampleScore]) -> dict[str, float]:
    """``recognized_rate`` over items without identity leak, and the counts behind it."""
    items = item_recognitions(scores)
    leaked = sum(1 for r in items.values() if r.get("identity_leak"))
    probed = [r["recognized"] for r in items.values() if r.get("recognized") is not None]
    recognized = sum(1 for r in probed if r)
    return {
        "recognized_rate": recognized / len(probed) if probed else NAN,
        "recognized_items": float(recognized) if items else NAN,
        "probed_items": float(len(probed)) if items else NAN,
        "leaked_items": float(leaked) if items else NAN,
    }


def unrecognized_items(scores: Iterable[SampleScore]) -> set[str] | None:
    """Items probed and not recognised (None when the probe did not run)."""
    items = item_recognitions(scores)
    if not items:
        return None
    return {item for item, r in items.items() if r.get("recognized") is False}


def unrecognized_scores(scores: Iterable[SampleScore]) -> list[SampleScore]:
    """The samples whose every item was probed and not recognised (a leak or a failed probe
    is not "unrecognised")."""
    kept = []
    for score in scores:
        recall = _metadata(score).get(RECALL_FIELD) or {}
        if recall and all(found.get("recognized") is False for found in recall.values()):
            kept.append(score)
    return kept


def unrecognized_values(
    scores: list[SampleScore],
    headline: str,
    statistic: SubsetStatistic,
    count_key: str = "unrecognized_samples",
) -> dict[str, float]:
    """The family's headline on samples showing only unrecognised items, and their count."""
    if unrecognized_items(scores) is None:
        return {f"{headline}_unrecognized": NAN, count_key: NAN}
    subset = unrecognized_scores(scores)
    values = subset_values(headline, "unrecognized", subset, statistic)
    return values | {count_key: float(len(subset))}
