"""A publication's leaderboard CSVs in ForecastBench's shape (docs/rounds.md, "Publishing a
round"): per pairwise round task, one row per model with its rank (ties share it), the
difficulty-adjusted accuracy and its 95% CI, the pairs it is fitted on, the p-value against the
floor and the share of bootstrap replicates in which it is first.

The figures are the report's own cross-round board (``reporting/round_board.py``, over the
scored logs of the published rounds: ``reporting/rounds.round_rows``); what is added here is
only what ForecastBench's leaderboard shows beside them:

- **rank**: ranked models by adjusted accuracy, best first; models equal at the precision the
  board shows (:data:`RANK_DIGITS` decimals, as ForecastBench's leaderboard shows three) share
  the lower rank (1, 1, 3: "min" ranking); an unranked model has none.
- **p_value_vs_floor**: the one-sided bootstrap p-value of "no better than the floor"
  (:data:`FLOOR`): the share of the board's seeded bootstrap replicates in which the model's
  adjusted accuracy is not above the floor's; empty for the floor itself, or when the floor is
  not ranked.
- **share_at_first**: ForecastBench's "Pct times No. 1", the share of replicates in which the
  model is first (``round_board.Board.top_share``).
"""

from __future__ import annotations

import math
from typing import Any

from research_taste.reporting.round_board import Board

FLOOR = "baseline/tastybench-longer"
RANK_DIGITS = 3
LEADERBOARD_COLUMNS = [
    "rank",
    "model",
    "adjusted_accuracy",
    "adjusted_ci_low",
    "adjusted_ci_high",
    "n_pairs",
    "rounds_used",
    "p_value_vs_floor",
    "share_at_first",
    "raw_pooled_accuracy",
    "raw_ci_low",
    "raw_ci_high",
    "coverage",
    "ranked",
    "reason",
]


def tie_ranks(scores: dict[str, float], digits: int = RANK_DIGITS) -> dict[str, int]:
    """Each model's rank by score, best first; scores equal at ``digits`` decimals share the
    lower rank (1, 1, 3)."""
    rounded = {model: round(score, digits) for model, score in scores.items()}
    return {
        model: 1 + sum(other > value for other in rounded.values())
        for model, value in rounded.items()
    }


def _cell(value: float) -> float | str:
    return value if math.isfinite(value) else ""


def leaderboard_rows(board: Board, floor: str = FLOOR) -> list[dict[str, Any]]:
    """The board's models as leaderboard rows (module docstring), ranked ones first."""
    ranked = {line.model: line.adjusted[0] for line in board.models if line.ranked}
    ranks = tie_ranks(ranked)
    rows = []
    for line in board.models:
        p_value = math.nan
        if line.ranked and floor in ranked and line.model != floor:
            p_value = 1.0 - board.beats[(line.model, floor)]
        rows.append(
            {
                "rank": ranks.get(line.model, ""),
                "model": line.model,
                "adjusted_accuracy": _cell(line.adjusted[0]),
                "adjusted_ci_low": _cell(line.adjusted[1]),
                "adjusted_ci_high": _cell(line.adjusted[2]),
                "n_pairs": line.pairs,
                "rounds_used": line.rounds_used,
                "p_value_vs_floor": _cell(p_value),
                "share_at_first": _cell(board.top_share.get(line.model, math.nan)),
                "raw_pooled_accuracy": _cell(line.raw[0]),
                "raw_ci_low": _cell(line.raw[1]),
                "raw_ci_high": _cell(line.raw[2]),
                "coverage": _cell(line.coverage),
                "ranked": line.ranked,
                "reason": line.reason,
            }
        )
    return sorted(rows, key=lambda row: (row["rank"] == "", row["rank"] or 0))


def published_boards(log_dir: str, round_ids: set[str], min_pairs: int) -> dict[str, Board]:
    """The cross-round board of each pairwise round task over the published rounds' scored
    logs under ``log_dir`` (the report's: ``reporting/round_tables.round_boards``)."""
    from research_taste.reporting.board_rows import round_key
    from research_taste.reporting.round_tables import round_boards
    from research_taste.reporting.rounds import round_rows

    rows = [row for row in round_rows(log_dir) if round_key(row.info) in round_ids]
    return round_boards(rows, min_pairs)
