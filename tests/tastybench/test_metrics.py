from __future__ import annotations

import math
import random

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.tastybench import ratings as ratings_module
from research_taste_evals.tastybench.pairwise import elo_ratings
from research_taste_evals.tastybench.ratings import (
    DECISION_KEYS,
    RATING_KEYS,
    RELIABILITY_KEYS,
    collect,
)
from research_taste_evals.tastybench.scorer import (
    tastybench_decisions,
    tastybench_ratings,
    tastybench_reliability,
)

NAN = float("nan")
VELOCITY = {"a": 3.0, "b": 2.0, "c": 1.0}


def _score(seq: int, first: str, second: str, first_won: float) -> SampleScore:
    unclear = math.isnan(first_won)
    better = "1" if VELOCITY[first] > VELOCITY[second] else "2"
    agree = NAN if unclear else float(("1" if first_won == 1.0 else "2") == better)
    return SampleScore(
        score=Score(
            value={
                "first_won": first_won,
                "unclear": float(unclear),
                "agree": agree,
                "extractor_used": 1.0 if seq == 3 else 0.0,
            }
        ),
        sample_id=f"s{seq}",
        sample_metadata={
            "seq": seq,
            "paper_1": first,
            "paper_2": second,
            "velocity_1": VELOCITY[first],
            "velocity_2": VELOCITY[second],
        },
    )


def _run() -> list[SampleScore]:
    scores = [
        _score(0, "a", "b", 1.0),  # a beats b (shown first)
        _score(1, "b", "c", 1.0),  # b beats c (shown first)
        _score(2, "c", "a", 0.0),  # a beats c (shown second)
        _score(3, "b", "a", NAN),  # unclear: left out
    ]
    random.Random(0).shuffle(scores)  # completion order must not matter
    return scores


def _elo_step(winner: float, loser: float) -> tuple[float, float]:
    expected = 1 / (1 + 10 ** ((loser - winner) / 400))
    return winner + 32 * (1 - expected), loser - 32 * (1 - expected)


def test_collect_restores_schedule_order() -> None:
    run = collect(_run())
    assert run.decisions == [("a", "b", "a"), ("b", "c", "b"), ("c", "a", "a")]
    assert run.comparisons == [("a", "b"), ("b", "c"), ("a", "c")]
    assert (run.total, run.unclear) == (4, 1)
    assert run.paper_ids == ["a", "b", "c"]


def test_metrics_hand_worked() -> None:
    scores = _run()
    decisions = tastybench_decisions()(scores)
    assert decisions["position_bias"] == pytest.approx(2 / 3)
    assert math.isnan(decisions["order_consistency"])  # (b, a) was only unclear
    assert decisions["unclear_rate"] == 0.25
    assert (decisions["comparisons_used"], decisions["comparisons_total"]) == (3.0, 4.0)
    assert decisions["pairwise_agreement"] == 1.0
    assert decisions["extractor_rate"] == 0.25

    a, b = _elo_step(1500, 1500)
    b, c = _elo_step(b, 1500)
    a, c = _elo_step(a, c)
    elo = elo_ratings(collect(scores).comparisons)
    assert elo == pytest.approx({"a": a, "b": b, "c": c}, abs=1e-9)

    ratings = tastybench_ratings(resamples=50, seed=1)(scores)
    assert set(ratings) == set(RATING_KEYS)
    assert ratings["elo_spearman"] == pytest.approx(1.0)
    assert ratings["bt_spearman"] == pytest.approx(1.0)
    assert ratings["elo_kendall"] == pytest.approx(1.0)
    assert ratings["elo_upstream_rank_pearson"] == pytest.approx(1.0)
    assert ratings["papers_correlated"] == 3.0


def test_epoch_averaged_choices_are_not_decisions() -> None:
    scores = [_score(0, "a", "b", 0.5), _score(1, "b", "c", 1.0)]
    run = collect(scores)
    assert run.decisions == [("b", "c", "b")] and run.unclear == 1


def test_degenerate_inputs_give_nan_not_errors() -> None:
    for compute, keys in (
        (tastybench_ratings(resamples=10), RATING_KEYS),
        (tastybench_reliability(), RELIABILITY_KEYS),
        (tastybench_decisions(), DECISION_KEYS),
    ):
        for scores in ([], [_score(0, "a", "b", NAN)], [_score(0, "a", "b", 1.0)]):
            result = compute(scores)
            assert set(keys) <= set(result)
            assert all(isinstance(value, float) for value in result.values())
    assert math.isnan(tastybench_decisions()([])["unclear_rate"])


