"""Appendix A.1-A.2 on hand-made leaderboards: cleaning, direction, unified score, discordance."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from research_taste_evals.ideapairs.leaderboards import Leaderboard
from research_taste_evals.ideapairs.scoring import (
    discordance_counts,
    remove_discordant,
    score_board,
)

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
    # "d" is ranked 2nd but scores below three entries ranked after it on the averaged score.
    board = board_from_rows(
        [
            ("a", 2019, {"m1": 100.0, "m2": 100.0}),
            ("d", 2019, {"m1": 10.0, "m2": 20.0}),
            ("b", 2018, {"m1": 80.0, "m2": 85.0}),
            ("c", 2018, {"m1": 70.0, "m2": 60.0}),
            ("e", 2017, {"m1": 50.0, "m2": 40.0}),
        ]
    )
    scored, drops = score_board(board)
    assert [d.method for d in drops] == ["d"]
    assert drops[0].reason == "discordance"
    assert [e.method for e in scored.entries] == ["a", "b", "c", "e"]


def test_discordance_counts_and_tie_break() -> None:
    ranks = np.array([1.0, 2.0, 3.0])
    assert list(discordance_counts(ranks, np.array([0.9, 0.5, 0.1]))) == [0, 0, 0]
    # 2 and 3 swapped: both in one discordant pair; the lower-placed (rank 3) goes.
    assert remove_discordant(ranks, np.array([0.9, 0.1, 0.5])) == [2]
    # Ties are not discordant.
    assert list(discordance_counts(ranks, np.array([0.5, 0.5, 0.1]))) == [0, 0, 0]


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
