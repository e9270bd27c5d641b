"""A run's picks -> ratings -> correlations with citation velocity (what the metrics report).

The scorer stores, per sample, numbers that survive Inspect's reduction (``first_won``,
``unclear``, ``agree``, ``extractor_used``, ``extractor_failed``); :func:`collect` rebuilds the
comparison list from those values and the sample metadata, sorted by ``seq`` (the schedule
order), so ratings never depend on the order in which concurrent samples finished.

Ratings: Bradley-Terry (the headline: order-invariant) and sequential Elo (upstream's rating,
kept so our numbers compare with upstream's). Upstream's own correlation statistic, Pearson on
ordinal ranks (``model-elicitation/compare.py`` in parviam/tastybench), is
:func:`upstream_rank_pearson`.

``schedule=matched``'s headline (:func:`pairwise_accuracy_summary`; the rounds' too): only pairs
judged in both orders count (a run cut by Inspect's ``--limit`` or ``--sample-id`` may keep one
order of a pair: such a pair is left out and counted in ``matched_incomplete_pairs``). A
decision (one order of one pair) is right when the pick has the higher label; an unclear answer
is a wrong decision (it stays in the denominator and is counted in ``matched_unclear``).
``pairwise_accuracy`` is the share of decisions that are right, which is the mean over pairs of
the share of its two orders that are right, so a judge that only follows position scores
exactly 0.5. Its 95% CI is a seeded percentile bootstrap over pairs (the independent unit).
``pairwise_accuracy_consistent`` is the share of pairs all of whose decisions are right (both
orders; position-only judges score 0).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.scorer import SampleScore

from research_taste_evals.core.pairing import decision_correct
from research_taste_evals.core.resampling import rank_correlation_with_ci
from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    MIN_CORRELATION_POINTS,
    NAN,
    RankMethod,
    bootstrap_ci,
    partial_spearman,
)
from research_taste_evals.tastybench.pairwise import (
    Decision,
    bradley_terry,
    elo_ratings,
    order_consistency,
    position_bias_rate,
    split_half_reliability,
)
from research_taste_evals.tastybench.schedule import ORDERS_PER_PAIR

SCORER_NAME = "tastybench_scorer"
CORRELATIONS: tuple[RankMethod, ...] = ("spearman", "kendall")
# Bradley-Terry first: it is the headline rating. Elo is upstream's (sequential, order-dependent).
RATING_METHODS: dict[str, Callable[..., dict[str, float]]] = {
    "bt": bradley_terry,
    "elo": elo_ratings,
}
UPSTREAM_COMPARABLE_METRIC = "elo_upstream_rank_pearson"


def _as_float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return NAN


def publication_month(pub_date: Any) -> float:
    """Months since year 0 of an ISO date (``2024-03-15`` -> 2024 * 12 + 2); NaN if absent."""
    try:
        day = dt.date.fromisoformat(str(pub_date)[:10])
    except ValueError:
        return NAN
    return float(day.year * 12 + day.month - 1)


@dataclass
class RunJudgements:
    """A run's picks in schedule order, rebuilt from sample scores."""

    decisions: list[Decision] = field(default_factory=list)
    paper_ids: list[str] = field(default_factory=list)
    truth: dict[str, float] = field(default_factory=dict)
    pub_month: dict[str, float] = field(default_factory=dict)
    total: int = 0
    unclear: int = 0
    agree: list[float] = field(default_factory=list)
    extractor_used: float = 0.0
    extractor_failed: float = 0.0

    @property
    def comparisons(self) -> list[tuple[str, str]]:
        """(winner, loser) in schedule order."""
        return [
            (winner, first if winner == second else second)
            for first, second, winner in self.decisions
        ]