def test_a_failing_computation_reports_nan(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> float:
        raise RuntimeError("boom")

    monkeypatch.setattr(ratings_module, "position_bias_rate", broken)
    result = tastybench_decisions()(_run())
    assert set(result) == {*DECISION_KEYS, "unparsed_rate", "reasked_rate"}
    assert all(math.isnan(result[key]) for key in DECISION_KEYS)
    # The answer-shape rates do not depend on the failing computation.
    assert result["reasked_rate"] == 0.0


def test_tied_round_robin_gives_tied_bt_ratings_and_the_tie_aware_rho() -> None:
    """Equal win counts in a complete round-robin are exactly tied (not ~1e-13 apart)."""
    from scipy import stats as scipy_stats

    from research_taste_evals.core.resampling import rank_correlation_with_ci
    from research_taste_evals.tastybench.pairwise import bradley_terry

    wins = {"a": 3, "b": 3, "c": 2, "d": 1, "e": 1}
    beats = {"a": ["c", "d", "e"], "b": ["a", "d", "e"], "c": ["b", "d"], "d": ["e"], "e": ["c"]}
    comparisons = [(winner, loser) for winner, losers in beats.items() for loser in losers]
    assert len(comparisons) == 10 and {w: len(ls) for w, ls in beats.items()} == wins
    for order in (comparisons, comparisons[::-1]):
        ratings = bradley_terry(order)
        assert ratings["a"] == ratings["b"] and ratings["d"] == ratings["e"]
        assert ratings["a"] > ratings["c"] > ratings["d"]
    truth = {"a": 5.0, "b": 1.0, "c": 4.0, "d": 2.0, "e": 3.0}
    ids = sorted(truth)
    expected = scipy_stats.spearmanr([wins[i] for i in ids], [truth[i] for i in ids]).statistic
    rho = rank_correlation_with_ci(ratings, truth, "spearman", seed=0, resamples=10)["rho"]
    assert rho == pytest.approx(expected, abs=1e-12)
    untied = scipy_stats.spearmanr(
        [ratings[i] + 1e-9 * k for k, i in enumerate(ids)], [truth[i] for i in ids]
    ).statistic
    assert rho != pytest.approx(untied, abs=1e-3)  # breaking the tie would change rho


def test_unequal_opponents_are_not_tied_even_with_equal_win_counts() -> None:
    from research_taste_evals.tastybench.pairwise import bradley_terry

    # x and y each win once, but x beat the strong paper and y the weak one.
    comparisons = [("s", "w"), ("s", "w"), ("x", "s"), ("y", "w"), ("s", "x"), ("w", "y")]
    ratings = bradley_terry(comparisons)
    assert ratings["x"] > ratings["y"]


def test_double_round_robin_ties_are_exact_where_the_fit_alone_leaves_them_apart() -> None:
    """A seeded coin on every ordered pair of 20 papers (the all_pairs design): without the
    exchangeability step 7 equal-win pairs come out ~1e-13 apart; here none does, and the
    Spearman rho against any truth equals the one of the win counts (ties averaged)."""
    import itertools

    from scipy import stats as scipy_stats

    from research_taste_evals.core.resampling import rank_correlation_with_ci
    from research_taste_evals.tastybench.pairwise import bradley_terry

    rng = random.Random(0)
    ids = [f"p{i:02d}" for i in range(20)]
    comparisons = [
        (a, b) if rng.random() < 0.5 else (b, a) for a, b in itertools.permutations(ids, 2)
    ]
    wins = {paper: sum(1 for winner, _ in comparisons if winner == paper) for paper in ids}
    ratings = bradley_terry(comparisons)
    tied = [(a, b) for a, b in itertools.combinations(ids, 2) if wins[a] == wins[b]]
    assert len(tied) >= 7
    assert all(ratings[a] == ratings[b] for a, b in tied)
    truth = {paper: rng.random() for paper in ids}
    expected = scipy_stats.spearmanr([wins[i] for i in ids], [truth[i] for i in ids]).statistic
    rho = rank_correlation_with_ci(ratings, truth, "spearman", seed=0, resamples=10)["rho"]
    assert rho == pytest.approx(expected, abs=1e-12)
