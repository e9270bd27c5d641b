"""Label-blind-capable pairing: disjoint pairs of items close in date, each judged in both orders.

Within a group (one group when items have none), items sorted by date (equal dates in a seeded
order) are paired only with a neighbour in that order, never more than ``MAX_PAIR_GAP_DAYS``
apart and never with an equal label (a tie has no right answer). Among such pairings the one
chosen has (1) the most pairs, then (2) the most pairs within one calendar month, then (3) the
smallest total date gap (dynamic programming over the sorted line). Items left out are counted
with their reason. A caller that gives every item a distinct placeholder label gets a pairing
nothing about labels can enter (a round's pairs, made before any label exists).

Whether a decision on a pair was right is :func:`decision_correct`, the one statement of it:
a matched schedule's ``pairwise_accuracy``, a round's headline and the adjusted rounds
leaderboard (``research_taste.reporting.board_rows``) all read it.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# The widest date gap of a pair: two months, so a set with a paper every few weeks pairs
# nearly every paper while both papers of a pair have had about the same time to be cited.
MAX_PAIR_GAP_DAYS = 61


@dataclass(frozen=True)
class MatchItem:
    """A paper as the pairing sees it: id, publication date (None: unknown), label, field."""

    item_id: str
    pub_date: dt.date | None
    label: float
    field: str | None = None


@dataclass(frozen=True)
class MatchedPair:
    """Two papers judged in both orders; ``first`` is shown first in the pair's first sample."""

    pair_id: int
    first: str
    second: str
    gap_days: int
    same_month: bool


@dataclass
class Matching:
    """The pairs in date order and every paper left out with its reason."""

    pairs: list[MatchedPair] = field(default_factory=list)
    unpaired: dict[str, str] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """What the log's metadata records about the pairing."""
        reasons = sorted(set(self.unpaired.values()))
        return {
            "max_pair_gap_days": MAX_PAIR_GAP_DAYS,
            "pairs": len(self.pairs),
            "same_month_pairs": sum(pair.same_month for pair in self.pairs),
            "largest_gap_days": max((pair.gap_days for pair in self.pairs), default=None),
            "unpaired": len(self.unpaired),
            "unpaired_by_reason": {
                reason: sorted(k for k, v in self.unpaired.items() if v == reason)
                for reason in reasons
            },
        }


def parse_day(value: object) -> dt.date | None:
    """The ISO day at the start of ``value`` (``2025-07-10``, ``2025-07-10T...``), or None."""
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _month_of(item: MatchItem) -> tuple[int, int] | None:
    return None if item.pub_date is None else (item.pub_date.year, item.pub_date.month)


def _gap_days(a: MatchItem, b: MatchItem) -> int:
    assert a.pub_date is not None and b.pub_date is not None  # dateless papers are never paired
    return abs((b.pub_date - a.pub_date).days)


def _can_pair(a: MatchItem, b: MatchItem) -> bool:
    return a.label != b.label and _gap_days(a, b) <= MAX_PAIR_GAP_DAYS


def _pair_line(line: list[MatchItem]) -> list[tuple[MatchItem, MatchItem]]:
    """Best neighbour pairing of a date-sorted line (module docstring: pairs, same month, gap)."""
    # score[i]: (pairs, same-month pairs, -total gap) of the best pairing of line[i:];
    # pair_here[i]: whether that pairing pairs line[i] with line[i + 1].
    score = [(0, 0, 0)] * (len(line) + 2)
    pair_here = [False] * (len(line) + 1)
    for i in range(len(line) - 2, -1, -1):
        score[i] = score[i + 1]
        a, b = line[i], line[i + 1]
        if _can_pair(a, b):
            pairs, same, gap = score[i + 2]
            paired = (pairs + 1, same + (_month_of(a) == _month_of(b)), gap - _gap_days(a, b))
            if paired >= score[i]:  # of equals, pair
                score[i], pair_here[i] = paired, True
    chosen, i = [], 0
    while i < len(line) - 1:
        if pair_here[i]:
            chosen.append((line[i], line[i + 1]))
            i += 2
        else:
            i += 1
    return chosen


def _unpaired_reason(line: list[MatchItem], position: int) -> str:
    item = line[position]
    if len(line) == 1 and item.field:
        return "alone_in_area"
    neighbours = [line[j] for j in (position - 1, position + 1) if 0 <= j < len(line)]
    near = [n for n in neighbours if _gap_days(n, item) <= MAX_PAIR_GAP_DAYS]
    if not near:
        return "no_neighbour_within_cap"
    if all(n.label == item.label for n in near):
        return "tied_label"
    return "neighbours_paired_otherwise"


def match_papers(items: Sequence[MatchItem], seed: int) -> Matching:
    """Disjoint pairs of date neighbours (module docstring), deterministic given ``seed``.

    The seed orders papers of the same date and decides, per pair, which paper is shown first
    in its first sample (the second sample shows the other order).
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    tiebreak = dict(zip([item.item_id for item in items], rng.permutation(len(items)), strict=True))
    matching = Matching()
    groups: dict[str, list[MatchItem]] = {}
    for item in items:
        if item.pub_date is None:
            matching.unpaired[item.item_id] = "no_date"
        elif not math.isfinite(item.label):
            matching.unpaired[item.item_id] = "no_label"
        else:
            groups.setdefault(item.field or "", []).append(item)
    found: list[tuple[MatchItem, MatchItem]] = []
    for key in sorted(groups):
        line = sorted(groups[key], key=lambda item: (item.pub_date, tiebreak[item.item_id]))
        chosen = _pair_line(line)
        found.extend(chosen)
        paired = {item.item_id for pair in chosen for item in pair}
        for position, item in enumerate(line):
            if item.item_id not in paired:
                matching.unpaired[item.item_id] = _unpaired_reason(line, position)
    found.sort(key=lambda pair: (pair[0].pub_date, tiebreak[pair[0].item_id]))
    flips = rng.random(len(found)) < 0.5
    for pair_id, ((a, b), flip) in enumerate(zip(found, flips, strict=True)):
        first, second = (b, a) if flip else (a, b)
        same_month = _month_of(a) == _month_of(b)
        matching.pairs.append(
            MatchedPair(pair_id, first.item_id, second.item_id, _gap_days(a, b), same_month)
        )
    return matching


def _label_number(label: object) -> float:
    """A label as a float (NaN when missing or not a number)."""
    try:
        return float(label)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan


def decision_correct(first_won: object, first_label: object, second_label: object) -> float | None:
    """Whether a decision on a pair picked the item with the higher label.

    Args:
        first_won: The pick: 1 the pair's first item (as shown), 0 the second; anything else
            (NaN for an unread answer, a value averaged over Inspect epochs) is unclear.
        first_label: The first item's label (citation velocity, a round's resolved label).
        second_label: The second item's label.

    Returns:
        1.0 right, 0.0 wrong, NaN unclear; None when the pair has no right answer (a label
        missing or not a number, or the two labels equal: a tie).
    """
    first, second = _label_number(first_label), _label_number(second_label)
    if not (math.isfinite(first) and math.isfinite(second)) or first == second:
        return None
    if first_won not in (0, 1):
        return math.nan
    return float((first_won == 1) == (first > second))