def collect(scores: list[SampleScore]) -> RunJudgements:
    """Rebuild the run's decisions (ordered by metadata ``seq``) and ground truth.

    A ``first_won`` that is neither 0 nor 1 (unclear, or averaged over Inspect epochs) is not
    a decision and is counted as unclear.
    """
    rows = []
    for sample_score in scores:
        metadata = sample_score.sample_metadata or {}
        value = sample_score.score.value
        if not isinstance(value, dict) or "paper_1" not in metadata:
            continue
        rows.append((_as_float(metadata.get("seq")), metadata, value))
    rows.sort(key=lambda row: row[0])
    run = RunJudgements(total=len(rows))
    seen: dict[str, None] = {}
    for _, metadata, value in rows:
        first, second = str(metadata["paper_1"]), str(metadata["paper_2"])
        seen.setdefault(first)
        seen.setdefault(second)
        for paper, position in ((first, "1"), (second, "2")):
            run.truth[paper] = _as_float(metadata.get(f"velocity_{position}"))
            run.pub_month[paper] = publication_month(metadata.get(f"pub_date_{position}"))
        run.extractor_used += _as_float(value.get("extractor_used")) or 0.0
        failed = _as_float(value.get("extractor_failed"))
        run.extractor_failed += 0.0 if math.isnan(failed) else failed
        first_won = _as_float(value.get("first_won"))
        if first_won not in (0.0, 1.0):
            run.unclear += 1
            continue
        run.decisions.append((first, second, first if first_won == 1.0 else second))
        agree = _as_float(value.get("agree"))
        if not math.isnan(agree):
            run.agree.append(agree)
    run.paper_ids = list(seen)
    return run


def descending_positions(values: Mapping[str, float]) -> dict[str, int]:
    """Position of each id when sorted by value, highest first (0 = highest).

    Upstream's ordinal rank (``compare.py``: ``sort_values(ascending=False)`` then
    ``rank = range(n)``). Ties keep their insertion order in ``values`` (a stable sort); pandas'
    default quicksort makes no promise about tie order, so stable is the reproducible choice
    and agrees with pandas whenever pandas' sort happens to be stable.
    """
    import numpy as np

    keys = list(values)
    scores = np.asarray([values[key] for key in keys], dtype=float)
    order = np.argsort(-scores, kind="stable")
    return {keys[index]: position for position, index in enumerate(order)}


def upstream_rank_pearson(ratings: Mapping[str, float], truth: Mapping[str, float]) -> float:
    """Upstream's correlation: Pearson between ordinal ranks (paper-faithful mode).

    Each map is ranked on its own (:func:`descending_positions` over ALL of its ids), then ids
    present in both are joined and Pearson's r is taken between the two rank columns. This
    equals Spearman's rho when there are no ties and no ids missing from either side; ties are
    broken by position instead of averaged. NaN when undefined (fewer than three joined ids or
    a constant column), never raises.
    """
    import numpy as np

    rating_ranks = descending_positions(ratings)
    truth_ranks = descending_positions(truth)
    common = [key for key in rating_ranks if key in truth_ranks]
    xs = np.asarray([rating_ranks[key] for key in common], dtype=float)
    ys = np.asarray([truth_ranks[key] for key in common], dtype=float)
    if len(common) < MIN_CORRELATION_POINTS or np.all(xs == xs[0]) or np.all(ys == ys[0]):
        return NAN
    from scipy import stats as scipy_stats  # imported here: slow import (registry start-up)

    return float(scipy_stats.pearsonr(xs, ys).statistic)


def partial_rho(
    ratings: Mapping[str, float], truth: Mapping[str, float], control: Mapping[str, float]
) -> float:
    """Spearman of ratings vs truth controlling for ``control`` (publication month)."""
    ids = sorted(
        key
        for key in ratings.keys() & truth.keys() & control.keys()
        if all(math.isfinite(m[key]) for m in (ratings, truth, control))
    )
    columns: list[Sequence[float]] = [[m[key] for key in ids] for m in (ratings, truth, control)]
    return partial_spearman(*columns)


def rate_run(run: RunJudgements) -> dict[str, dict[str, float]]:
    """{"bt": {paper: rating}, "elo": {...}} for the run's decisions (empty when none)."""
    return {
        name: rate(run.comparisons, paper_ids=run.paper_ids) if run.decisions else {}
        for name, rate in RATING_METHODS.items()
    }


