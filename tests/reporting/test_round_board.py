"""The difficulty-adjusted rounds leaderboard (reporting.round_board) on scripted models of known
skill: two rounds of different difficulty, a strong model judging only the hard round, a weak one
only the easy round, two reference models judging both."""

from __future__ import annotations

import math

import numpy as np
import pytest

from research_taste.reporting.round_board import (
    Decision,
    RoundFrame,
    board,
    judgment,
)

PAIRS = 300
# P(an order is right) = skill + the pair's difficulty offset (so correctness is additive)
SKILL = {"ref-a": 0.60, "ref-b": 0.50, "weak": 0.55, "strong": 0.70}
JUDGES = {"easy": ["ref-a", "ref-b", "weak"], "hard": ["ref-a", "ref-b", "strong"]}
OFFSET = {"easy": (0.25, 0.35), "hard": (-0.05, 0.05)}


def _scripted(seed: int = 7) -> tuple[list[Decision], list[RoundFrame], dict[str, float]]:
    rng = np.random.default_rng(seed)
    decisions, frames, offsets = [], [], {}
    for name, (low, high) in OFFSET.items():
        ids = [str(k) for k in range(PAIRS)]
        frames.append(RoundFrame(name, frozenset(ids), resolved=True))
        for pair in ids:
            offsets[f"{name}/{pair}"] = float(rng.uniform(low, high))
            for model in JUDGES[name]:
                chance = SKILL[model] + offsets[f"{name}/{pair}"]
                for _ in range(2):
                    right = float(rng.random() < chance)
                    decisions.append(Decision(name, pair, model, right, True))
    return decisions, frames, offsets


def _line(result, model):  # type: ignore[no-untyped-def]
    return next(line for line in result.models if line.model == model)


def test_adjusted_ranks_the_strong_model_first_where_raw_ranks_the_weak_one() -> None:
    decisions, frames, offsets = _scripted()
    result = board(decisions, frames, resamples=400)
    # by hand: adjusted = skill + the mean difficulty offset over every pair (each pair once)
    mean_offset = float(np.mean(list(offsets.values())))
    raw_rank = sorted(result.models, key=lambda line: -line.raw[0])
    assert raw_rank[0].model == "weak"
    assert [line.model for line in result.models][0] == "strong"
    for model, skill in SKILL.items():
        line = _line(result, model)
        assert line.ranked, line.reason
        value, low, high = line.adjusted
        assert low <= skill + mean_offset <= high, (model, line.adjusted)
        # raw: the model's own pairs, pooled (by hand: the mean over its decisions)
        own = [d.correct for d in decisions if d.model == model]
        assert line.raw[0] == pytest.approx(float(np.mean(own)))
        assert line.raw[1] <= line.raw[0] <= line.raw[2]
    assert result.beats[("strong", "ref-b")] > 0.95
    assert all(a != b for a, b in result.beats)
    assert sorted(result.all_rounds) == ["ref-a", "ref-b"]
    assert result.single_model_pairs == 0


def test_a_random_model_that_judged_every_pair_scores_one_half() -> None:
    rng = np.random.default_rng(3)
    frame = RoundFrame("r", frozenset(str(k) for k in range(80)), resolved=True)
    decisions = [
        Decision("r", pair, model, float(rng.random() < chance), True)
        for pair in frame.pairs
        for model, chance in (("coin", 0.5), ("good", 0.8))
        for _ in range(2)
    ]
    coin = [d for d in decisions if d.model == "coin"]
    result = board(decisions, [frame], resamples=50)
    # a model that judged every pair used: its adjusted figure is its raw accuracy exactly
    line = _line(result, "coin")
    assert line.adjusted[0] == pytest.approx(float(np.mean([d.correct for d in coin])))


def test_a_limited_judgment_is_listed_unranked_with_missing_pairs_at_one_half() -> None:
    decisions, frames, _ = _scripted()
    # "limited" judged the first 100 of the hard round's 300 pairs, every one right
    decisions += [Decision("hard", str(k), "limited", 1.0, True) for k in range(100) for _ in "12"]
    result = board(decisions, frames, resamples=50)
    line = _line(result, "limited")
    assert not line.ranked and "coverage under 95%" in line.reason
    assert math.isnan(line.adjusted[0])
    [partial] = [item for item in result.judgments if item.model == "limited"]
    assert partial.coverage == pytest.approx(100 / 300)
    assert partial.headline == pytest.approx((100 * 1.0 + 200 * 0.5) / 300)
    assert partial.answered == 1.0
    assert not partial.complete


