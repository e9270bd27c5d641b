"""How many comparisons does each TastyBench pair schedule need? A simulation, no model calls.

A synthetic judge compares papers with latent log-strengths drawn from a normal distribution
and prefers the truly better one with Bradley-Terry probability sigmoid(theta_i - theta_j),
whichever is shown first. For each schedule x rating method, the comparisons stream in and
the ratings are recomputed at every checkpoint; the table reports the first checkpoint at which
Spearman(ratings, latent strengths) reaches the target, averaged over seeds, and how many seeds
reached it within the budget. Prints figures; asserts nothing.

Run: ``time python bench/tastybench_schedule.py``
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.special import expit

from research_taste_evals.core.stats import spearman
from research_taste_evals.tastybench.pairwise import bradley_terry, elo_ratings
from research_taste_evals.tastybench.schedule import (
    Comparison,
    adjacent_schedule,
    all_pairs_schedule,
    random_pairs_schedule,
)

N_PAPERS = 37  # the curated upstream set
LATENT_SD = 1.0  # SD of latent log-strengths: neighbours in rank are near coin flips
TARGET_SPEARMAN = 0.9
SEEDS = tuple(range(8))
CHECKPOINT_EVERY = N_PAPERS - 1  # one adjacent round
BUDGET = 60 * CHECKPOINT_EVERY  # 2160 comparisons: three times upstream's 720
UPSTREAM_COMPARISONS = 20 * (N_PAPERS - 1)

Schedule = Callable[[list[str], int], list[Comparison]]
RATERS: dict[str, Callable[[list[Comparison], list[str]], dict[str, float]]] = {
    "elo": lambda comparisons, ids: elo_ratings(comparisons, paper_ids=ids),
    "bradley_terry": lambda comparisons, ids: bradley_terry(comparisons, paper_ids=ids),
}


def _adjacent(ids: list[str], seed: int) -> list[Comparison]:
    return adjacent_schedule(ids, rounds=BUDGET // (len(ids) - 1), seed=seed)


def _all_pairs(ids: list[str], seed: int) -> list[Comparison]:
    pairs: list[Comparison] = []
    repeat = 0
    while len(pairs) < BUDGET:  # fresh shuffled copies of the full design until the budget
        pairs.extend(all_pairs_schedule(ids, seed=seed * 1000 + repeat))
        repeat += 1
    return pairs[:BUDGET]


def _random(ids: list[str], seed: int) -> list[Comparison]:
    return random_pairs_schedule(ids, count=BUDGET, seed=seed)


SCHEDULES: dict[str, Schedule] = {
    "adjacent": _adjacent,
    "all_pairs (shuffled)": _all_pairs,
    "random_pairs": _random,
}


def judge(pairs: list[Comparison], strength: dict[str, float], seed: int) -> list[Comparison]:
    """(winner, loser) for each shown pair, the better paper winning with BT probability."""
    rng = np.random.default_rng(seed)
    first_wins = rng.random(len(pairs)) < expit(
        np.array([strength[a] - strength[b] for a, b in pairs])
    )
    return [(a, b) if win else (b, a) for (a, b), win in zip(pairs, first_wins, strict=True)]


def trajectory(
    comparisons: list[Comparison], ids: list[str], truth: list[float], rater: str
) -> list[float]:
    """Spearman(ratings, latent strengths) at every checkpoint."""
    return [
        spearman([ratings[p] for p in ids], truth)
        for end in range(CHECKPOINT_EVERY, len(comparisons) + 1, CHECKPOINT_EVERY)
        for ratings in [RATERS[rater](comparisons[:end], ids)]
    ]


def first_reach(rhos: list[float]) -> int | None:
    """Comparisons at the first checkpoint whose Spearman reaches the target."""
    for index, rho in enumerate(rhos):
        if rho >= TARGET_SPEARMAN:
            return (index + 1) * CHECKPOINT_EVERY
    return None


def stays_from(rhos: list[float]) -> int | None:
    """Comparisons from which Spearman stays at or above the target until the budget."""
    start = None
    for index, rho in enumerate(rhos):
        if rho < TARGET_SPEARMAN:
            start = None
        elif start is None:
            start = (index + 1) * CHECKPOINT_EVERY
    return start


def _summary(values: list[int | None]) -> str:
    reached = [value for value in values if value is not None]
    mean = f"{np.mean(reached):.0f}" if reached else "-"
    return f"{mean} ({len(reached)}/{len(values)})"


def main() -> None:
    started = time.perf_counter()
    ids = [f"paper{i:02d}" for i in range(N_PAPERS)]
    runs: dict[tuple[str, str], list[list[float]]] = {}
    for seed in SEEDS:
        latent = np.random.default_rng(10_000 + seed).normal(0.0, LATENT_SD, N_PAPERS)
        strength = dict(zip(ids, latent, strict=True))
        for name, schedule in SCHEDULES.items():
            comparisons = judge(schedule(ids, seed), strength, seed)
            for rater in RATERS:
                runs.setdefault((name, rater), []).append(
                    trajectory(comparisons, ids, list(latent), rater)
                )

    print(
        f"{N_PAPERS} papers; judge: Bradley-Terry on latent log-strengths ~ N(0, {LATENT_SD}); "
        f"{len(SEEDS)} seeds; checkpoint every {CHECKPOINT_EVERY}; budget {BUDGET} comparisons."
    )
    print(
        f"Cells: mean comparisons over the seeds that got there (seeds that did / all); "
        f"target Spearman {TARGET_SPEARMAN} vs the latent order.\n"
    )
    upstream_column = f"rho @ {UPSTREAM_COMPARISONS} (mean)"
    header = (
        f"{'schedule':<22}{'rating':<15}{'first reaches':>16}{'stays from':>16}"
        f"{upstream_column:>22}"
    )
    print(header)
    print("-" * len(header))
    upstream_index = UPSTREAM_COMPARISONS // CHECKPOINT_EVERY - 1
    for (name, rater), rhos in runs.items():
        first = _summary([first_reach(run) for run in rhos])
        stays = _summary([stays_from(run) for run in rhos])
        at_upstream = np.mean([run[upstream_index] for run in rhos])
        print(f"{name:<22}{rater:<15}{first:>16}{stays:>16}{at_upstream:>22.3f}")
    print(
        f"\nupstream ran {UPSTREAM_COMPARISONS} comparisons (adjacent, 20 epochs, sequential Elo)"
    )
    print(f"elapsed {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
