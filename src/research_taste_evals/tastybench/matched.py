"""``schedule=matched``: disjoint pairs of papers close in publication date, each judged in both
orders, and their headline ``pairwise_accuracy``.

Why: Bradley-Terry rho over a few dozen papers keeps a wide interval however many comparisons
are bought (the comparisons share papers); a matched pair is one independent sample, so the
interval of pairwise accuracy over n pairs narrows as 1/sqrt(n) (``bench/matched_ci.py``).
Comparing papers of the same field and month follows SciJudgeBench ("AI Can Learn Scientific
Taste", 2026: field- and time-matched arXiv pairs); a pair's papers have had about the same time
to be cited, so its label is about the ideas, not the era.

Pairing (:func:`match_papers`): within a field (one group when the set has none), papers sorted
by publication date (equal dates in a seeded order) are paired only with a neighbour in that
order, never more than ``MAX_PAIR_GAP_DAYS`` apart and never with an equal label (a tie has no
right answer, so it costs no judge call). Among such pairings the one chosen has (1) the most
pairs, then (2) the most pairs within one calendar month, then (3) the smallest total date gap
(dynamic programming over the sorted line). Papers left out are counted with their reason.

Scoring (:func:`pairwise_accuracy_summary`): only pairs judged in both orders count (a run cut
by Inspect's ``--limit`` or ``--sample-id`` may keep one order of a pair: such a pair is left
out and counted in ``matched_incomplete_pairs``). A decision (one order of one pair) is right when
the pick has the higher label; an unclear answer is a wrong decision (it stays in the
denominator and is counted in ``matched_unclear``). ``pairwise_accuracy`` is the share of
decisions that are right, which is the mean over pairs of the share of its two orders that are
right, so a judge that only follows position scores exactly 0.5. Its 95% CI is a seeded
percentile bootstrap over pairs (the independent unit). ``pairwise_accuracy_consistent`` is the
share of pairs all of whose decisions are right (both orders; position-only judges score 0).

As samples: the pairing of the run's papers on their labels, each pair in both orders, and a
dataset that says so when Inspect's ``--limit``/``--sample-id`` keeps one order of a pair (such
a pair is left out of ``pairwise_accuracy`` and counted in ``matched_incomplete_pairs``).
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, overload

from inspect_ai.dataset import Dataset, MemoryDataset, Sample
from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.metrics import nan_on_error
from research_taste_evals.core.pairing import (
    MAX_PAIR_GAP_DAYS,
    Matching,
    MatchItem,
    match_papers,
    parse_day,
)
from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    NAN,
    bootstrap_ci,
)
from research_taste_evals.tastybench.dataset import Paper, VelocityMode

PAIRWISE_KEYS = [
    "pairwise_accuracy",
    "pairwise_accuracy_ci_low",
    "pairwise_accuracy_ci_high",
    "pairwise_accuracy_consistent",
    "matched_pairs",
    "matched_unclear",
    "matched_incomplete_pairs",
]
# Each pair is judged once in each order; a pair with fewer decisions (``--limit``) is left out.
ORDERS_PER_PAIR = 2


def _decision(metadata: dict[str, Any], value: object) -> tuple[float, bool] | None:
    """(1.0 right / 0.0 wrong, unclear?) of one sample; None when its pair has no right answer."""
    try:
        first, second = float(metadata["velocity_1"]), float(metadata["velocity_2"])
    except (KeyError, TypeError, ValueError):
        return None
    if not (math.isfinite(first) and math.isfinite(second)) or first == second:
        return None
    first_won = value.get("first_won") if isinstance(value, dict) else None
    if first_won not in (0, 1):  # unclear, or averaged over Inspect epochs
        return 0.0, True
    return float((first_won == 1) == (first > second)), False


def pairwise_accuracy_summary(
    scores: list[SampleScore],
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> dict[str, float]:
    """Every figure of ``PAIRWISE_KEYS`` from the matched samples among ``scores``.

    Samples without a ``pair_id`` (other schedules) are ignored: ``matched_pairs`` 0 and NaN
    elsewhere. A pair with one order judged is left out and counted
    (``matched_incomplete_pairs``). Any subset of a run's samples works (the recall twins pass
    one).
    """
    by_pair: dict[Any, list[tuple[float, bool]]] = {}
    for sample_score in scores:
        metadata = sample_score.sample_metadata or {}
        if metadata.get("pair_id") is None:
            continue
        decision = _decision(metadata, sample_score.score.value)
        if decision is not None:
            by_pair.setdefault(metadata["pair_id"], []).append(decision)
    result: dict[str, float] = dict.fromkeys(PAIRWISE_KEYS, NAN)
    result["matched_incomplete_pairs"] = float(
        sum(len(pair) < ORDERS_PER_PAIR for pair in by_pair.values())
    )
    by_pair = {key: pair for key, pair in by_pair.items() if len(pair) >= ORDERS_PER_PAIR}
    result["matched_pairs"] = float(len(by_pair))
    result["matched_unclear"] = float(sum(u for pair in by_pair.values() for _, u in pair))
    if not by_pair:
        return result
    units = [(sum(right for right, _ in pair), len(pair)) for pair in by_pair.values()]

    def accuracy(sample: Sequence[object]) -> float:
        pairs: Sequence[tuple[float, int]] = sample  # type: ignore[assignment]
        return sum(right for right, _ in pairs) / sum(n for _, n in pairs)

    low, high = bootstrap_ci(units, accuracy, resamples=resamples, seed=seed)
    result["pairwise_accuracy"] = accuracy(units)
    result["pairwise_accuracy_ci_low"], result["pairwise_accuracy_ci_high"] = low, high
    result["pairwise_accuracy_consistent"] = sum(right == n for right, n in units) / len(units)
    return result


@metric
def tastybench_pairwise(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """``pairwise_accuracy`` of a ``schedule=matched`` run with its CI and counts."""

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "tastybench metric pairwise",
            PAIRWISE_KEYS,
            lambda: pairwise_accuracy_summary(scores, resamples, seed),
        )

    return compute


logger = logging.getLogger(__name__)


def matching(papers: Sequence[Paper], velocity: VelocityMode, seed: int) -> Matching:
    """The ``schedule=matched`` pairing of ``papers`` on the run's labels (``matched.py``).

    A paper's ``field`` (an OpenReview set's primary area) groups it; without one, one group.
    """
    items = [
        MatchItem(p.paper_id, parse_day(p.pub_date), p.velocity(velocity), p.field) for p in papers
    ]
    return match_papers(items, seed)


def no_pairs_reason(count: int, matched: Matching) -> str:
    """Why no pair was made, in one sentence (the reasons of the papers left out)."""
    reasons = Counter(matched.unpaired.values())
    if set(reasons) == {"alone_in_area"}:
        return (
            f"schedule=matched: no two of the {count} papers share a primary area, and pairs are "
            "made within an area only, so there is no pair to judge (use schedule=all_pairs or "
            "adjacent for this set)"
        )
    by_reason = ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items()))
    return (
        f"schedule=matched: no two of the {count} papers have different velocities and "
        f"publication dates at most {MAX_PAIR_GAP_DAYS} days apart (papers by reason: "
        f"{by_reason})"
    )


def _halved_pairs(samples: Sequence[Sample]) -> int:
    orders = Counter(
        (sample.metadata or {}).get("pair_id")
        for sample in samples
        if (sample.metadata or {}).get("pair_id") is not None
    )
    return sum(n < ORDERS_PER_PAIR for n in orders.values())


class MatchedDataset(MemoryDataset):
    """A matched run's samples, each pair in two consecutive samples; a slice or filter that
    keeps one order of a pair says so once (Inspect may cut the dataset more than once)."""

    _said = False

    def _warn_halved(self, part: MemoryDataset) -> None:
        halved = _halved_pairs(part.samples)
        if halved and len(part) < len(self) and not self._said:
            self._said = True
            logger.warning(
                "schedule=matched: the samples kept (--limit or --sample-id) hold %d pairs in one "
                "order only; they are left out of pairwise_accuracy and counted in "
                "matched_incomplete_pairs",
                halved,
            )

    @overload
    def __getitem__(self, index: int) -> Sample: ...

    @overload
    def __getitem__(self, index: slice) -> Dataset: ...

    def __getitem__(self, index: int | slice) -> Sample | Dataset:
        part = super().__getitem__(index)
        if isinstance(part, MemoryDataset):
            self._warn_halved(part)
        return part

    def filter(self, predicate: Callable[[Sample], bool], name: str | None = None) -> MemoryDataset:
        part = super().filter(predicate, name)
        self._warn_halved(part)
        return part
