"""A round's sample of a large venue (``round open --max-items N``): seeded, label-blind,
stratified by the items' group (the primary area, where the venue has one).

It is drawn at open from the items the screening kept, before any PDF is fetched, from their ids
and groups alone (nothing a label could enter). Each group gets its proportional share of N,
rounded by largest remainder (Hamilton's method: the floors first, then one more to the groups
with the largest fractional parts, ties by group name); within a group the items are drawn by
``random.Random(seed).sample`` over the ids in order, group by group in name order. The sample
keeps the listing's order. ``round.json`` records it under ``sample``: the population, the
seed, N, the items drawn and each group's population and draw.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from research_taste.rounds import SAMPLE_SEED
from research_taste_evals.core.rounds import RoundItem


def _quotas(sizes: dict[str, int], total: int) -> dict[str, int]:
    """Each group's share of ``total``, proportional to its size, by largest remainder."""
    population = sum(sizes.values())
    exact = {group: total * size / population for group, size in sizes.items()}
    quotas = {group: math.floor(share) for group, share in exact.items()}
    left = total - sum(quotas.values())
    by_remainder = sorted(exact, key=lambda group: (-(exact[group] - quotas[group]), group))
    for group in by_remainder[:left]:
        quotas[group] += 1
    return quotas


def draw_sample(
    items: Sequence[RoundItem], max_items: int | None, seed: int = SAMPLE_SEED
) -> tuple[list[RoundItem], dict[str, Any]]:
    """The items drawn (all of them when ``max_items`` is None or not below their number) and
    the record ``round.json`` keeps of the draw."""
    groups: dict[str, list[str]] = {}
    for item in items:
        groups.setdefault(item.group, []).append(item.item_id)
    record: dict[str, Any] = {"population": len(items), "max_items": max_items, "seed": seed}
    if max_items is None or max_items >= len(items):
        return list(items), {**record, "drawn": len(items), "strata": None}
    quotas = _quotas({group: len(ids) for group, ids in groups.items()}, max_items)
    rng = random.Random(seed)
    chosen: set[str] = set()
    for group in sorted(groups):
        chosen.update(rng.sample(sorted(groups[group]), quotas[group]))
    drawn = [item for item in items if item.item_id in chosen]
    strata = {group: [len(groups[group]), quotas[group]] for group in sorted(groups)}
    return drawn, {**record, "drawn": len(drawn), "strata": strata}
