"""How wide is the 95% CI per judge call under each TastyBench schedule? A simulation, no model.

Two synthetic judges (seeded). ``per-call``: picks the paper with the higher label (velocity)
with probability ``P_RIGHT``, independently per call, so enough calls recover the whole order.
``opinion``: holds a fixed view of each paper (log label plus noise, Pearson ``OPINION_R`` with
the log label: a judge with some taste) and picks the paper it rates higher with probability
``P_RIGHT``; more calls recover its view, not the labels. Budgets of about 1,000 and 4,000
judge calls are spent three ways, each scored with the package's own code:

- ``adjacent``: upstream's schedule over 37 papers (the curated set), as many rounds as fit;
  Bradley-Terry ``bt_spearman`` and its bootstrap CI over papers (``ratings.rating_summary``'s
  functions);
- ``all_pairs``: every ordered pair of the largest set the budget covers (32 papers: 992 calls),
  repeated for the larger budget; same statistic;
- ``matched``: ``schedule=matched`` pairs (``matched.match_papers``) of fresh papers dated over
  one year, both orders each; ``pairwise_accuracy`` and its bootstrap CI over pairs
  (``matched.pairwise_accuracy_summary``).

Half-widths are means over ``SEEDS`` (fresh labels and judge each). rho spans [-1, 1] and
accuracy [0, 1]: the "common scale" ratio doubles the accuracy half-width (2 accuracy - 1 spans
[-1, 1]). Prints the table; ``--write`` also puts it in the TastyBench README's block
``matched-ci``. Run: ``time python bench/matched_ci.py`` (about half a minute on two cores).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

import numpy as np
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.core.pairing import MatchItem, match_papers
from research_taste_evals.core.resampling import rank_correlation_with_ci
from research_taste_evals.core.text import replace_block
from research_taste_evals.tastybench.pairwise import bradley_terry
from research_taste_evals.tastybench.ratings import pairwise_accuracy_summary
from research_taste_evals.tastybench.schedule import (
    Comparison,
    adjacent_schedule,
    all_pairs_schedule,
)

README = Path(__file__).resolve().parents[1] / "src/research_taste_evals/tastybench/README.md"
BLOCK = "matched-ci"
P_RIGHT = 0.7
OPINION_R = 0.5
SEEDS = (0, 1, 2)
RESAMPLES = 1000  # the task's default bootstrap_resamples
ADJACENT_PAPERS = 37
ALL_PAIRS_PAPERS = 32  # 32 * 31 = 992 calls, the largest all-pairs design within 1,000
BUDGETS = (1000, 4000)
JUDGES = ("per-call", "opinion")
START = dt.date(2025, 1, 1)


def _view(label: dict[str, float], judge: str, rng: np.random.Generator) -> dict[str, float]:
    """The judge's fixed view of each paper: the label itself, or log label plus noise."""
    if judge == "per-call":
        return label
    noise_sd = np.sqrt(1 / OPINION_R**2 - 1)  # log labels have SD 1
    noise = rng.normal(0.0, noise_sd, len(label))
    return {p: float(np.log(v)) + e for (p, v), e in zip(label.items(), noise, strict=True)}


def _judge(pairs: list[Comparison], view: dict[str, float], rng: np.random.Generator) -> list:
    """(winner, loser) per shown pair: the paper viewed higher wins with probability P_RIGHT."""
    right = rng.random(len(pairs)) < P_RIGHT
    out = []
    for (a, b), ok in zip(pairs, right, strict=True):
        better, worse = (a, b) if view[a] > view[b] else (b, a)
        out.append((better, worse) if ok else (worse, better))
    return out


def _bt_half_width(
    pairs: list[Comparison], label: dict[str, float], judge: str, seed: int
) -> float:
    rng = np.random.default_rng(seed + 1)
    comparisons = _judge(pairs, _view(label, judge, rng), rng)
    ratings = bradley_terry(comparisons, paper_ids=list(label))
    corr = rank_correlation_with_ci(ratings, label, "spearman", seed=seed, resamples=RESAMPLES)
    return (corr["ci_high"] - corr["ci_low"]) / 2


