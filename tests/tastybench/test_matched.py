"""schedule=matched: the pairing (hand cases) and pairwise_accuracy (hand-worked values)."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.pairing import MAX_PAIR_GAP_DAYS, MatchItem, match_papers
from research_taste_evals.tastybench.dataset import Paper
from research_taste_evals.tastybench.ratings import pairwise_accuracy_summary
from research_taste_evals.tastybench.schedule import build_schedule

NAN = float("nan")


def _item(item_id: str, day: str | None, label: float, field: str | None = None) -> MatchItem:
    return MatchItem(item_id, dt.date.fromisoformat(day) if day else None, label, field)


def _pairs(items: list[MatchItem], seed: int = 1) -> set[frozenset[str]]:
    return {frozenset((pair.first, pair.second)) for pair in match_papers(items, seed).pairs}


def test_same_month_is_preferred_when_the_pair_count_is_equal() -> None:
    items = [_item("a", "2025-01-01", 1), _item("b", "2025-01-30", 2), _item("c", "2025-02-01", 3)]
    matching = match_papers(items, seed=1)
    assert _pairs(items) == {frozenset("ab")}  # not b-c, two days apart but across months
    [pair] = matching.pairs
    assert (pair.gap_days, pair.same_month) == (29, True)
    assert matching.unpaired == {"c": "neighbours_paired_otherwise"}


def test_more_pairs_beat_a_calendar_month() -> None:
    """b-c is the only same-month pair, but it would leave a and d unpaired."""
    items = [
        _item("a", "2025-01-31", 1),
        _item("b", "2025-02-01", 2),
        _item("c", "2025-02-28", 3),
        _item("d", "2025-03-01", 4),
    ]
    assert _pairs(items) == {frozenset("ab"), frozenset("cd")}


def test_the_gap_cap_ties_and_missing_values_leave_papers_unpaired_and_counted() -> None:
    start = dt.date(2025, 1, 1)
    at_cap = (start + dt.timedelta(days=MAX_PAIR_GAP_DAYS)).isoformat()
    beyond = (start + dt.timedelta(days=3 * MAX_PAIR_GAP_DAYS)).isoformat()
    items = [
        _item("a", "2025-01-01", 1),
        _item("b", at_cap, 2),  # exactly the cap: paired
        _item("far", beyond, 3),  # more than the cap from b: alone
        _item("undated", None, 4),
        _item("unlabelled", "2025-01-02", NAN),
    ]
    matching = match_papers(items, seed=1)
    assert _pairs(items) == {frozenset("ab")}
    assert matching.pairs[0].gap_days == MAX_PAIR_GAP_DAYS
    assert matching.unpaired == {
        "far": "no_neighbour_within_cap",
        "undated": "no_date",
        "unlabelled": "no_label",
    }
    tied = [_item("x", "2025-05-01", 7), _item("y", "2025-05-02", 7)]
    assert match_papers(tied, seed=1).unpaired == {"x": "tied_label", "y": "tied_label"}
    summary = matching.summary()
    assert summary["pairs"] == 1 and summary["unpaired"] == 3
    assert summary["max_pair_gap_days"] == MAX_PAIR_GAP_DAYS
    assert summary["unpaired_by_reason"]["no_date"] == ["undated"]


def test_pairs_never_cross_fields() -> None:
    items = [
        _item("a", "2025-01-01", 1, "cs.LG"),
        _item("b", "2025-01-02", 2, "q-bio"),
        _item("c", "2025-01-03", 3, "cs.LG"),
        _item("d", "2025-01-04", 4, "q-bio"),
    ]
    assert _pairs(items) == {frozenset("ac"), frozenset("bd")}


def test_deterministic_given_the_seed_and_disjoint() -> None:
    items = [
        _item(f"p{i:02d}", f"2025-{1 + i // 4:02d}-{1 + 3 * (i % 4):02d}", i) for i in range(24)
    ]
    first = match_papers(items, seed=7)
    assert first == match_papers(items, seed=7)
    papers = [paper for pair in first.pairs for paper in (pair.first, pair.second)]
    assert len(papers) == len(set(papers)) == 24  # every paper in exactly one pair
    orders = {
        seed: [(p.first, p.second) for p in match_papers(items, seed).pairs] for seed in (7, 8)
    }
    assert orders[7] != orders[8]  # the seed decides which paper is shown first
    assert {frozenset(o) for o in orders[7]} == {frozenset(o) for o in orders[8]}


def _paper(paper_id: str, day: str, velocity: float) -> Paper:
    return Paper(paper_id, f"Title {paper_id}", day, f"idea {paper_id}", velocity, velocity)


def test_each_pair_is_judged_in_both_orders() -> None:
    papers = [
        _paper("a", "2025-01-03", 1),
        _paper("b", "2025-01-20", 2),
        _paper("c", "2025-06-01", 3),
    ]
    schedule = build_schedule(papers, "matched", seed=3)
    assert [(p.seq, p.pair_id) for p in schedule] == [(0, 0), (1, 0)]
    assert {(p.paper_1, p.paper_2) for p in schedule} == {("a", "b"), ("b", "a")}
    assert schedule[0].gap_days == 17 and schedule[0].same_month
    with pytest.raises(ValueError, match="needs the papers"):
        build_schedule(["a", "b"], "matched")
    with pytest.raises(ConfigError, match="no two of the 2 papers"):
        build_schedule(papers[1:], "matched")
    with pytest.raises(ConfigError, match="only used with schedule='file'"):
        build_schedule(papers, "matched", pairs_file="x.csv")


def _score(pair_id: int | None, velocities: tuple[float, float], first_won: float) -> SampleScore:
    metadata = {"pair_id": pair_id, "velocity_1": velocities[0], "velocity_2": velocities[1]}
    return SampleScore(score=Score(value={"first_won": first_won}), sample_metadata=metadata)


def _both_orders(pair_id: int, picks: tuple[float, float]) -> list[SampleScore]:
    """The higher label is shown first in the first order; picks are first_won per order."""
    return [_score(pair_id, (5.0, 1.0), picks[0]), _score(pair_id, (1.0, 5.0), picks[1])]


def test_pairwise_accuracy_by_hand() -> None:
    """Pair 0: both orders right; pair 1: one right, one unclear; pair 2: both wrong.
    Decisions right: 3 of 6 (the unclear one stays in the denominator); consistent: 1 of 3."""
    scores = _both_orders(0, (1.0, 0.0)) + _both_orders(1, (1.0, NAN)) + _both_orders(2, (0, 1))
    result = pairwise_accuracy_summary(scores, resamples=200, seed=5)
    assert result["pairwise_accuracy"] == 0.5
    assert result["pairwise_accuracy_consistent"] == pytest.approx(1 / 3)
    assert result["matched_pairs"] == 3 and result["matched_unclear"] == 1
    assert 0.0 <= result["pairwise_accuracy_ci_low"] <= 0.5 <= result["pairwise_accuracy_ci_high"]
    assert result == pairwise_accuracy_summary(scores, resamples=200, seed=5)  # seeded


def test_a_position_only_judge_scores_one_half_and_never_consistent() -> None:
    scores = [s for k in range(10) for s in _both_orders(k, (1.0, 1.0))]
    result = pairwise_accuracy_summary(scores, resamples=100)
    assert result["pairwise_accuracy"] == 0.5
    assert result["pairwise_accuracy_consistent"] == 0.0
    assert result["pairwise_accuracy_ci_low"] == result["pairwise_accuracy_ci_high"] == 0.5


def test_other_schedules_have_no_pairwise_accuracy() -> None:
    result = pairwise_accuracy_summary([_score(None, (5.0, 1.0), 1.0)])
    assert result["matched_pairs"] == 0 and result["matched_unclear"] == 0
    assert math.isnan(result["pairwise_accuracy"]) and math.isnan(
        result["pairwise_accuracy_ci_low"]
    )


def test_a_pair_judged_in_one_order_only_is_left_out_and_counted() -> None:
    """``--limit 3``: pair 0 in both orders (right, right), pair 1 in its first order only."""
    scores = _both_orders(0, (1.0, 0.0)) + [_score(1, (5.0, 1.0), 0.0)]
    result = pairwise_accuracy_summary(scores, resamples=50)
    assert result["pairwise_accuracy"] == 1.0  # not 2/3: the half pair is not scored
    assert result["matched_pairs"] == 1 and result["matched_incomplete_pairs"] == 1
    only_half = pairwise_accuracy_summary([_score(0, (5.0, 1.0), 1.0)], resamples=50)
    assert math.isnan(only_half["pairwise_accuracy"])
    assert only_half["matched_pairs"] == 0 and only_half["matched_incomplete_pairs"] == 1


def test_every_paper_in_its_own_area_is_named_as_the_reason() -> None:
    papers = [
        Paper(f"p{k}", f"T{k}", f"2025-09-1{k}", f"idea {k}", k, k, field=f"area {k}")
        for k in range(4)
    ]
    with pytest.raises(ConfigError) as error:
        build_schedule(papers, "matched")
    text = str(error.value)
    assert "no two of the 4 papers share a primary area" in text and len(text.splitlines()) == 1
    assert "publication dates" not in text
    summary = match_papers(
        [MatchItem(p.paper_id, dt.date(2025, 9, 10), p.velocity_windowed, p.field) for p in papers],
        seed=1,
    ).summary()
    assert summary["unpaired_by_reason"] == {"alone_in_area": ["p0", "p1", "p2", "p3"]}
