"""The swap-consistent headline on hand-made scores: couples, incomplete pairs, variations."""

from __future__ import annotations

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.scijudge.metrics import (
    accuracy_statistic,
    details_figures,
    incomplete_pairs,
    pair_accuracies,
)


def _score(pair: str, variation: int, order: str, correct: float, couples: int = 1) -> SampleScore:
    return SampleScore(
        score=Score(
            value={"correct": correct, "unparsed": 0.0, "reasked": 0.0, "picked_a": 1.0},
            metadata={
                "pair_id": pair,
                "couple_id": f"{pair}#{variation}",
                "variation": variation,
                "couples": couples,
                "order": order,
                "category": "cs",
            },
        ),
        sample_id=f"{pair}-{variation}-{order}",
    )


SCORES = [
    # p: two couples; the first right in both orders, the second in one only -> 0.5
    _score("p", 0, "given", 1, 2), _score("p", 0, "swapped", 1, 2),
    _score("p", 1, "given", 1, 2), _score("p", 1, "swapped", 0, 2),
    # q: one couple, its epochs' means 0.5 and 1 (Inspect's mean reducer) -> 0.5
    _score("q", 0, "given", 0.5), _score("q", 0, "swapped", 1),
    # r: its swapped order is missing -> left out and counted
    _score("r", 0, "given", 1),
    # s: one of its two couples is missing -> left out and counted
    _score("s", 0, "given", 1, 2), _score("s", 0, "swapped", 1, 2),
]  # fmt: skip


def test_a_pair_is_its_share_of_couples_right_in_both_orders() -> None:
    assert pair_accuracies(SCORES) == {"p": 0.5, "q": 0.5}
    assert incomplete_pairs(SCORES) == 2.0
    head = accuracy_statistic(SCORES, resamples=200, seed=1)
    assert (head["accuracy"], head["n"]) == (0.5, 2.0)


def test_per_variation_and_per_order_figures() -> None:
    figures = details_figures(SCORES, {})
    # Variation 0: p (1), q (0.5), s (1); r is missing an order. Variation 1: p only (0).
    assert figures["accuracy_by_variation/0"] == pytest.approx(2.5 / 3)
    assert figures["accuracy_by_variation/1"] == 0.0
    assert figures["accuracy_order/given"] == pytest.approx(4.5 / 5)
    assert figures["accuracy_order/swapped"] == pytest.approx(3 / 4)
    assert figures["position_a_share"] == 1.0


def test_nothing_complete_is_nan_not_zero() -> None:
    head = accuracy_statistic([_score("r", 0, "given", 1)], resamples=10, seed=1)
    assert head["accuracy"] != head["accuracy"] and head["n"] == 0.0
