"""The rank arithmetic of a board's score columns (Mule et al. 2026): which entries' scores
disagree with their rank (the discordance matrix, and the entries removed until none does), and
each column's correlation with the row position (which way the column runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import


MIN_ENTRIES = 2


def discordance_matrix(ranks: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``D[i, j]``: entries i and j are discordant (rank and score disagree, eq. 9's intent).

    Rank 1 is best and a higher score is better, so a pair is discordant when the better-ranked
    entry has the strictly lower score. Ties in either are not discordant.
    """
    import numpy as np

    rank_order = np.sign(ranks[:, None] - ranks[None, :]).astype(np.int8)
    score_order = np.sign(scores[:, None] - scores[None, :]).astype(np.int8)
    return rank_order * score_order > 0


def remove_discordant(ranks: np.ndarray, scores: np.ndarray) -> list[int]:
    """Indices removed by Algorithm 1, in removal order.

    The discordance matrix is built once and the per-entry counts are updated as entries go
    (subtract the victim's column), so the whole removal is O(n^2) rather than O(n^3).
    Ties for the most discordant entry: the lowest placed (largest rank, then last row) goes.
    """
    import numpy as np

    matrix = discordance_matrix(ranks, scores)
    counts = matrix.sum(axis=1).astype(np.int64)
    alive = np.ones(len(ranks), dtype=bool)
    removed: list[int] = []
    while alive.sum() >= MIN_ENTRIES:
        live_counts = np.where(alive, counts, -1)
        worst = live_counts.max()
        if worst <= 0:
            break
        candidates = np.flatnonzero(live_counts == worst)
        victim = int(candidates[np.lexsort((candidates, ranks[candidates]))[-1]])
        alive[victim] = False
        counts -= matrix[:, victim]
        removed.append(victim)
    return removed


def row_correlations(normalised: np.ndarray) -> np.ndarray:
    """Pearson r of each column (rows of ``normalised``) with the row position, vectorised.

    Positive: values rise down the table (a higher value sits at a worse row). NaN-free: a
    column of constant values never reaches here (it is left out before).
    """
    import numpy as np

    positions = np.arange(normalised.shape[1], dtype=float)
    centred = normalised - normalised.mean(axis=1, keepdims=True)
    position_centred = positions - positions.mean()
    spread = np.sqrt((centred**2).sum(axis=1) * (position_centred**2).sum())
    return np.divide(
        centred @ position_centred, spread, out=np.zeros(len(normalised)), where=spread > 0
    )
