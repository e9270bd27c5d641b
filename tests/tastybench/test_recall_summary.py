"""TastyBench recall twins on hand-worked scores: post-cutoff and unrecognised Bradley-Terry."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.core.cutoff import KnowledgeCutoff, cutoff_fields
from research_taste_evals.core.dates import ItemDate
from research_taste_evals.core.recall_metrics import recall_summary as core_summary
from research_taste_evals.tastybench.ratings import bt_statistic
from research_taste_evals.tastybench.specs import TASTYBENCH

CUTOFF = dt.date(2024, 6, 30)


def recall_summary(scores: list[SampleScore], resamples: int, seed: int) -> dict[str, float]:
    return core_summary(TASTYBENCH, bt_statistic(resamples, seed))(scores)


# --- hand-worked: 6 papers, 3 after the cutoff ------------------------------------------
# Dates: A, B, C in 2025 (post-cutoff); D, E, F in 2023. Velocity: A 1, B 2, C 3, D 6, E 5, F 4.
DATES = {
    "A": "2025-01-10",
    "B": "2025-02",
    "C": "2025",
    "D": "2023-03-01",
    "E": "2023",
    "F": "2023",
}
VELOCITY = {"A": 1.0, "B": 2.0, "C": 3.0, "D": 6.0, "E": 5.0, "F": 4.0}


def _score(seq: int, first: str, second: str, first_won: float, known: set[str]) -> SampleScore:
    cutoff = KnowledgeCutoff("m", CUTOFF, "task_arg")
    dates = [ItemDate(*map(int, DATES[p].split("-"))) for p in (first, second)]
    recall = {
        p: {"date": DATES[p], "recognized": p in known, "identity_leak": False}
        for p in (first, second)
    }
    metadata = cutoff_fields(cutoff, dates) | {"recall": recall}
    value = {"first_won": first_won, "unclear": 0.0, "agree": math.nan}
    return SampleScore(
        score=Score(value=value, metadata=metadata),
        sample_id=seq,
        sample_metadata={
            "seq": seq,
            "paper_1": first,
            "paper_2": second,
            "pub_date_1": DATES[first],
            "pub_date_2": DATES[second],
            "velocity_1": VELOCITY[first],
            "velocity_2": VELOCITY[second],
        },
    )


def test_post_cutoff_bradley_terry_on_six_papers() -> None:
    """Among A, B, C the judge ranks A > B > C (A beats B and C, B beats C): velocity ranks them
    C > B > A, so Spearman is -1. The comparisons with D, E, F (where the judge follows
    velocity) leave the post-cutoff fit untouched; all six would correlate positively."""
    picks = [
        ("A", "B", 1.0),
        ("B", "C", 1.0),
        ("C", "A", 0.0),
        ("D", "A", 1.0),
        ("E", "B", 1.0),
        ("F", "C", 1.0),
        ("D", "E", 1.0),
        ("E", "F", 1.0),
        ("D", "F", 1.0),
    ]
    known = {"D", "E", "F"}
    scores = [_score(i, a, b, won, known) for i, (a, b, won) in enumerate(picks)]
    summary = recall_summary(scores, resamples=200, seed=0)
    assert summary["bt_spearman_post_cutoff"] == pytest.approx(-1.0)
    assert summary["post_cutoff_papers"] == 3 and summary["post_cutoff_comparisons"] == 3
    # Recognition: D, E, F known, A, B, C not: the same subset here.
    assert summary["recognized_rate"] == pytest.approx(0.5)
    assert summary["bt_spearman_unrecognized"] == pytest.approx(-1.0)
    assert summary["unrecognized_papers"] == 3
    # Two post-cutoff papers only: NaN, with the counts that say why.
    few = recall_summary(scores[:1] + scores[3:], resamples=200, seed=0)
    assert math.isnan(few["bt_spearman_post_cutoff"]) and few["post_cutoff_papers"] == 2


def test_unknown_cutoff_gives_nan_twins() -> None:
    score = _score(0, "A", "B", 1.0, set())
    assert score.score.metadata is not None
    score.score.metadata["knowledge_cutoff"] = None
    for item in score.score.metadata["recall"].values():
        item["recognized"] = None
    summary = recall_summary([score], resamples=10, seed=0)
    assert math.isnan(summary["bt_spearman_post_cutoff"])
    assert math.isnan(summary["post_cutoff_papers"])
