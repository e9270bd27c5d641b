"""Dataset-level metrics of the idea-pair task (Mule et al., section 6.1 and appendix B).

Each reads the per-pair ``Score.value`` (see ``scorer.py``) and the sample metadata. Values may
be epoch means: accuracies stay means, and a ranking verdict counts by its sign. Every metric
returns NaN where it is undefined and never raises (a failure is logged and reported as NaN).

- ``consistency_accuracy``: consistency-aware accuracy (headline; chance 25%) with a seeded
  bootstrap 95% CI, consistency rate, conditional accuracy on consistent pairs (B.9),
  single-order accuracy, unparsed and re-asked rates (shares of the 2N answers).
- ``tier_accuracy``: accuracy and consistency per sigma tier (Table 2).
- ``leaderboard_ranking`` (B.10, ``mode=ranking`` only, where every C(n, 2) pair of each
  leaderboard with >= 3 ideas is asked): ideas ranked by consistent wins (inconsistent
  comparisons dropped; ties share the best rank); Top-1 counted only where >= 2 distinct ranks
  are predicted; RMSE between true and predicted ranks (median over leaderboards, as Table
  12, and mean). On tier pairs alone (``mode=pairs``) these would not be the paper's figures
  (an oracle would score Top-1 0.77), so that mode does not report them.
- ``calibration`` (B.11): Brier, ECE and MCE (10 bins) of the position-debiased probability,
  over the pairs that have one; how many do, and how many lack one.
- ``bias_report`` (7.4, B.7.6): accuracy on pairs where the longer (newer) idea is better minus
  where the shorter (older) one is, with a seeded bootstrap over pair units (B = 10,000), 95%
  percentile CI and two-sided p-value.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.answers import answer_rates
from research_taste_evals.core.metrics import nan_on_error, score_dict
from research_taste_evals.core.resampling import bootstrap_subset_difference
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_SEED, NAN, bootstrap_ci
from research_taste_evals.ideapairs.calibration import (
    DEFAULT_CALIBRATION_BINS,
    brier_score,
    expected_calibration_error,
    maximum_calibration_error,
)

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

PAPER_BOOTSTRAP_RESAMPLES = 10_000  # appendix B.7.6: B = 10,000
MIN_RANKED_IDEAS = 3  # appendix B.10: leaderboards with at least 3 unique ideas
MIN_DISTINCT_RANKS = 2  # appendix B.10: Top-1 only where >= 2 different ranks are predicted
TIERS = (1, 2, 3)
BIAS_FIELDS = ("delta", "ci_low", "ci_high", "p_value", "p_value_paper", "n_a", "n_b")


def _values(scores: list[SampleScore], key: str) -> np.ndarray:
    import numpy as np

    return np.array([float(score_dict(s).get(key, NAN)) for s in scores], dtype=float)


def _ratio(top: float, bottom: float) -> float:
    return top / bottom if bottom > 0 else NAN


def accuracy_summary(scores: list[SampleScore]) -> dict[str, float]:
    """Headline accuracy and consistency figures over the pairs."""
    import numpy as np

    if not scores:
        return dict.fromkeys(ACCURACY_KEYS, NAN) | {"pairs": 0.0}
    correct, consistent = _values(scores, "correct"), _values(scores, "consistent")
    single = np.concatenate(
        [_values(scores, "original_correct"), _values(scores, "swapped_correct")]
    )
    return {
        "accuracy": float(np.mean(correct)),
        "consistency": float(np.mean(consistent)),
        "conditional_accuracy": _ratio(float(np.sum(correct)), float(np.sum(consistent))),
        "single_order_accuracy": float(np.mean(single)),
        **answer_rates(scores, answers_per_sample=2),  # two orders per pair
        "pairs": float(len(scores)),
    }


def accuracy_with_ci(scores: list[SampleScore]) -> dict[str, float]:
    """The accuracy figures and a seeded 95% percentile bootstrap CI of accuracy over pairs.

    Small test splits are common here (the NLP-progress build has 10 test pairs): the CI
    says how little such a split can tell apart. The recall twins (``recall.py``) apply it to
    their subsets.
    """
    import numpy as np

    correct = list(_values(scores, "correct"))
    low, high = bootstrap_ci(correct, lambda picks: float(np.mean(picks)))  # type: ignore[arg-type]
    return accuracy_summary(scores) | {"accuracy/ci_low": low, "accuracy/ci_high": high}


ACCURACY_KEYS = [
    "accuracy",
    "consistency",
    "conditional_accuracy",
    "single_order_accuracy",
    "unparsed_rate",
    "reasked_rate",
]


@metric
def consistency_accuracy() -> Metric:
    """Consistency-aware accuracy (chance 25%), consistency, conditional accuracy, unparsed rate."""

    def compute(scores: list[SampleScore]) -> Value:
        keys = [*ACCURACY_KEYS, "pairs", "accuracy/ci_low", "accuracy/ci_high"]
        return nan_on_error(
            "idea_pairs metric consistency_accuracy", keys, lambda: accuracy_with_ci(scores)
        )

    return compute


def tier_summary(scores: list[SampleScore]) -> dict[str, float]:
    """Accuracy and consistency per sigma tier (NaN for a tier without pairs)."""
    result = {}
    for tier in TIERS:
        members = [s for s in scores if (s.sample_metadata or {}).get("tier") == tier]
        summary = accuracy_summary(members)
        result[f"accuracy/{tier}sigma"] = summary["accuracy"]
        result[f"consistency/{tier}sigma"] = summary["consistency"]
        result[f"pairs/{tier}sigma"] = float(len(members))
    return result


@metric
def tier_accuracy() -> Metric:
    """Accuracy, consistency and pair count for each sigma tier."""

    def compute(scores: list[SampleScore]) -> Value:
        keys = [f"{k}/{t}sigma" for t in TIERS for k in ("accuracy", "consistency", "pairs")]
        return nan_on_error("idea_pairs metric tier_accuracy", keys, lambda: tier_summary(scores))

    return compute


def ranking_summary(scores: list[SampleScore]) -> dict[str, float]:
    """Top-1 accuracy and rank RMSE over leaderboards (appendix B.10)."""
    import numpy as np
    from scipy.stats import rankdata  # imported here: slow import (registry start-up)

    truth: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    wins: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for s in scores:
        meta = s.sample_metadata or {}
        board = (str(meta.get("benchmark_id")), str(meta.get("split")))
        for idea, facts in (meta.get("ideas") or {}).items():
            truth[board][idea] = float(facts["unified_score"])
            wins[board][idea] += 0.0
        verdict = float(score_dict(s).get("verdict", 0.0))
        if verdict > 0:
            wins[board][meta["better_id"]] += 1
        elif verdict < 0:
            wins[board][meta["worse_id"]] += 1
    rmses, top1 = [], []
    for board, scores_by_idea in truth.items():
        ideas = sorted(scores_by_idea)
        if len(ideas) < MIN_RANKED_IDEAS:
            continue
        true_rank = rankdata([-scores_by_idea[i] for i in ideas], method="min")
        predicted = rankdata([-wins[board][i] for i in ideas], method="min")
        rmses.append(float(np.sqrt(np.mean((true_rank - predicted) ** 2))))
        if len(set(predicted)) >= MIN_DISTINCT_RANKS:
            top1.append(
                float(any(p == 1 for t, p in zip(true_rank, predicted, strict=True) if t == 1))
            )
    return {
        "top1_accuracy": float(np.mean(top1)) if top1 else NAN,
        "rank_rmse_median": float(np.median(rmses)) if rmses else NAN,
        "ranking/rmse_mean": float(np.mean(rmses)) if rmses else NAN,
        "ranking/leaderboards": float(len(rmses)),
        "ranking/leaderboards_top1": float(len(top1)),
    }


@metric
def leaderboard_ranking() -> Metric:
    """Per-leaderboard idea ranking from consistent pairwise wins: Top-1 accuracy and rank RMSE."""

    def compute(scores: list[SampleScore]) -> Value:
        keys = [
            "top1_accuracy",
            "rank_rmse_median",
            "ranking/rmse_mean",
            "ranking/leaderboards",
            "ranking/leaderboards_top1",
        ]
        return nan_on_error(
            "idea_pairs metric leaderboard_ranking", keys, lambda: ranking_summary(scores)
        )

    return compute


def calibration_summary(
    scores: list[SampleScore], bins: int = DEFAULT_CALIBRATION_BINS
) -> dict[str, float]:
    """Brier, ECE, MCE of p~ over pairs that have it; how many did, and the logprob share."""
    import numpy as np

    p, y = _values(scores, "p_debiased"), _values(scores, "y")
    keep = np.isfinite(p)
    p, y = np.clip(p[keep], 0.0, 1.0), y[keep]
    source = _values(scores, "p_from_logprobs")
    return {
        "brier": brier_score(list(p), list(y.astype(int))),
        "ece": expected_calibration_error(list(p), list(y.astype(int)), bins),
        "mce": maximum_calibration_error(list(p), list(y.astype(int)), bins),
        "calibration/pairs": float(keep.sum()),
        # Pairs without p~ (an order unparsed or without a probability): counted, not dropped.
        "calibration/pairs_without_probability": float((~keep).sum()),
        "calibration/logprob_share": float(np.nanmean(source))
        if np.isfinite(source).any()
        else NAN,
    }


@metric
def calibration(bins: int = DEFAULT_CALIBRATION_BINS) -> Metric:
    """Brier, ECE and MCE of the position-debiased probability (appendix B.11)."""

    def compute(scores: list[SampleScore]) -> Value:
        keys = [
            "brier",
            "ece",
            "mce",
            "calibration/pairs",
            "calibration/pairs_without_probability",
            "calibration/logprob_share",
        ]
        return nan_on_error(
            "idea_pairs metric calibration", keys, lambda: calibration_summary(scores, bins)
        )

    return compute


def bias_summary(scores: list[SampleScore], resamples: int, seed: int) -> dict[str, float]:
    """Length and recency bias: accuracy difference, bootstrap CI and p-value for each."""
    correct = _values(scores, "correct")
    result = {}
    for name, key in (("length", "longer_better"), ("recency", "newer_better")):
        flags = [(s.sample_metadata or {}).get(key) for s in scores]
        stats = bootstrap_subset_difference(
            list(correct),
            [flag is True for flag in flags],
            [flag is False for flag in flags],
            resamples=resamples,
            seed=seed,
        )
        for field in BIAS_FIELDS:
            result[f"{name}_bias/{field}"] = stats[field]
    return result


@metric
def bias_report(
    resamples: int = PAPER_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """Length and recency bias with a seeded paired bootstrap over pair units (appendix B.7.6)."""

    def compute(scores: list[SampleScore]) -> Value:
        keys = [f"{n}_bias/{f}" for n in ("length", "recency") for f in BIAS_FIELDS]
        return nan_on_error(
            "idea_pairs metric bias_report", keys, lambda: bias_summary(scores, resamples, seed)
        )

    return compute