def test_unclear_and_late_decisions_score_one_half_and_lower_coverage() -> None:
    frame = RoundFrame("r", frozenset({"0", "1"}), resolved=True)
    rows = [
        Decision("r", "0", "m", 1.0, True),
        Decision("r", "0", "m", None, True),  # unclear
        Decision("r", "1", "m", 1.0, False),  # after its label existed
        Decision("r", "1", "m", 0.0, True),
    ]
    item = judgment(rows, frame, "m")
    assert item.coverage == pytest.approx(2 / 4)
    assert item.prospective_share == pytest.approx(3 / 4)
    assert item.headline == pytest.approx((1.0 + 0.5 + 0.5 + 0.0) / 4)
    assert item.answered == pytest.approx(0.5)


def test_pairs_judged_by_one_model_only_are_left_out_and_counted() -> None:
    decisions, frames, _ = _scripted()
    # the easy round has 10 more pairs, judged by "weak" alone (the references still cover
    # 300 of 310 pairs: complete)
    extra = [str(k) for k in range(PAIRS, PAIRS + 10)]
    frames[0] = RoundFrame("easy", frames[0].pairs | frozenset(extra), resolved=True)
    decisions += [Decision("easy", pair, "weak", 1.0, True) for pair in extra for _ in "12"]
    result = board(decisions, frames, resamples=50)
    assert result.single_model_pairs == 10
    assert _line(result, "weak").pairs == PAIRS  # its lone pairs are not in its fit
    assert _line(result, "ref-a").ranked


def test_a_round_under_min_pairs_is_listed_not_used() -> None:
    decisions, frames, _ = _scripted()
    small = RoundFrame("small", frozenset(str(k) for k in range(10)), resolved=True)
    decisions += [
        Decision("small", pair, model, 1.0, True)
        for pair in small.pairs
        for model in ("ref-a", "late")
        for _ in "12"
    ]
    pending = RoundFrame("open", frozenset({"0"}), resolved=False)
    result = board(decisions, [*frames, small, pending], min_pairs=50, resamples=50)
    uses = {use.round: use for use in result.rounds}
    assert not uses["small"].used and "--min-pairs 50" in uses["small"].reason
    assert uses["small"].shared_pairs == 10
    assert not uses["open"].used and "not resolved" in uses["open"].reason
    assert uses["easy"].used and uses["hard"].used
    late = _line(result, "late")
    assert not late.ranked and late.reason == "judged only rounds not used"


def test_the_fit_equals_sparse_least_squares_on_unbalanced_data() -> None:
    """The absorbed fit (one small system per replicate) against scipy's lsqr on the full
    two-way design, with some pairs weighted twice and some left out."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.linalg import lsqr

    from research_taste.reporting.round_board import _fit

    rng = np.random.default_rng(11)
    n_models, n_pairs = 5, 60
    judged = (rng.random((n_models, n_pairs)) < 0.6).astype(float)
    judged[:2] = 1.0  # two references judge every pair: connected, two judges a pair
    scores = rng.integers(0, 3, size=judged.shape) / 2 * judged
    weights = rng.integers(0, 3, size=n_pairs).astype(float)
    models, pairs = np.nonzero(judged)
    w = np.sqrt(weights[pairs])
    rows = np.arange(len(models))
    design = csr_matrix(
        (
            np.concatenate([w, w]),
            (np.concatenate([rows, rows]), np.concatenate([models, n_models + pairs])),
        ),
        shape=(len(models), n_models + n_pairs),
    )
    solution = lsqr(design, w * scores[models, pairs], atol=1e-12, btol=1e-12)[0]
    expected = solution[:n_models] + np.sum(weights * solution[n_models:]) / weights.sum()
    adjusted, _ = _fit(scores, judged, weights[None, :])
    assert adjusted[0] == pytest.approx(expected, abs=1e-6)