def rating_summary(run: RunJudgements, resamples: int, seed: int) -> dict[str, float]:
    """Both ratings' correlations with velocity (rho, tau, bootstrap CIs, partial rho)."""
    result: dict[str, float] = {}
    ratings = rate_run(run)
    for name, rated in ratings.items():
        for method in CORRELATIONS:
            corr = rank_correlation_with_ci(
                rated, run.truth, method, seed=seed, resamples=resamples
            )
            result[f"{name}_{method}"] = corr["rho"]
            result[f"{name}_{method}_ci_low"] = corr["ci_low"]
            result[f"{name}_{method}_ci_high"] = corr["ci_high"]
            result["papers_correlated"] = corr["n"]
        result[f"{name}_partial_spearman"] = partial_rho(rated, run.truth, run.pub_month)
    finite_truth = {key: value for key, value in run.truth.items() if math.isfinite(value)}
    elo = ratings["elo"]
    result[UPSTREAM_COMPARABLE_METRIC] = upstream_rank_pearson(elo, finite_truth) if elo else NAN
    return result


RATING_KEYS = [
    f"{name}_{label}{suffix}"
    for name in RATING_METHODS
    for label in CORRELATIONS
    for suffix in ("", "_ci_low", "_ci_high")
] + [f"{name}_partial_spearman" for name in RATING_METHODS]
RATING_KEYS += ["papers_correlated", UPSTREAM_COMPARABLE_METRIC]
RELIABILITY_KEYS = [
    f"{name}_{kind}" for name in RATING_METHODS for kind in ("split_half", "spearman_brown")
]
DECISION_KEYS = [
    "position_bias",
    "order_consistency",
    "unclear_rate",
    "comparisons_used",
    "comparisons_total",
    "pairwise_agreement",
    "extractor_rate",
    "extractor_failure_rate",
]


def reliability_summary(run: RunJudgements, seed: int) -> dict[str, float]:
    """Split-half Spearman (halves split by unordered pair) and Spearman-Brown, per rating."""
    result = {}
    for name, rate in RATING_METHODS.items():
        half, corrected = split_half_reliability(
            run.comparisons, rate, seed=seed, paper_ids=run.paper_ids
        )
        result[f"{name}_split_half"] = half
        result[f"{name}_spearman_brown"] = corrected
    return result


def decision_summary(run: RunJudgements) -> dict[str, float]:
    """Position bias, order consistency, unclear rate, counts and agreement with velocity."""
    return {
        "position_bias": position_bias_rate(run.decisions),
        "order_consistency": order_consistency(run.decisions),
        "unclear_rate": run.unclear / run.total if run.total else NAN,
        "comparisons_used": float(len(run.decisions)),
        "comparisons_total": float(run.total),
        "pairwise_agreement": sum(run.agree) / len(run.agree) if run.agree else NAN,
        "extractor_rate": run.extractor_used / run.total if run.total else NAN,
        "extractor_failure_rate": run.extractor_failed / run.total if run.total else NAN,
    }


PAIRWISE_KEYS = [
    "pairwise_accuracy",
    "pairwise_accuracy_ci_low",
    "pairwise_accuracy_ci_high",
    "pairwise_accuracy_consistent",
    "matched_pairs",
    "matched_unclear",
    "matched_incomplete_pairs",
]


def _decision(metadata: dict[str, Any], value: object) -> tuple[float, bool] | None:
    """(1.0 right / 0.0 wrong, unclear?) of one sample (``core.pairing.decision_correct``; an
    unclear pick counts as wrong); None when its pair has no right answer."""
    first_won = value.get("first_won") if isinstance(value, dict) else None
    correct = decision_correct(first_won, metadata.get("velocity_1"), metadata.get("velocity_2"))
    if correct is None:
        return None
    return (0.0, True) if math.isnan(correct) else (correct, False)


