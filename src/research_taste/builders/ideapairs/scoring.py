"""Appendix A.1-A.2 of Mule et al.: from a leaderboard's rows to unified scores.

Per leaderboard, in order:

0. Entries with neither a method name nor a paper (title or URL) are dropped
   (``no_method_or_paper``): nothing identifies them (``cleaning``).
1. Entries without a publication year are dropped (``no_year``): they cannot be bucketed
   (A.3), so they take no part in the scores either.
2. Metric cleaning (A.1): only metric columns reported (parseable) for every remaining entry
   are used. If none is, the leaderboard is skipped and each entry is dropped as
   ``unparseable_value`` (it has a cell that is not a number) or ``missing_metric``.
3. Min-max normalisation of each column (eq. 6). A constant column has no min-max scaling and
   carries no ranking signal, so it is left out; with none left, entries drop as ``no_spread``.
4. Direction (issue #18: direction from meaning, rank from values): a column whose name says
   which way is better (``polarity.py``: accuracy, F1, BLEU ... higher; error, WER,
   perplexity ... lower) is inverted, 1 - m (eq. 7), when lower is better. Only a column whose
   name says nothing falls back to A.1's check on the row order: Pearson(normalised metric,
   row position) > 0 -> inverted. A known column whose row order runs the other way is listed
   (``contradictions``): the table is sorted worst-first, e.g. NLP-progress WSD, SNLI.
5. Unified score: the mean of the adjusted columns (eq. 8).
6. Rank: from the values of the rank column (the first column with a known polarity, else the
   first column), 1 = best, ties share the best rank -- the way PapersWithCode ranks a board
   by its primary metric -- not from the row position.
7. Iterative discordance removal (A.2, Algorithm 1): while any pair of entries disagrees
   between rank and unified score and at least 2 entries remain, drop the entry in the most
   discordant pairs (``discordance``); ties go to the lower-placed entry. A one-metric board
   has no discordance; on several metrics it removes entries the others disagree on.

Equation 9 as printed calls a pair discordant when ``r_i < r_j and s_i > s_j``, which with
rank 1 = best is a pair that *agrees*; we implement the evident intent (rank and score
disagree).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from research_taste.builders.ideapairs.boards import Entry, Leaderboard, parse_cell
from research_taste.builders.ideapairs.discordance import (
    MIN_ENTRIES,
    remove_discordant,
    row_correlations,
)
from research_taste.builders.ideapairs.polarity import (
    anchored_polarity,
    described_polarity,
    is_resource,
    metric_polarity,
)

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

DropReason = Literal[
    "no_method_or_paper",
    "no_year",
    "missing_metric",
    "unparseable_value",
    "too_few_entries",
    "no_spread",
    "discordance",
    "duplicate_idea",
    "small_bucket",
]
DROP_REASONS: tuple[DropReason, ...] = get_args(DropReason)  # in report order


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
    # How each used column's direction was decided: "metric_name", "description" (a sentence
    # about the board's metric), "reference_rows" (baseline / human rows) or "row_order".
    direction_source: dict[str, str] = field(default_factory=dict)
    # Columns whose known polarity the table's row order contradicts (listed in the report).
    contradictions: list[dict[str, object]] = field(default_factory=list)
    rank_column: str = ""
    ranks: list[int] = field(default_factory=list)  # rank of each surviving entry (1 = best)
    # Per column whose name gives its polarity: the oriented (higher = better) normalised value
    # of each surviving entry; a pair these disagree on has no better idea by the metrics.
    oriented: dict[str, list[float]] = field(default_factory=dict)
    # Filled once by ``pairing.identify``: the idea id and paper key of each surviving entry.
    idea_ids: list[str] = field(default_factory=list)
    paper_keys: list[str] = field(default_factory=list)

    @property
    def sigma(self) -> float:
        """Population standard deviation of the unified scores of the entries that survived."""
        import numpy as np

        return float(np.std(self.scores)) if len(self.scores) >= MIN_ENTRIES else 0.0


def has_identity(entry: Entry) -> bool:
    """A method name or a paper (title or URL): something an idea text can be built from."""
    return bool(entry.method.strip() or entry.paper_title.strip() or entry.paper_url.strip())


def _drop(board: Leaderboard, entry: Entry, reason: DropReason, detail: str = "") -> Drop:
    return Drop(board.board_id, board.name, entry.position, entry.method, reason, detail)


def _direction(
    board: Leaderboard,
    entries: list[Entry],
    columns: list[str],
    normalised: np.ndarray,
    result: ScoredBoard,
) -> np.ndarray:
    """Orient every column so that higher is better; record how and any contradiction."""
    correlations = row_correlations(normalised)
    adjusted = normalised.copy()
    described = described_polarity(f"{board.description}")
    # Reference rows vote once per board, on the mean of the columns the names say nothing of
    # (one column where the baseline happens to do well must not flip that column alone).
    unnamed = [k for k, column in enumerate(columns) if metric_polarity(column) is None]
    anchored = (
        anchored_polarity([e.method for e in entries], list(normalised[unnamed].mean(axis=0)))
        if unnamed
        else None
    )
    for k, column in enumerate(columns):
        rises_down = bool(correlations[k] > 0)
        polarity, source = metric_polarity(column), "metric_name"
        if polarity is None:
            polarity, source = described, "description"
        if polarity is None:
            polarity, source = anchored, "reference_rows"
        if polarity is None:
            invert, result.direction_source[column] = rises_down, "row_order"
        else:
            invert, result.direction_source[column] = polarity == "lower", source
            if rises_down != (polarity == "lower") and correlations[k] != 0:
                result.contradictions.append(
                    {
                        "board_id": board.board_id,
                        "board": board.name,
                        "source": board.source,
                        "column": column,
                        "polarity": f"{polarity} is better",
                        "row_correlation": round(float(correlations[k]), 4),
                    }
                )
        if invert:
            adjusted[k] = 1 - normalised[k]
            result.inverted.append(column)
    return adjusted


def _rank_column(columns: list[str], result: ScoredBoard) -> int:
    """The column ranks come from: the first whose direction its name gives, else the first."""
    for k, column in enumerate(columns):
        if result.direction_source[column] != "row_order":
            return k
    return 0


def score_board(board: Leaderboard) -> tuple[ScoredBoard, list[Drop]]:
    """Run A.1-A.2 on one leaderboard; every entry read ends up scored or in the drops."""
    import numpy as np

    drops = [
        _drop(board, e, "no_method_or_paper", "no method name, paper title or paper URL")
        for e in board.entries
        if not has_identity(e)
    ]
    drops += [
        _drop(board, e, "no_year", "no year in paper_date, model name or paper URL")
        for e in board.entries
        if e.year is None and has_identity(e)
    ]
    entries = [e for e in board.entries if e.year is not None and has_identity(e)]
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
    for column in columns:
        if column not in universal:
            result.left_out_columns[column] = "not reported for every entry"
    values = np.array([[value for _, value in parsed[c]] for c in universal], dtype=float)
    spread = values.max(axis=1) - values.min(axis=1)
    for column in (c for c, s in zip(universal, spread, strict=True) if s == 0):
        result.left_out_columns[column] = "constant"
    for column in (c for c in universal if is_resource(c)):
        result.left_out_columns[column] = "model size or cost, not a result"
    spread[[is_resource(c) for c in universal]] = 0  # left out like a constant column
    used = [c for c, s in zip(universal, spread, strict=True) if s > 0]
    if not used:
        drops.extend(
            _drop(board, e, "no_spread", "no usable metric varies (constant, or size only)")
            for e in entries
        )
        return result, drops
    keep = spread > 0
    normalised = (values[keep] - values[keep].min(axis=1, keepdims=True)) / spread[keep, None]
    result.columns = used
    adjusted = _direction(board, entries, used, normalised, result)
    unified = adjusted.mean(axis=0)
    primary = _rank_column(used, result)
    result.rank_column = used[primary]
    # Rank from the values (1 = best; ties share the best rank), not from the row position.
    from scipy.stats import rankdata  # imported here: slow import (registry start-up)

    ranks = rankdata(-adjusted[primary], method="min").astype(float)
    removed = set(remove_discordant(ranks, unified))
    survivors = [i for i in range(len(entries)) if i not in removed]
    result.oriented = {
        column: [float(adjusted[k][i]) for i in survivors]
        for k, column in enumerate(used)
        if result.direction_source[column] != "row_order"
    }
    for index, entry in enumerate(entries):
        if index in removed:
            detail = f"unified score disagrees with the rank by {result.rank_column}"
            drops.append(_drop(board, entry, "discordance", detail))
        else:
            result.entries.append(entry)
            result.scores.append(float(unified[index]))
            result.ranks.append(int(ranks[index]))
    return result, drops
