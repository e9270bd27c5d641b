"""The first two steps of an idea-pairs build: read the leaderboards (files, or a named source)
and plan the pairs (score each board, drop what cannot be compared, split by date, pair).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.builders.ideapairs.boards import Leaderboard
from research_taste.builders.ideapairs.build_inputs import (
    check_boards_found,
    check_leaderboard_paths,
)
from research_taste.builders.ideapairs.cleaning import read_once
from research_taste.builders.ideapairs.leaderboards import read_leaderboards
from research_taste.builders.ideapairs.pairing import PlannedPair, plan_board
from research_taste.builders.ideapairs.pwc_archive import (
    SOURCE_NAME,
    fetch_pwc_archive,
)
from research_taste.builders.ideapairs.scoring import Drop, ScoredBoard
from research_taste.builders.ideapairs.splitting import Splitter


@dataclass(frozen=True)
class BuildInputs:
    """The leaderboards read: their files, the boards, and what was skipped or read once."""

    paths: list[Path]
    nlp_only: bool
    boards: list[Leaderboard]
    skipped: list[dict[str, str]]
    read_once: list[dict[str, object]]


def read_inputs(leaderboards: Sequence[str | Path], source: str | None) -> BuildInputs:
    """Step 1: the leaderboard files (or the pinned archive), read once each."""
    paths = fetch_pwc_archive() if source == SOURCE_NAME else [Path(p) for p in leaderboards]
    check_leaderboard_paths(paths)
    nlp_only = source is not None
    skipped: list[dict[str, str]] = []
    boards = read_leaderboards(paths, nlp_only, skipped)
    check_boards_found(paths, boards)
    boards, read_once_report = read_once(boards)
    return BuildInputs(paths, nlp_only, boards, skipped, read_once_report)


@dataclass
class BuildPlan:
    """Step 2's result: every board scored, split and paired, with what it dropped."""

    scored: list[ScoredBoard] = field(default_factory=list)
    drops: list[Drop] = field(default_factory=list)
    pairs: list[PlannedPair] = field(default_factory=list)
    board_reports: list[dict[str, Any]] = field(default_factory=list)
    disagree: int = 0


def plan_pairs(
    scored_boards: list[tuple[Leaderboard, ScoredBoard, list[Drop]]], splitter: Splitter
) -> BuildPlan:
    """Step 2: split and pair each scored board (appendix A.3-A.4), in reading order."""
    planned = BuildPlan()
    for board, result, board_drops in scored_boards:
        plan, small = plan_board(result, splitter)
        planned.scored.append(result)
        planned.drops += board_drops + small
        planned.pairs += plan.pairs
        planned.disagree += plan.metrics_disagree
        planned.board_reports.append(
            {
                "board_id": board.board_id,
                "board": board.name,
                "source": board.source,
                "read": len(board.entries),
                "kept": len(board.entries) - len(board_drops) - len(small),
                "columns_used": result.columns,
                "inverted": result.inverted,
                "direction_source": result.direction_source,
                "rank_column": result.rank_column,
                "row_order_contradicts_polarity": [c["column"] for c in result.contradictions],
                "left_out_columns": result.left_out_columns,
                "sigma": result.sigma,
                "buckets": [b.label for b in plan.buckets],
                "pairs": len(plan.pairs),
            }
        )
    return planned