def _labels(count: int, rng: np.random.Generator) -> dict[str, float]:
    return {f"p{i:05d}": float(v) for i, v in enumerate(rng.lognormal(1.0, 1.0, count))}


def adjacent(budget: int, judge: str, seed: int) -> tuple[int, float]:
    label = _labels(ADJACENT_PAPERS, np.random.default_rng(seed))
    pairs = adjacent_schedule(list(label), budget // (ADJACENT_PAPERS - 1), seed)
    return len(pairs), _bt_half_width(pairs, label, judge, seed)


def all_pairs(budget: int, judge: str, seed: int) -> tuple[int, float]:
    label = _labels(ALL_PAIRS_PAPERS, np.random.default_rng(seed))
    design = ALL_PAIRS_PAPERS * (ALL_PAIRS_PAPERS - 1)
    pairs = [p for copy in range(budget // design) for p in all_pairs_schedule(list(label), copy)]
    return len(pairs), _bt_half_width(pairs, label, judge, seed)


def matched(budget: int, judge: str, seed: int) -> tuple[int, float]:
    rng = np.random.default_rng(seed)
    label = _labels(budget, rng)  # budget / 2 pairs, two calls each
    view = _view(label, judge, rng)
    days = rng.integers(0, 365, len(label))
    items = [
        MatchItem(pid, START + dt.timedelta(days=int(day)), value)
        for (pid, value), day in zip(label.items(), days, strict=True)
    ]
    scores = []
    right = rng.random(budget) < P_RIGHT
    for pair in match_papers(items, seed).pairs:
        for k, (a, b) in enumerate(((pair.first, pair.second), (pair.second, pair.first))):
            ok = right[2 * pair.pair_id + k]
            first_won = float((view[a] > view[b]) == ok)
            metadata = {"pair_id": pair.pair_id, "velocity_1": label[a], "velocity_2": label[b]}
            scores.append(
                SampleScore(score=Score(value={"first_won": first_won}), sample_metadata=metadata)
            )
    result = pairwise_accuracy_summary(scores, RESAMPLES, seed)
    return len(scores), (
        result["pairwise_accuracy_ci_high"] - result["pairwise_accuracy_ci_low"]
    ) / 2


def table() -> str:
    """The Markdown table: calls and mean half-width per schedule and budget, and the ratios."""
    lines = [
        f"Synthetic judges right with probability {P_RIGHT} per call, about the labels "
        f"(per-call) or about a fixed view of each paper with Pearson {OPINION_R} to the "
        f"log label (opinion); 95% CI half-widths, mean of {len(SEEDS)} seeds ({RESAMPLES} "
        "bootstrap resamples; `bench/matched_ci.py`).",
        "",
        "| judge | calls (budget) | adjacent, 37 papers: bt_spearman | all_pairs, 32 papers: "
        "bt_spearman | matched: pairwise_accuracy | adjacent / matched | all_pairs / matched "
        "| adjacent / matched, common scale |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for judge, budget in ((judge, budget) for judge in JUDGES for budget in BUDGETS):
        runs = {
            name: [run(budget, judge, seed) for seed in SEEDS] for name, run in SCHEDULES.items()
        }
        calls = {name: values[0][0] for name, values in runs.items()}
        width = {name: float(np.mean([w for _, w in values])) for name, values in runs.items()}
        lines.append(
            f"| {judge} | {budget:,} | ±{width['adjacent']:.3f} ({calls['adjacent']} calls) "
            f"| ±{width['all_pairs']:.3f} ({calls['all_pairs']} calls) "
            f"| ±{width['matched']:.3f} ({calls['matched']} calls) "
            f"| {width['adjacent'] / width['matched']:.1f} "
            f"| {width['all_pairs'] / width['matched']:.1f} "
            f"| {width['adjacent'] / (2 * width['matched']):.1f} |"
        )
    return "\n".join(lines)


SCHEDULES = {"adjacent": adjacent, "all_pairs": all_pairs, "matched": matched}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="also write the README block")
    args = parser.parse_args()
    started = time.perf_counter()
    text = table()
    print(text)
    if args.write:
        README.write_text(replace_block(README.read_text(encoding="utf-8"), BLOCK, text), "utf-8")
    print(f"\nelapsed {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
