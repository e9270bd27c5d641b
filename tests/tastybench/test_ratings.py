"""Upstream's rank-Pearson and ordinal ranks, replayed on stored upstream runs; partial rho."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from research_taste_evals.core.stats import spearman
from research_taste_evals.tastybench.pairwise import elo_ratings
from research_taste_evals.tastybench.ratings import (
    descending_positions,
    partial_rho,
    publication_month,
    upstream_rank_pearson,
)

ELICITATION = Path("tastybench") / "model-elicitation" / "data"
# Stored upstream runs with the correlation.json that compare.py wrote for them.
UPSTREAM_RUNS = (
    "curated/gpt-oss-120b/20-epochs",
    "curated/llama-3-70b/20-epochs",
    "curated/gpt-oss-20b/50-epochs",
    "goodhart-curated/llama-3-70b/20-epochs",
    "max-goodhart-curated/gpt-oss-120b/20-epochs",
)
GPT_OSS_120B_RHO = -0.06993835941204363  # curated/gpt-oss-120b/20-epochs/correlation.json
# goodhart-10-epochs/gpt-oss-120b/correlation.json at upstream commit cbe1f173 (not in
# ../shared): 97 papers whose velocities contain a tie, so it pins the tie-breaking rule.
GOODHART_10_GPT_OSS_120B_RHO = 0.21118241110877342


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _velocities(path: Path) -> dict[str, float]:
    return {row["paperId"]: float(row["b"]) for row in _read_csv(path)}


def _upstream_run(data: Path, run: str) -> tuple[list[tuple[str, str]], dict[str, float]]:
    comparisons = [
        (row["better_paper_id"], row["worse_paper_id"])
        for row in _read_csv(data / run / "rankings.csv")
    ]
    stored = {
        row["paper_id"]: float(row["elo_rating"]) for row in _read_csv(data / run / "elo.csv")
    }
    return comparisons, stored


@pytest.mark.parametrize("run", UPSTREAM_RUNS)
def test_replay_upstream_elo_and_correlation(upstream_dir: Path, run: str) -> None:
    data = upstream_dir / ELICITATION
    comparisons, stored = _upstream_run(data, run)
    ratings = elo_ratings(comparisons)
    assert ratings.keys() == stored.keys()
    for paper, rating in stored.items():
        assert ratings[paper] == pytest.approx(rating, abs=1e-9, rel=0), paper
    expected = json.loads((data / run / "correlation.json").read_text())["correlation"]
    truth = _velocities(data / "llm_rl_yix_curate.csv")
    assert upstream_rank_pearson(ratings, truth) == pytest.approx(expected, abs=1e-9, rel=0)


def test_replay_target_number(upstream_dir: Path) -> None:
    data = upstream_dir / ELICITATION
    comparisons, _ = _upstream_run(data, UPSTREAM_RUNS[0])
    truth = _velocities(data / "llm_rl_yix_curate.csv")
    rho = upstream_rank_pearson(elo_ratings(comparisons), truth)
    assert rho == pytest.approx(GPT_OSS_120B_RHO, abs=1e-9, rel=0)


def test_upstream_tie_breaking_on_97_papers(upstream_dir: Path) -> None:
    data = upstream_dir / ELICITATION
    comparisons, stored = _upstream_run(data, "goodhart-10-epochs/gpt-oss-120b")
    truth = _velocities(data / "llm_rl.csv")
    assert len(set(truth.values())) < len(truth)  # a tie that the rule must break like pandas
    rho = upstream_rank_pearson(elo_ratings(comparisons), truth)
    assert rho == pytest.approx(GOODHART_10_GPT_OSS_120B_RHO, abs=1e-9, rel=0)
    keys = list(truth)
    averaged = spearman([stored[k] for k in keys], [truth[k] for k in keys])
    assert abs(averaged - GOODHART_10_GPT_OSS_120B_RHO) > 1e-4  # ties are not averaged upstream


def test_descending_positions_break_ties_by_insertion_order() -> None:
    assert descending_positions({"a": 1.0, "b": 5.0, "c": 1.0, "d": 2.0}) == {
        "b": 0,
        "d": 1,
        "a": 2,
        "c": 3,
    }


def test_upstream_rank_pearson_equals_spearman_without_ties() -> None:
    ratings = {"a": 1500.0, "b": 1600.0, "c": 1400.0, "d": 1550.0, "e": 1450.0}
    truth = {"e": 5.0, "d": 1.0, "c": 3.0, "b": 4.0, "a": 2.0}
    keys = list(ratings)
    assert upstream_rank_pearson(ratings, truth) == pytest.approx(
        spearman([ratings[k] for k in keys], [truth[k] for k in keys])
    )


def test_upstream_rank_pearson_ties_by_position_hand_worked() -> None:
    ratings = {"a": 3.0, "b": 2.0, "c": 1.0}  # positions a0 b1 c2
    # b and c tie: the one inserted first takes the higher position
    assert upstream_rank_pearson(ratings, {"a": 2.0, "b": 1.0, "c": 1.0}) == pytest.approx(1.0)
    # positions a0 c1 b2 vs a0 b1 c2: Pearson = Spearman of (0,1,2) vs (0,2,1) = 0.5
    assert upstream_rank_pearson(ratings, {"a": 2.0, "c": 1.0, "b": 1.0}) == pytest.approx(0.5)
    assert math.isnan(upstream_rank_pearson({"a": 1.0}, {"a": 1.0}))


def test_publication_month_and_partial_rho_hand_worked() -> None:
    assert publication_month("2024-03-15") == 2024 * 12 + 2
    assert math.isnan(publication_month(None))
    ratings = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0}
    truth = {"a": 2.0, "b": 1.0, "c": 4.0, "d": 3.0, "e": 5.0}
    month = {"a": 1.0, "b": 3.0, "c": 2.0, "d": 5.0, "e": 4.0}
    keys = sorted(ratings)
    r_xy, r_xz, r_yz = (
        spearman([p[k] for k in keys], [q[k] for k in keys])
        for p, q in ((ratings, truth), (ratings, month), (truth, month))
    )
    assert (r_xy, r_xz, r_yz) == pytest.approx((0.8, 0.8, 0.3))
    expected = (0.8 - 0.8 * 0.3) / math.sqrt((1 - 0.64) * (1 - 0.09))
    assert partial_rho(ratings, truth, month) == pytest.approx(expected)
    # A control that explains the ratings completely leaves nothing to correlate.
    assert math.isnan(partial_rho(ratings, truth, ratings))
