"""Elo, Bradley-Terry, reliability, position bias, order consistency and schedules."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from research_taste_evals.core.stats import spearman
from research_taste_evals.tastybench.pairwise import (
    bradley_terry,
    elo_ratings,
    order_consistency,
    position_bias_rate,
    split_half_reliability,
)
from research_taste_evals.tastybench.schedule import (
    adjacent_schedule,
    all_pairs_schedule,
)


def test_elo_hand_worked_and_order_dependent() -> None:
    one = elo_ratings([("a", "b")])
    assert one == {"a": 1516.0, "b": 1484.0}
    two = elo_ratings([("a", "b"), ("b", "a")])
    expected_b = 1.0 / (1.0 + 10.0 ** ((1516.0 - 1484.0) / 400.0))
    assert two["b"] == pytest.approx(1484.0 + 32.0 * (1.0 - expected_b))
    assert two["a"] == pytest.approx(1516.0 - 32.0 * (1.0 - expected_b))
    assert two != elo_ratings([("b", "a"), ("a", "b")])


def test_elo_options_and_unseen_papers() -> None:
    ratings = elo_ratings([("a", "b")], k_factor=10.0, initial_rating=1000.0, paper_ids=["z"])
    assert ratings == {"z": 1000.0, "a": 1005.0, "b": 995.0}
    assert list(ratings) == ["z", "a", "b"]
    with pytest.raises(ValueError, match="comparison 1: paper 'a' compared with itself"):
        elo_ratings([("a", "b"), ("a", "a")])


def test_bradley_terry_two_player_hand_worked() -> None:
    # a beats b once; prior = one virtual win and loss each vs a reference at 0. By symmetry
    # theta_a = -theta_b = t with sigmoid(-2t) = 2 sigmoid(t) - 1, i.e. u = e^t solves
    # u^3 - u^2 - 2 = 0, and the rating is 1500 + 400 log10(u).
    roots = np.roots([1.0, -1.0, 0.0, -2.0])
    u = float(next(root.real for root in roots if abs(root.imag) < 1e-12))
    ratings = bradley_terry([("a", "b")])
    assert ratings["a"] == pytest.approx(1500.0 + 400.0 * math.log10(u), abs=1e-9)
    assert ratings["b"] == pytest.approx(1500.0 - 400.0 * math.log10(u), abs=1e-9)


def test_bradley_terry_balanced_record_and_unseen_paper_sit_at_1500() -> None:
    ratings = bradley_terry([("a", "b"), ("b", "a")], paper_ids=["z"])
    assert ratings == pytest.approx({"z": 1500.0, "a": 1500.0, "b": 1500.0}, abs=1e-9)
    assert bradley_terry([]) == {}


def test_bradley_terry_unbeaten_paper_is_finite_and_first() -> None:
    comparisons = [("top", other) for other in "abcde" for _ in range(20)]
    comparisons += [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")]
    ratings = bradley_terry(comparisons)
    assert all(math.isfinite(value) for value in ratings.values())
    assert max(ratings, key=ratings.__getitem__) == "top"
    weaker = bradley_terry(comparisons, prior_strength=10.0)
    assert weaker["top"] < ratings["top"]  # a stronger prior shrinks towards 1500
    with pytest.raises(ValueError, match="prior_strength"):
        bradley_terry(comparisons, prior_strength=0.0)


def test_bradley_terry_is_order_invariant_and_recovers_order() -> None:
    rng = np.random.default_rng(3)
    strengths = {f"p{i:02d}": float(value) for i, value in enumerate(rng.normal(0, 1.5, 30))}
    pairs = all_pairs_schedule(list(strengths), seed=1) * 2
    comparisons = [
        (a, b) if rng.random() < 1 / (1 + math.exp(strengths[b] - strengths[a])) else (b, a)
        for a, b in pairs
    ]
    ratings = bradley_terry(comparisons)
    shuffled = comparisons.copy()
    random.Random(5).shuffle(shuffled)
    again = bradley_terry(shuffled)
    for paper, rating in ratings.items():
        assert again[paper] == pytest.approx(rating, abs=1e-9, rel=0)
    keys = list(strengths)
    assert spearman([ratings[k] for k in keys], [strengths[k] for k in keys]) > 0.9


def test_split_half_reliability_separates_signal_from_noise() -> None:
    ids = [f"p{i:02d}" for i in range(20)]
    pairs = all_pairs_schedule(ids, seed=0)
    truthful = [(a, b) if a < b else (b, a) for a, b in pairs]  # lower id always wins
    r, corrected = split_half_reliability(truthful, bradley_terry, seed=1)
    assert r > 0.9 and corrected == pytest.approx(2 * r / (1 + r))
    noise_r = []
    for seed in range(8):  # one data set varies by about 0.15; average eight coin judges
        coin = random.Random(seed)
        noise = [(a, b) if coin.random() < 0.5 else (b, a) for a, b in pairs]
        noise_r.append(split_half_reliability(noise, bradley_terry, seed=1)[0])
    assert abs(float(np.mean(noise_r))) < 0.15
    assert split_half_reliability(truthful, elo_ratings, seed=1) == split_half_reliability(
        truthful, elo_ratings, seed=1
    )
    assert all(math.isnan(v) for v in split_half_reliability([("a", "b")], elo_ratings))


def test_spearman_brown_is_undefined_when_halves_disagree() -> None:
    # A cyclic judge (a > b, b > c, c > a): whichever pair a half lacks, the halves rank the
    # three papers in opposite orders.
    cyclic = [("a", "b"), ("b", "c"), ("c", "a")] * 3
    r, corrected = split_half_reliability(cyclic, bradley_terry, seed=3)
    assert r == pytest.approx(-1.0) and math.isnan(corrected)


def test_split_half_keeps_repeats_of_a_pair_in_one_half() -> None:
    """A judge that answers each pair at random but repeats itself has no ranking; splitting
    single comparisons put its repeats in both halves and made it look reliable (about 0.31 on
    TastyBench's adjacent schedule). One data set varies by about 0.15, so eight seeded judges
    are averaged."""
    ids = [f"p{i:02d}" for i in range(37)]
    pairs = adjacent_schedule(ids, rounds=20, seed=0)
    assert len(set(map(frozenset, pairs))) < len(pairs)  # some pairs repeat
    by_pair, by_comparison = [], []
    for seed in range(8):
        coin = random.Random(seed)
        answer: dict[frozenset[str], str] = {}
        repeating = []
        for first, second in pairs:
            winner = answer.setdefault(frozenset((first, second)), coin.choice((first, second)))
            repeating.append((winner, second if winner == first else first))
        by_pair.append(split_half_reliability(repeating, bradley_terry, seed=1)[0])
        # The comparison-level split this replaced.
        order = np.random.default_rng(1).permutation(len(repeating))
        halves = order[: len(order) // 2], order[len(order) // 2 :]
        rated = [bradley_terry([repeating[i] for i in sorted(h)], paper_ids=ids) for h in halves]
        by_comparison.append(spearman([rated[0][p] for p in ids], [rated[1][p] for p in ids]))
    assert abs(float(np.mean(by_pair))) < 0.1
    assert float(np.mean(by_comparison)) > 0.2


def test_always_first_judge_is_fully_biased_and_never_consistent() -> None:
    pairs = all_pairs_schedule(["a", "b", "c", "d", "e"])
    always_first = [(first, second, first) for first, second in pairs]
    assert position_bias_rate(always_first) == 1.0
    assert order_consistency(always_first) == 0.0
    truthful = [(first, second, min(first, second)) for first, second in pairs]
    assert position_bias_rate(truthful) == 0.5
    assert order_consistency(truthful) == 1.0


def test_order_consistency_hand_worked() -> None:
    decisions = [
        ("a", "b", "a"),  # pair a-b: (a,b) -> a twice, (b,a) -> a once, b once: 2/4 agree
        ("a", "b", "a"),
        ("b", "a", "a"),
        ("b", "a", "b"),
        ("c", "d", "d"),  # pair c-d: consistent
        ("d", "c", "d"),
        ("e", "f", "e"),  # seen in one order only: ignored
    ]
    assert order_consistency(decisions) == pytest.approx((0.5 + 1.0) / 2)
    assert position_bias_rate(decisions) == pytest.approx(5 / 7)
    assert math.isnan(order_consistency(decisions[-1:]))
    assert math.isnan(position_bias_rate([]))
    with pytest.raises(ValueError, match="decision 0: winner 'x'"):
        order_consistency([("a", "b", "x")])


def test_adjacent_schedule_matches_upstream_shape() -> None:
    ids = [f"p{i}" for i in range(37)]
    pairs = adjacent_schedule(ids, rounds=20, seed=4)
    assert len(pairs) == 20 * 36
    assert pairs == adjacent_schedule(ids, rounds=20, seed=4)
    assert pairs != adjacent_schedule(ids, rounds=20, seed=5)
    for start in range(0, len(pairs), 36):
        epoch = pairs[start : start + 36]
        chain = [epoch[0][0]] + [second for _, second in epoch]
        assert sorted(chain) == sorted(ids)  # one shuffled permutation, neighbours compared
        assert all(epoch[i][1] == epoch[i + 1][0] for i in range(35))
    with pytest.raises(ValueError, match="unique"):
        adjacent_schedule(["a", "a"], rounds=1, seed=0)


def test_all_pairs_schedule() -> None:
    ids = ["a", "b", "c", "d"]
    pairs = all_pairs_schedule(ids)
    assert len(pairs) == len(set(pairs)) == 4 * 3
    assert pairs[:2] == [("a", "b"), ("b", "a")]
    assert sorted(all_pairs_schedule(ids, seed=2)) == sorted(pairs)


def test_bradley_terry_is_fast_on_thousands_of_comparisons() -> None:
    ids = [f"p{i:02d}" for i in range(97)]
    rng = np.random.default_rng(0)
    comparisons = [(a, b) if rng.random() < 0.6 else (b, a) for a, b in all_pairs_schedule(ids)]
    ratings = bradley_terry(comparisons)  # 9,312 comparisons; timing printed by the bench
    assert len(ratings) == 97 and all(math.isfinite(v) for v in ratings.values())