def pairwise_accuracy_summary(
    scores: list[SampleScore],
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> dict[str, float]:
    """Every figure of ``PAIRWISE_KEYS`` from the matched samples among ``scores``.

    Samples without a ``pair_id`` (other schedules) are ignored: ``matched_pairs`` 0 and NaN
    elsewhere. A pair with one order judged is left out and counted
    (``matched_incomplete_pairs``). Any subset of a run's samples works (the recall twins pass
    one).
    """
    by_pair: dict[Any, list[tuple[float, bool]]] = {}
    for sample_score in scores:
        metadata = sample_score.sample_metadata or {}
        if metadata.get("pair_id") is None:
            continue
        decision = _decision(metadata, sample_score.score.value)
        if decision is not None:
            by_pair.setdefault(metadata["pair_id"], []).append(decision)
    result: dict[str, float] = dict.fromkeys(PAIRWISE_KEYS, NAN)
    result["matched_incomplete_pairs"] = float(
        sum(len(pair) < ORDERS_PER_PAIR for pair in by_pair.values())
    )
    by_pair = {key: pair for key, pair in by_pair.items() if len(pair) >= ORDERS_PER_PAIR}
    result["matched_pairs"] = float(len(by_pair))
    result["matched_unclear"] = float(sum(u for pair in by_pair.values() for _, u in pair))
    if not by_pair:
        return result
    units = [(sum(right for right, _ in pair), len(pair)) for pair in by_pair.values()]

    def accuracy(sample: Sequence[object]) -> float:
        pairs: Sequence[tuple[float, int]] = sample  # type: ignore[assignment]
        return sum(right for right, _ in pairs) / sum(n for _, n in pairs)

    low, high = bootstrap_ci(units, accuracy, resamples=resamples, seed=seed)
    result["pairwise_accuracy"] = accuracy(units)
    result["pairwise_accuracy_ci_low"], result["pairwise_accuracy_ci_high"] = low, high
    result["pairwise_accuracy_consistent"] = sum(right == n for right, n in units) / len(units)
    return result


# The recall twins' statistics (bt_spearman_clean and its kin, ``core/recall_metrics.py``): the
# headline on a subset of comparisons. Bradley-Terry is fitted on those comparisons alone (a
# comparison with a known paper would leak through the fit), Spearman against velocity over the
# papers they connect, with the headline's seeded bootstrap CI; fewer than three connected
# papers: NaN, with the reason logged.
HEADLINE = "bt_spearman"


def pairwise_statistic(
    resamples: int, seed: int
) -> Callable[[list[SampleScore]], dict[str, float]]:
    """``pairwise_accuracy`` with its CI on a subset of a matched run (``n``: its pairs)."""

    def statistic(scores: list[SampleScore]) -> dict[str, float]:
        values = pairwise_accuracy_summary(scores, resamples, seed)
        return values | {"n": values["matched_pairs"]}

    return statistic


def subset_bt_spearman(scores: list[SampleScore], resamples: int, seed: int) -> dict[str, float]:
    """Bradley-Terry on these comparisons alone, Spearman over the papers they connect.

    Returns ``bt_spearman`` with its CI, ``n`` (connected papers) and ``comparisons``.
    """
    run = collect(scores)
    connected = list(dict.fromkeys(paper for decision in run.decisions for paper in decision[:2]))
    counts = {"n": float(len(connected)), "comparisons": float(len(run.decisions))}
    if len(connected) < MIN_CORRELATION_POINTS:
        return {HEADLINE: NAN, f"{HEADLINE}_ci_low": NAN, f"{HEADLINE}_ci_high": NAN} | counts
    ratings = bradley_terry(run.comparisons, paper_ids=connected)
    truth = {paper: run.truth[paper] for paper in connected}
    corr = rank_correlation_with_ci(ratings, truth, "spearman", seed=seed, resamples=resamples)
    return {
        HEADLINE: corr["rho"],
        f"{HEADLINE}_ci_low": corr["ci_low"],
        f"{HEADLINE}_ci_high": corr["ci_high"],
    } | counts


def bt_statistic(resamples: int, seed: int) -> Callable[[list[SampleScore]], dict[str, float]]:
    """:func:`subset_bt_spearman` with the run's bootstrap settings (the twins' statistic)."""
    return lambda scores: subset_bt_spearman(scores, resamples, seed)
