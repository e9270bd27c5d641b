"""Appendix A.4 of Mule et al.: sigma-tier pairs within a leaderboard, bucket and split.

Every unordered pair of entries in the same leaderboard, time bucket and split gets
Delta = |s_i - s_j| / sigma, sigma being the standard deviation of the unified scores of all
the leaderboard's entries (section 4: "across all entries in that benchmark"; we take the
population deviation over the entries that survived discordance removal). A pair is kept when
Delta falls in a tier window (inclusive): 1-sigma [0.8, 1.2] (hard), 2-sigma [1.8, 2.2],
3-sigma [2.8, 3.2] (easy); Delta = 1.5 is in no tier. Deltas are rounded to 9 decimals before
the comparison so that floating-point noise cannot move a pair across a window edge.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from research_taste.builders.ideapairs.boards import Entry
from research_taste.builders.ideapairs.cleaning import keep_best_row
from research_taste.builders.ideapairs.scoring import Drop, ScoredBoard
from research_taste.builders.ideapairs.splitting import Bucket, Split, Splitter, paper_key
from research_taste_evals.core.text import content_id

TIER_WINDOWS: dict[int, tuple[float, float]] = {1: (0.8, 1.2), 2: (1.8, 2.2), 3: (2.8, 3.2)}
DELTA_DECIMALS = 9
_CITATION = re.compile(r"\s*\((?:[^()]*,\s*)?(?:19|20)\d\d[a-z]?\)\s*$")


def sigma_tier(delta: float) -> int | None:
    """The tier whose window holds ``delta`` (in units of sigma), or None."""
    rounded = round(delta, DELTA_DECIMALS)
    for tier, (low, high) in TIER_WINDOWS.items():
        if low <= rounded <= high:
            return tier
    return None


def clean_method(method: str) -> str:
    """The method name without its trailing "(Author et al., YEAR)" citation."""
    return _CITATION.sub("", method).strip() or method.strip()


def idea_id(entry: Entry) -> str:
    """One id per (paper, method): the same idea on two leaderboards keeps its id."""
    return content_id(paper_key(entry), clean_method(entry.method).lower())


def identify(board: ScoredBoard) -> None:
    """Compute each surviving entry's paper key and idea id once (issue #24: not per pair)."""
    if len(board.idea_ids) != len(board.entries):
        board.paper_keys = [paper_key(entry) for entry in board.entries]
        board.idea_ids = [
            content_id(key, clean_method(entry.method).lower())
            for key, entry in zip(board.paper_keys, board.entries, strict=True)
        ]


@dataclass(frozen=True)
class PlannedPair:
    """An unordered pair, better idea first, before texts are attached."""

    board: ScoredBoard
    better: int
    worse: int
    delta: float
    tier: int
    split: Split
    bucket: str

    @property
    def pair_id(self) -> str:
        """Stable id: leaderboard, both entries' rows and ideas (rows tell duplicates apart)."""
        ends = sorted(
            (self.board.entries[i].position, self.board.idea_ids[i])
            for i in (self.better, self.worse)
        )
        return content_id(self.board.board.board_id, *ends)


@dataclass
class BoardPlan:
    """What happened to one scored leaderboard in A.3-A.4."""

    buckets: list[Bucket]
    splits: list[Split]
    pairs: list[PlannedPair]
    # Tier pairs left out because a metric whose name gives its polarity ranks them the other
    # way from the unified score (several metrics that disagree: no better idea by meaning).
    metrics_disagree: int = 0


def plan_board(board: ScoredBoard, splitter: Splitter) -> tuple[BoardPlan, list[Drop]]:
    """Buckets, splits and tier pairs of one leaderboard; its ``duplicate_idea`` and
    ``small_bucket`` drops."""
    if not board.entries:
        return BoardPlan([], [], []), []
    identify(board)
    drops: list[Drop] = keep_best_row(board)  # one unified score per idea on a board
    buckets, splits = splitter.split_board(board)
    sigma = board.sigma
    pairs: list[PlannedPair] = []
    disagree = 0
    for bucket in buckets:
        for split in ("train", "test"):
            members = [i for i in bucket.members if splits[i] == split]
            if len(members) == 1:
                entry = board.entries[members[0]]
                detail = f"the only {split} idea in bucket {bucket.label}: nothing to pair with"
                drops.append(
                    Drop(
                        board.board.board_id,
                        board.board.name,
                        entry.position,
                        entry.method,
                        "small_bucket",
                        detail,
                    )
                )
            if sigma == 0:
                continue
            for i, j in itertools.combinations(members, 2):
                same_idea = board.idea_ids[i] == board.idea_ids[j]
                # Equal scores have no better idea; one idea listed twice (same method name and
                # paper, e.g. two settings) would be shown as two identical texts.
                if board.scores[i] == board.scores[j] or same_idea:
                    continue
                delta = abs(board.scores[i] - board.scores[j]) / sigma
                tier = sigma_tier(delta)
                if tier is None:
                    continue
                better, worse = (i, j) if board.scores[i] > board.scores[j] else (j, i)
                if any(v[better] < v[worse] for v in board.oriented.values()):
                    disagree += 1
                    continue
                pairs.append(PlannedPair(board, better, worse, delta, tier, split, bucket.label))
    return BoardPlan(buckets, splits, pairs, disagree), drops
