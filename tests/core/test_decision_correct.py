"""Whether a pairwise decision is right is one function (``core.pairing.decision_correct``),
read by TastyBench's matched schedule, a round's headline and the adjusted rounds board."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste.reporting.board_rows import decisions
from research_taste_evals.core.pairing import decision_correct
from research_taste_evals.tastybench.ratings import pairwise_accuracy_summary

SRC = Path(__file__).resolve().parents[2] / "src"
NAN = math.nan


@pytest.mark.parametrize(
    ("first_won", "first", "second", "expected"),
    [
        (1.0, 5.0, 2.0, 1.0),  # picked the first, which has the higher label
        (0.0, 5.0, 2.0, 0.0),
        (0, 2, 5, 1.0),  # the second is higher, and was picked
        (1, "2", "5", 0.0),  # labels as text (a CSV) read as numbers
        (NAN, 5.0, 2.0, NAN),  # unclear
        (0.5, 5.0, 2.0, NAN),  # averaged over epochs: unclear
        (1.0, 3.0, 3.0, None),  # a tie has no right answer
        (1.0, NAN, 2.0, None),  # a label pending
        (1.0, None, 2.0, None),
        (1.0, "n/a", 2.0, None),
    ],
)
def test_hand_worked_decisions(
    first_won: object, first: object, second: object, expected: float | None
) -> None:
    found = decision_correct(first_won, first, second)
    if expected is None or found is None:
        assert found is expected
    elif math.isnan(expected):
        assert math.isnan(found)
    else:
        assert found == expected


def _score(first_won: float, label_1: float, label_2: float, pair: str) -> SampleScore:
    value = {
        "first_won": first_won,
        "unclear": float(math.isnan(first_won)),
        "label_1": label_1,
        "label_2": label_2,
    }
    metadata = {"pair_id": pair, "velocity_1": label_1, "velocity_2": label_2}
    return SampleScore(score=Score(value=value), sample_id=pair, sample_metadata=metadata)


def test_the_matched_accuracy_and_the_round_board_agree_on_each_decision() -> None:
    # Pair a: both orders right; pair b: one order wrong, one unclear.
    scores = [
        _score(1.0, 5.0, 2.0, "r/a"),
        _score(0.0, 2.0, 5.0, "r/a"),
        _score(1.0, 1.0, 4.0, "r/b"),
        _score(NAN, 4.0, 1.0, "r/b"),
    ]
    rows = decisions(scores, "r", "m")
    assert [row.correct for row in rows] == [1.0, 1.0, 0.0, None]  # unclear: None (imputed)
    summary = pairwise_accuracy_summary(scores, resamples=10, seed=0)
    # The matched accuracy counts the unclear order as wrong: 2 of 4 orders right.
    assert summary["pairwise_accuracy"] == 0.5 and summary["matched_unclear"] == 1.0


def test_no_other_module_writes_the_rule_again() -> None:
    rule = re.compile(r"==\s*\(\s*\w+\s*>\s*\w+\s*\)")  # (picked first) == (first > second)
    found = sorted(
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if rule.search(path.read_text(encoding="utf-8"))
    )
    assert found == ["research_taste_evals/core/pairing.py"]
