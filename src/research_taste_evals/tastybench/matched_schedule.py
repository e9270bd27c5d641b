"""``schedule=matched`` as samples: the pairing of the run's papers on its labels
(``matched.py``), each pair in both orders, and a dataset that says so when Inspect's
``--limit``/``--sample-id`` keeps one order of a pair (such a pair is left out of
``pairwise_accuracy`` and counted in ``matched_incomplete_pairs``)."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from typing import overload

from inspect_ai.dataset import Dataset, MemoryDataset, Sample

from research_taste_evals.tastybench.dataset import Paper
from research_taste_evals.tastybench.matched import (
    MAX_PAIR_GAP_DAYS,
    ORDERS_PER_PAIR,
    Matching,
    MatchItem,
    match_papers,
    parse_day,
)
from research_taste_evals.tastybench.velocity import VelocityMode

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
