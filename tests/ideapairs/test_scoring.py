"""Appendix A.1-A.2 on hand-made leaderboards: cleaning, direction, unified score, discordance."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from research_taste.builders.ideapairs.boards import Leaderboard
from research_taste.builders.ideapairs.discordance import discordance_matrix, remove_discordant
from research_taste.builders.ideapairs.scoring import score_board

MakeBoard = Callable[..., Leaderboard]


def test_lower_is_better_metric_is_inverted(board_from_rows: MakeBoard) -> None:
    # Perplexity: the best-ranked row has the lowest value.
    board = board_from_rows(
        [("a", 2019, {"ppl": 10.0}), ("b", 2018, {"ppl": 20.0}), ("c", 2017, {"ppl": 40.0})]
    )
    scored, drops = score_board(board)
    assert drops == []
    assert scored.inverted == ["ppl"]
    # min-max: (10, 20, 40) -> (0, 1/3, 1); inverted -> (1, 2/3, 0).
    assert scored.scores == pytest.approx([1.0, 2 / 3, 0.0])


def test_higher_is_better_metric_is_kept_and_columns_are_averaged(
    board_from_rows: MakeBoard,
) -> None:
    board = board_from_rows(
        [
            ("a", 2019, {"acc": 90.0, "err": 1.0}),
            ("b", 2018, {"acc": 80.0, "err": 3.0}),
            ("c", 2017, {"acc": 70.0, "err": 5.0}),
        ]
    )
    scored, _ = score_board(board)
    assert scored.inverted == ["err"]
    assert scored.columns == ["acc", "err"]
    assert scored.scores == pytest.approx([1.0, 0.5, 0.0])


def test_discordant_entry_is_removed(board_from_rows: MakeBoard) -> None:
    # Ranked by accuracy (values, not rows): "d" is 2nd on accuracy but its F1 is so low that
    # its unified score sits below b's and c's, both ranked after it -> 2 discordant pairs.
    board = board_from_rows(
        [
            ("a", 2019, {"acc": 100.0, "F1": 100.0}),
            ("d", 2019, {"acc": 90.0, "F1": 0.0}),
            ("b", 2018, {"acc": 80.0, "F1": 85.0}),
            ("c", 2018, {"acc": 70.0, "F1": 60.0}),
            ("e", 2017, {"acc": 50.0, "F1": 40.0}),
        ]
    )
    scored, drops = score_board(board)
    assert scored.rank_column == "acc"
    assert [d.method for d in drops] == ["d"]
    assert drops[0].reason == "discordance"
    assert [e.method for e in scored.entries] == ["a", "b", "c", "e"]


def test_rank_comes_from_values_not_rows(board_from_rows: MakeBoard) -> None:
    # A row placed out of order is ranked by its value, not dropped.
    board = board_from_rows(
        [("a", 2019, {"m": 90.0}), ("d", 2019, {"m": 10.0}), ("b", 2018, {"m": 80.0})]
    )
    scored, drops = score_board(board)
    assert drops == []
    assert scored.ranks == [1, 3, 2]


def test_discordance_counts_and_tie_break() -> None:
    ranks = np.array([1.0, 2.0, 3.0])
    assert list(_discordance_counts(ranks, np.array([0.9, 0.5, 0.1]))) == [0, 0, 0]
    # 2 and 3 swapped: both in one discordant pair; the lower-placed (rank 3) goes.
    assert remove_discordant(ranks, np.array([0.9, 0.1, 0.5])) == [2]
    # Ties are not discordant.
    assert list(_discordance_counts(ranks, np.array([0.5, 0.5, 0.1]))) == [0, 0, 0]


def test_metric_not_reported_for_every_entry_is_left_out(board_from_rows: MakeBoard) -> None:
    board = board_from_rows(
        [("a", 2019, {"dev": "86.6", "test": "86.3"}), ("b", 2018, {"dev": "81.6", "test": "-"})]
    )
    scored, drops = score_board(board)
    assert drops == []
    assert scored.columns == ["dev"]
    assert scored.left_out_columns == {"test": "not reported for every entry"}


def test_board_without_a_universal_metric_drops_every_entry_with_its_reason(
    board_from_rows: MakeBoard,
) -> None:
    board = board_from_rows(
        [
            ("a", 2019, {"x": "90.1/85.3", "y": 3.0}),
            ("b", 2018, {"x": 80.0}),
            ("c", None, {"x": 70.0, "y": 1.0}),
        ]
    )
    scored, drops = score_board(board)
    assert scored.entries == []
    assert {(d.method, d.reason) for d in drops} == {
        ("c", "no_year"),
        ("a", "unparseable_value"),
        ("b", "missing_metric"),
    }


def _discordance_counts(ranks: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Per entry, the number of other entries it is discordant with."""
    return discordance_matrix(ranks, scores).sum(axis=1)


def _naive_removal(ranks: np.ndarray, scores: np.ndarray) -> list[int]:
    """Algorithm 1 recomputing every count after each removal (the O(n^3) reading)."""
    alive, removed = list(range(len(ranks))), []
    while len(alive) >= 2:
        counts = _discordance_counts(ranks[alive], scores[alive])
        if counts.max() == 0:
            break
        candidates = [alive[i] for i in np.flatnonzero(counts == counts.max())]
        victim = max(candidates, key=lambda i: (ranks[i], i))
        alive.remove(victim)
        removed.append(victim)
    return removed


def test_incremental_removal_equals_recomputing_every_count() -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        n = int(rng.integers(2, 40))
        ranks = rng.integers(1, n + 1, size=n).astype(float)
        scores = np.round(rng.random(n), 1)
        assert remove_discordant(ranks, scores) == _naive_removal(ranks, scores)
