"""Which pairs of papers a judge compares: upstream's adjacent schedule (neighbours in a shuffled
order, round after round), every pair, or random pairs; each seeded, so a run can be repeated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass  # imported where used: ~60 ms off the registry import


Comparison = tuple[str, str]


def _check_ids(paper_ids: Sequence[str]) -> list[str]:
    ids = list(paper_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("paper ids must be unique")
    return ids


def adjacent_schedule(paper_ids: Sequence[str], rounds: int, seed: int) -> list[Comparison]:
    """Upstream's schedule: each round a seeded shuffle, neighbours i and i+1 compared.

    N - 1 ordered pairs (first_shown, second_shown) per round, in presentation order; the
    shuffled position decides which paper is shown first. Upstream shuffled unseeded.
    """
    import numpy as np

    ids = _check_ids(paper_ids)
    if rounds < 0:
        raise ValueError(f"rounds must be >= 0 (got {rounds})")
    rng = np.random.default_rng(seed)
    pairs: list[Comparison] = []
    for _ in range(rounds):
        order = [ids[i] for i in rng.permutation(len(ids))]
        pairs.extend(zip(order[:-1], order[1:], strict=True))
    return pairs


def all_pairs_schedule(paper_ids: Sequence[str], seed: int | None = None) -> list[Comparison]:
    """Every unordered pair in both presentation orders: N (N - 1) ordered pairs.

    Without a seed the order is fixed: for i < j, (i, j) immediately followed by (j, i). With a
    seed the whole list is shuffled (useful for sequential Elo, which depends on order).
    """
    import numpy as np

    ids = _check_ids(paper_ids)
    pairs: list[Comparison] = []
    for i, first in enumerate(ids):
        for second in ids[i + 1 :]:
            pairs.extend([(first, second), (second, first)])
    if seed is not None:
        rng = np.random.default_rng(seed)
        pairs = [pairs[i] for i in rng.permutation(len(pairs))]
    return pairs


def random_pairs_schedule(paper_ids: Sequence[str], count: int, seed: int) -> list[Comparison]:
    """``count`` ordered pairs of two distinct papers drawn uniformly at random (seeded)."""
    import numpy as np

    ids = _check_ids(paper_ids)
    if len(ids) < 2 or count < 0:
        raise ValueError(f"need >= 2 papers and count >= 0 (got {len(ids)}, {count})")
    rng = np.random.default_rng(seed)
    pairs: list[Comparison] = []
    for _ in range(count):
        first, second = rng.choice(len(ids), size=2, replace=False)
        pairs.append((ids[first], ids[second]))
    return pairs
