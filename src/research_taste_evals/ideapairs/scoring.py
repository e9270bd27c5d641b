"""Appendix A.1-A.2 of Mule et al.: from a leaderboard's rows to unified scores.

Per leaderboard, in order:

1. Entries without a publication year are dropped (``no_year``): they cannot be bucketed
   (A.3), so they take no part in the scores either.
2. Metric cleaning (A.1): only metric columns reported (parseable) for every remaining entry
   are used. If none is, the leaderboard is skipped and each entry is dropped as
   ``unparseable_value`` (it has a cell that is not a number) or ``missing_metric``.
3. Min-max normalisation of each column (eq. 6). A constant column has no min-max scaling and
   carries no ranking signal, so it is left out; with none left, entries drop as ``no_spread``.
4. Direction check: Pearson(normalised metric, leaderboard rank) > 0 means a higher value sits
   at a worse rank (e.g. perplexity), so the column is inverted, 1 - m (eq. 7).
5. Unified score: the mean of the adjusted columns (eq. 8).
6. Iterative discordance removal (A.2, Algorithm 1): while any pair of entries disagrees
   between rank and unified score and at least 2 entries remain, drop the entry in the most
   discordant pairs (``discordance``); ties go to the lower-placed entry.

Rank is the row position (1 = best), the convention A.1's direction check states. Equation 9
as printed calls a pair discordant when ``r_i < r_j and s_i > s_j``, which under that
convention is a pair that *agrees*; we implement the evident intent (rank and score disagree).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy import stats as scipy_stats

from research_taste_evals.ideapairs.leaderboards import Entry, Leaderboard, parse_cell

DropReason = Literal[
    "no_year",
    "missing_metric",
    "unparseable_value",
    "too_few_entries",
    "no_spread",
    "discordance",
    "small_bucket",
]
DROP_REASONS: tuple[DropReason, ...] = (
    "no_year",
    "missing_metric",
    "unparseable_value",
    "too_few_entries",
    "no_spread",
    "discordance",
    "small_bucket",
)
MIN_ENTRIES = 2


@dataclass(frozen=True)
class Drop:
    """An entry left out of the pairs, and why."""

    board_id: str
    board: str
    position: int
    method: str
    reason: DropReason
    detail: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "board_id": self.board_id,
            "board": self.board,
            "rank": self.position + 1,
            "method": self.method,
            "reason": self.reason,
            "detail": self.detail,
        }


@dataclass
class ScoredBoard:
    """A leaderboard after A.1-A.2: the surviving entries with their unified scores."""

    board: Leaderboard
    entries: list[Entry] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    inverted: list[str] = field(default_factory=list)
    left_out_columns: dict[str, str] = field(default_factory=dict)

    @property
    def sigma(self) -> float:
        """Population standard deviation of the unified scores of the entries that survived."""
        return float(np.std(self.scores)) if len(self.scores) >= MIN_ENTRIES else 0.0


def _drop(board: Leaderboard, entry: Entry, reason: DropReason, detail: str = "") -> Drop:
    return Drop(board.board_id, board.name, entry.position, entry.method, reason, detail)


def discordance_counts(ranks: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Per entry, the number of other entries it is discordant with (rank and score disagree).

    Rank 1 is best and a higher score is better, so a pair is discordant when the better-ranked
    entry has the strictly lower score. Ties in either are not discordant.
    """
    rank_order = np.sign(ranks[:, None] - ranks[None, :])
    score_order = np.sign(scores[:, None] - scores[None, :])
    return (rank_order * score_order > 0).sum(axis=1)


def remove_discordant(ranks: np.ndarray, scores: np.ndarray) -> list[int]:
    """Indices removed by Algorithm 1, in removal order."""
    alive = list(range(len(ranks)))
    removed: list[int] = []
    while len(alive) >= MIN_ENTRIES:
        counts = discordance_counts(ranks[alive], scores[alive])
        if counts.max() == 0:
            break
        worst = counts.max()
        # Ties: remove the lowest-placed (largest rank) of the most discordant entries.
        candidates = [alive[i] for i in np.flatnonzero(counts == worst)]
        victim = max(candidates, key=lambda index: ranks[index])
        alive.remove(victim)
        removed.append(victim)
    return removed


def direction_inverted(normalised: np.ndarray, ranks: np.ndarray) -> bool:
    """True when Pearson(normalised metric, rank) > 0: higher values sit at worse ranks."""
    if len(normalised) < MIN_ENTRIES:
        return False
    return bool(scipy_stats.pearsonr(normalised, ranks).statistic > 0)


def score_board(board: Leaderboard) -> tuple[ScoredBoard, list[Drop]]:
    """Run A.1-A.2 on one leaderboard; every entry read ends up scored or in the drops."""
    drops = [
        _drop(board, e, "no_year", "no year in paper_date, model name or paper URL")
        for e in board.entries
        if e.year is None
    ]
    entries = [e for e in board.entries if e.year is not None]
    result = ScoredBoard(board=board)
    if not entries:
        return result, drops
    columns = list(dict.fromkeys(c for e in entries for c in e.cells))
    parsed = {c: [parse_cell(e.cells.get(c)) for e in entries] for c in columns}
    universal = [c for c in columns if all(status == "ok" for status, _ in parsed[c])]
    if not universal:
        detail = "no metric column is reported for every entry of this leaderboard"
        for i, entry in enumerate(entries):
            bad = any(parsed[c][i][0] == "unparseable" for c in columns)
            reason: DropReason = "unparseable_value" if bad else "missing_metric"
            drops.append(_drop(board, entry, reason, detail))
        return result, drops
    if len(entries) < MIN_ENTRIES:
        drops.extend(
            _drop(board, e, "too_few_entries", "a leaderboard needs 2 entries") for e in entries
        )
        return result, drops
    ranks = np.arange(1, len(entries) + 1, dtype=float)
    adjusted = []
    for column in universal:
        values = np.array([value for _, value in parsed[column]], dtype=float)
        spread = values.max() - values.min()
        if spread == 0:
            result.left_out_columns[column] = "constant"
            continue
        normalised = (values - values.min()) / spread
        if direction_inverted(normalised, ranks):
            normalised = 1 - normalised
            result.inverted.append(column)
        result.columns.append(column)
        adjusted.append(normalised)
    for column in columns:
        if column not in universal:
            result.left_out_columns[column] = "not reported for every entry"
    if not adjusted:
        drops.extend(
            _drop(board, e, "no_spread", "every usable metric is constant") for e in entries
        )
        return result, drops
    unified = np.mean(adjusted, axis=0)
    removed = set(remove_discordant(ranks, unified))
    for index, entry in enumerate(entries):
        if index in removed:
            drops.append(_drop(board, entry, "discordance", "unified score disagrees with rank"))
        else:
            result.entries.append(entry)
            result.scores.append(float(unified[index]))
    return result, drops
