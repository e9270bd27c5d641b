"""Appendix A.3-A.4: year buckets merge, the split never shares an idea, sigma tiers."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from research_taste.builders.ideapairs.boards import Leaderboard
from research_taste.builders.ideapairs.pairing import plan_board, sigma_tier
from research_taste.builders.ideapairs.scoring import ScoredBoard, score_board
from research_taste.builders.ideapairs.splitting import (
    Bucket,
    Splitter,
    merge_small,
    paper_key,
    year_buckets,
)

MakeBoard = Callable[..., Leaderboard]


def test_two_entry_bucket_merges_with_its_neighbour() -> None:
    years = [2015, 2015, 2016, 2016, 2016, 2016, 2016]
    buckets = merge_small(year_buckets(years), lambda b: len(b.members) < 5)
    assert [b.label for b in buckets] == ["2015-2016"]
    assert buckets[0].members == tuple(range(7))


def test_last_small_bucket_merges_backwards_and_big_ones_stay() -> None:
    years = [2015] * 5 + [2016] * 5 + [2017] * 2
    buckets = merge_small(year_buckets(years), lambda b: len(b.members) < 5)
    assert [b.label for b in buckets] == ["2015", "2016-2017"]


def test_one_bucket_is_never_merged_away() -> None:
    only = [Bucket(2015, 2015, (0, 1))]
    assert merge_small(only, lambda b: True) == only


@pytest.mark.parametrize(
    ("delta", "tier"),
    [(1.0, 1), (0.8, 1), (1.2, 1), (1.5, None), (0.79, None), (2.0, 2), (3.2, 3), (3.3, None)],
)
def test_sigma_tier_windows(delta: float, tier: int | None) -> None:
    assert sigma_tier(delta) == tier


def _scored(board: Leaderboard) -> ScoredBoard:
    scored, drops = score_board(board)
    assert drops == []
    return scored


def test_pair_at_one_sigma_is_tier_one_and_at_one_and_a_half_is_none(
    board_from_rows: MakeBoard,
) -> None:
    # Scores 1, 0, 1.5, t with t = (5 - sqrt(136)) / 6 have population sigma exactly 1, so
    # |1 - 0| = 1.0 sigma and |1.5 - 0| = 1.5 sigma.
    t = (5 - math.sqrt(136)) / 6
    board = board_from_rows([(name, 2019, {"m": 1.0}) for name in ("b", "a", "c", "d")])
    scored = ScoredBoard(board=board, entries=list(board.entries), scores=[1.0, 0.0, 1.5, t])
    assert scored.sigma == pytest.approx(1.0)
    plan, _ = plan_board(scored, Splitter(seed=0, test_after=3000))  # all train: one group
    tiers = {(p.better, p.worse): p.tier for p in plan.pairs}
    assert tiers[(0, 1)] == 1  # Delta = 1.0
    assert (2, 1) not in tiers  # Delta = 1.5: in no tier
    assert (2, 0) not in tiers  # Delta = 0.5
    assert tiers[(1, 3)] == 1  # Delta = 1.11
    assert tiers[(0, 3)] == 2  # Delta = 2.11


def test_no_paper_is_in_both_train_and_test_across_leaderboards(board_from_rows: MakeBoard) -> None:
    splitter = Splitter(seed=3)
    assignments: dict[str, set[str]] = {}
    for board_index in range(6):
        # The same 8 methods (hence papers) reappear on every leaderboard, in another order.
        rows = [
            (f"method {(i + board_index) % 8}", 2015 + i % 4, {"m": float(100 - i)})
            for i in range(8)
        ]
        board = board_from_rows(rows, name="Task on Data")  # same URLs across boards
        scored = _scored(board)
        _, splits = splitter.split_board(scored)
        for entry, split in zip(scored.entries, splits, strict=True):
            assignments.setdefault(paper_key(entry), set()).add(split)
    assert all(len(splits) == 1 for splits in assignments.values())
    assert {"train", "test"} == set().union(*assignments.values())


def test_small_leaderboard_goes_to_train(board_from_rows: MakeBoard) -> None:
    board = board_from_rows([(f"m{i}", 2019, {"m": float(i)}) for i in range(3)], name="T on S")
    _, splits = Splitter(seed=0).split_board(_scored(board))
    assert splits == ["train", "train", "train"]


def test_time_split_puts_newer_papers_in_test(board_from_rows: MakeBoard) -> None:
    board = board_from_rows(
        [(f"m{i}", 2016 + i, {"m": float(10 - i)}) for i in range(6)], name="T on S"
    )
    _, splits = Splitter(seed=0, test_after=2019).split_board(_scored(board))
    assert splits == ["train"] * 4 + ["test"] * 2
