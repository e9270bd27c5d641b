"""Pairwise comparisons -> ratings: upstream sequential Elo, Bradley-Terry MLE, diagnostics.

A comparison is ``(winner_id, loser_id)``; a list of them is in the order the comparisons were
made. A *decision* is ``(first_shown_id, second_shown_id, winner_id)`` and keeps the
presentation order, which position-bias and order-consistency need (below).
Schedules (``schedule.py``) return ordered pairs ``(first_shown_id, second_shown_id)`` in
presentation order.

How the presentation order sways a judge's picks: the share of picks for the first project
(position bias) and the share of pairs judged alike in both orders (order consistency).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from research_taste_evals.core.stats import NAN, spearman
from research_taste_evals.tastybench.schedule import Comparison

if TYPE_CHECKING:
    import numpy as np


RatingFunction = Callable[..., dict[str, float]]

# Sequential Elo as released with pairwise-judgement benchmarks (start 1500, K 32).
DEFAULT_K_FACTOR = 32.0
DEFAULT_INITIAL_RATING = 1500.0
ELO_SCALE = 400.0
# Bradley-Terry prior: each paper gets this many virtual wins AND as many virtual losses against
# a reference player of rating DEFAULT_INITIAL_RATING (see ``bradley_terry``).
DEFAULT_BT_PRIOR_STRENGTH = 1.0
BT_GRADIENT_TOLERANCE = 1e-10
BT_MAX_ITERATIONS = 200
BT_POLISH_STEPS = 5
# Natural-log strength -> Elo points, so P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400)).
LOG_STRENGTH_TO_ELO = ELO_SCALE / math.log(10.0)
DEFAULT_SPLIT_SEED = 20241029
DEFAULT_SPLIT_REPEATS = 10


def _check_comparisons(comparisons: Iterable[Comparison]) -> list[Comparison]:
    checked = []
    for index, (winner, loser) in enumerate(comparisons):
        if winner == loser:
            raise ValueError(f"comparison {index}: paper {winner!r} compared with itself")
        checked.append((winner, loser))
    return checked


def _ids_in_order(comparisons: Sequence[Comparison], paper_ids: Iterable[str] | None) -> list[str]:
    """``paper_ids`` first (in their order), then ids as first seen in the comparisons."""
    seen: dict[str, None] = dict.fromkeys(paper_ids or ())
    for winner, loser in comparisons:
        seen.setdefault(winner)
        seen.setdefault(loser)
    return list(seen)


def elo_ratings(
    comparisons: Iterable[Comparison],
    k_factor: float = DEFAULT_K_FACTOR,
    initial_rating: float = DEFAULT_INITIAL_RATING,
    paper_ids: Iterable[str] | None = None,
) -> dict[str, float]:
    """Upstream-compatible sequential Elo: one pass over the comparisons in the given order.

    Every paper starts at ``initial_rating``. For a comparison won by w against l, with both
    ratings taken from before the comparison: E_w = 1 / (1 + 10^((R_l - R_w)/400)),
    E_l = 1 / (1 + 10^((R_w - R_l)/400)); R_w += K (1 - E_w); R_l += K (0 - E_l). E_l is
    computed by its own formula, as upstream does, so results match upstream bit for bit.
    The result depends on the order of the comparisons.

    Args:
        comparisons: Ordered (winner_id, loser_id) pairs.
        k_factor: Elo K.
        initial_rating: Starting rating of every paper.
        paper_ids: Papers to include even if never compared (they keep ``initial_rating``).

    Returns:
        {paper_id: rating}: ``paper_ids`` first, then papers in order of first appearance.
    """
    checked = _check_comparisons(comparisons)
    ratings = dict.fromkeys(_ids_in_order(checked, paper_ids), initial_rating)
    for winner, loser in checked:
        winner_rating = ratings[winner]
        loser_rating = ratings[loser]
        expected_winner = 1.0 / (1.0 + 10.0 ** ((loser_rating - winner_rating) / ELO_SCALE))
        expected_loser = 1.0 / (1.0 + 10.0 ** ((winner_rating - loser_rating) / ELO_SCALE))
        ratings[winner] = winner_rating + k_factor * (1.0 - expected_winner)
        ratings[loser] = loser_rating + k_factor * (0.0 - expected_loser)
    return ratings


def _bt_objective(
    theta: np.ndarray, wins: np.ndarray, prior: float
) -> tuple[float, np.ndarray, np.ndarray]:
    """Negative log posterior, gradient and Hessian of Bradley-Terry log-strengths ``theta``."""
    import numpy as np
    from scipy.special import expit  # imported here: scipy is slow to import (registry start-up)

    diff = theta[:, None] - theta[None, :]
    # -log sigmoid(d) = logaddexp(0, -d), stable for large |d|.
    loss = float(np.sum(wins * np.logaddexp(0.0, -diff)))
    loss += prior * float(np.sum(np.logaddexp(0.0, -theta) + np.logaddexp(0.0, theta)))
    lose_prob = expit(-diff)  # P(i loses to j)
    pull = wins * lose_prob
    gradient = pull.sum(axis=0) - pull.sum(axis=1) + prior * (2.0 * expit(theta) - 1.0)
    games = (wins + wins.T) * lose_prob * lose_prob.T
    hessian = np.diag(games.sum(axis=1)) - games
    hessian[np.diag_indices_from(hessian)] += 2.0 * prior * expit(theta) * expit(-theta)
    return loss, gradient, hessian


def _fit_log_strengths(wins: np.ndarray, prior: float) -> np.ndarray:
    """Minimise the strictly convex BT objective: trust-region Newton, then Newton polish.

    scipy's trust region stops once the loss can no longer resolve an improvement (gradient
    ~1e-8); plain Newton steps, judged by the gradient alone, then reach machine precision.
    """
    import numpy as np
    from scipy import optimize  # imported here: scipy is slow to import (registry start-up)

    result = optimize.minimize(
        lambda x: _bt_objective(x, wins, prior)[:2],
        np.zeros(len(wins)),
        jac=True,
        hess=lambda x: _bt_objective(x, wins, prior)[2],
        method="trust-exact",
        options={"gtol": BT_GRADIENT_TOLERANCE, "maxiter": BT_MAX_ITERATIONS},
    )
    theta = np.asarray(result.x, dtype=float)
    _, gradient, hessian = _bt_objective(theta, wins, prior)
    for _ in range(BT_POLISH_STEPS):
        if np.max(np.abs(gradient)) <= BT_GRADIENT_TOLERANCE:
            break
        candidate = theta - np.linalg.solve(hessian, gradient)
        _, new_gradient, new_hessian = _bt_objective(candidate, wins, prior)
        if np.max(np.abs(new_gradient)) >= np.max(np.abs(gradient)):
            break
        theta, gradient, hessian = candidate, new_gradient, new_hessian
    return theta


def _exchangeable_classes(wins: np.ndarray) -> list[np.ndarray]:
    """Groups of papers the BT posterior cannot tell apart, hence rated exactly equal.

    The posterior depends on the data only through each paper's win total and the games
    matrix ``N = wins + wins.T``. Papers i and j are exchangeable when their win totals are
    equal and swapping them leaves ``N`` unchanged (``N[i, k] == N[j, k]`` for every other k):
    e.g. equal win counts in a complete round-robin. The unique optimum then gives them the same
    rating, which the numerical fit only reaches to ~1e-13 (enough for Spearman to rank them).
    """
    import numpy as np

    games = wins + wins.T
    totals = wins.sum(axis=1)
    classes: list[list[int]] = []
    for paper in range(len(wins)):
        for members in classes:
            other = members[0]
            swapped = games[other].copy()  # the other's games, with the two papers swapped
            swapped[[paper, other]] = swapped[[other, paper]]
            if totals[paper] == totals[other] and np.array_equal(games[paper], swapped):
                members.append(paper)
                break
        else:
            classes.append([paper])
    return [np.asarray(members) for members in classes if len(members) > 1]


def bradley_terry(
    comparisons: Iterable[Comparison],
    prior_strength: float = DEFAULT_BT_PRIOR_STRENGTH,
    paper_ids: Iterable[str] | None = None,
) -> dict[str, float]:
    """Bradley-Terry maximum a posteriori ratings, on the Elo scale, order-invariant.

    Model: P(i beats j) = 1 / (1 + 10^((R_j - R_i)/400)), the same curve Elo assumes.
    Prior (the regularisation): every paper plays ``prior_strength`` virtual wins and as many
    virtual losses against a fixed reference player rated ``DEFAULT_INITIAL_RATING`` (1500).
    This pulls each rating gently towards 1500, makes the fit unique (no free shift) and keeps
    an unbeaten or winless paper finite; its weight fades as real comparisons accumulate. With
    the prior, the negative log posterior is strictly convex; it is minimised with its exact
    gradient and Hessian over a win-count matrix (``_fit_log_strengths``). The fit uses only
    the win counts, with papers indexed in sorted id order, so reordering the comparisons gives
    bit-identical ratings. Papers the data cannot tell apart (equal win totals, same opponents:
    ``_exchangeable_classes``) get exactly equal ratings, so rank correlations see the tie.

    Args:
        comparisons: (winner_id, loser_id) pairs; their order is irrelevant.
        prior_strength: Virtual wins (and losses) per paper against the reference; must be > 0.
        paper_ids: Papers to include even if never compared (they stay at 1500).

    Returns:
        {paper_id: rating}: ``paper_ids`` first, then papers in order of first appearance.
    """
    import numpy as np

    if not prior_strength > 0:
        raise ValueError(f"prior_strength must be > 0 (got {prior_strength})")
    checked = _check_comparisons(comparisons)
    ids = _ids_in_order(checked, paper_ids)
    canonical = sorted(ids)
    index = {paper: position for position, paper in enumerate(canonical)}
    wins = np.zeros((len(canonical), len(canonical)))
    if checked:
        rows = np.array([index[winner] for winner, _ in checked])
        cols = np.array([index[loser] for _, loser in checked])
        np.add.at(wins, (rows, cols), 1.0)
    theta = _fit_log_strengths(wins, prior_strength) if checked else np.zeros(len(canonical))
    for members in _exchangeable_classes(wins):
        theta[members] = theta[members].mean()  # exact ties where the data cannot tell apart
    ratings = DEFAULT_INITIAL_RATING + LOG_STRENGTH_TO_ELO * theta
    return {paper: float(ratings[index[paper]]) for paper in ids}


def _pair_halves(comparisons: Sequence[Comparison], rng: np.random.Generator) -> list[np.ndarray]:
    """Comparison indices split into two halves by unordered pair, sizes as equal as possible.

    Every comparison of one unordered pair (repeats, either order) lands in the same half: the
    pairs are shuffled and each goes to the half with fewer comparisons so far.
    """
    import numpy as np

    groups: dict[frozenset[str], list[int]] = defaultdict(list)
    for index, (winner, loser) in enumerate(comparisons):
        groups[frozenset((winner, loser))].append(index)
    members = list(groups.values())
    halves: list[list[int]] = [[], []]
    for position in rng.permutation(len(members)):
        target = 0 if len(halves[0]) <= len(halves[1]) else 1
        halves[target].extend(members[position])
    return [np.sort(np.asarray(half, dtype=int)) for half in halves]


def split_half_reliability(
    comparisons: Sequence[Comparison],
    rate: RatingFunction,
    seed: int = DEFAULT_SPLIT_SEED,
    paper_ids: Iterable[str] | None = None,
    repeats: int = DEFAULT_SPLIT_REPEATS,
) -> tuple[float, float]:
    """Reliability of a ranking: agreement between ratings from two disjoint halves.

    Each repeat splits the comparisons into two halves BY UNORDERED PAIR (seeded): all
    comparisons of one pair go to the same half. Splitting single comparisons instead would put
    a repeated pair on both sides, so a judge that answers each pair at random but repeats its
    answer would look reliable (the two halves share its answers, not any ranking). Each half
    keeps its original relative order (sequential Elo still sees comparison order) and is rated
    with ``rate(half, paper_ids=all_ids)``, so a paper absent from a half keeps the starting
    rating. The split-half Spearman is the mean over repeats of the Spearman between the two
    halves' ratings; the Spearman-Brown value 2r / (1 + r) estimates the reliability of ratings
    from all the comparisons.

    Args:
        comparisons: Ordered (winner_id, loser_id) pairs.
        rate: A rating function such as ``elo_ratings`` or ``bradley_terry``; it must accept a
            ``paper_ids`` keyword.
        seed: Seed of the random splits.
        paper_ids: Papers to rank besides those in the comparisons.
        repeats: Number of random splits averaged.

    Returns:
        (split-half Spearman, Spearman-Brown corrected); NaN when undefined (fewer than two
        distinct pairs, too few papers, constant ratings); the corrected value is NaN for r <= 0.
    """
    import numpy as np

    checked = _check_comparisons(comparisons)
    ids = _ids_in_order(checked, paper_ids)
    distinct_pairs = {frozenset(comparison) for comparison in checked}
    if len(distinct_pairs) < 2 or repeats < 1:
        return NAN, NAN
    rng = np.random.default_rng(seed)
    correlations = []
    for _ in range(repeats):
        halves = _pair_halves(checked, rng)
        first, second = (rate([checked[i] for i in half], paper_ids=ids) for half in halves)
        correlations.append(spearman([first[p] for p in ids], [second[p] for p in ids]))
    valid = [value for value in correlations if not math.isnan(value)]
    if not valid:
        return NAN, NAN
    r = float(np.mean(valid))
    # Spearman-Brown extrapolates a positive reliability; for r <= 0 (halves disagree, e.g. a
    # judge that only follows position) 2r/(1+r) runs off towards -infinity and means nothing.
    corrected = 2.0 * r / (1.0 + r) if r > 0.0 else NAN
    return r, corrected


Decision = tuple[str, str, str]


def _check_decision(index: int, decision: Decision) -> Decision:
    first, second, winner = decision
    if winner not in (first, second) or first == second:
        raise ValueError(f"decision {index}: winner {winner!r} is not one of {first!r}, {second!r}")
    return first, second, winner


def position_bias_rate(decisions: Iterable[Decision]) -> float:
    """Share of decisions won by the first-shown paper ("Project 1"); 0.5 is unbiased.

    Args:
        decisions: (first_shown_id, second_shown_id, winner_id), unclear answers excluded.

    Returns:
        The share, or NaN when there are no decisions.
    """
    checked = [_check_decision(i, decision) for i, decision in enumerate(decisions)]
    if not checked:
        return NAN
    return sum(winner == first for first, _, winner in checked) / len(checked)


def order_consistency(decisions: Iterable[Decision]) -> float:
    """Share of pairs judged the same way in both presentation orders.

    For every unordered pair shown in both orders, each decision made with one order is
    matched with each decision made with the other; the pair's consistency is the share of
    those matches naming the same winner (1 or 0 when each order was seen once). The result is
    the mean over such pairs. A judge that always picks the first-shown paper scores 0.

    Args:
        decisions: (first_shown_id, second_shown_id, winner_id), unclear answers excluded.

    Returns:
        The mean consistency, or NaN when no pair was seen in both orders.
    """
    import numpy as np

    by_order: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i, decision in enumerate(decisions):
        first, second, winner = _check_decision(i, decision)
        by_order[(first, second)].append(winner)
    scores = []
    for (first, second), winners in by_order.items():
        reverse = by_order.get((second, first))
        if first > second or not reverse:
            continue  # each unordered pair once, and only if seen in both orders
        agree = sum(a == b for a in winners for b in reverse)
        scores.append(agree / (len(winners) * len(reverse)))
    return float(np.mean(scores)) if scores else NAN
