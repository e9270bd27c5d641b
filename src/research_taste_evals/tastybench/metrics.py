"""TastyBench dataset-level metrics: ratings vs velocity, their reliability, the picks' habits.

- ``tastybench_ratings``: Bradley-Terry (headline, ``bt_*``) and upstream's sequential Elo
  (``elo_*``, kept for comparison with upstream), each with Spearman rho and Kendall tau against
  velocity, seeded bootstrap 95% CIs over papers and the Spearman controlling for publication
  month (``*_partial_spearman``); ``elo_upstream_rank_pearson`` is upstream's own statistic.
- ``tastybench_reliability``: split-half Spearman of each rating (halves split by unordered
  pair, so repeats of a pair never straddle the halves) and its Spearman-Brown correction.
- ``tastybench_recall``: the headline's recall twins (``recall.py``, ``core/recall_metrics.py``):
  ``bt_spearman_clean`` (comparisons between two clean papers: after the run's clean cutoff,
  not recognised), ``bt_spearman_post_cutoff`` (two papers after the stated cutoff) and
  ``bt_spearman_unrecognized``, with CIs and counts, ``recognized_rate`` and the cutoff figures.
- ``tastybench_decisions``: position bias, order consistency, unclear rate, comparisons used
  and total, pairwise agreement with velocity, extractor rate and extractor failure rate.

Unclear picks are left out of every rating and rate except ``unclear_rate``. Every metric
returns NaN when undefined and never raises (a raising metric marks the whole log as failed).
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.answers import answer_rates
from research_taste_evals.core.metric_groups import (
    FiguresOf,
    bundle_figures,
    details_metric,
    first_group,
    first_group_metric,
)
from research_taste_evals.core.metrics import nan_on_error
from research_taste_evals.core.recall_metrics import recall_keys, recall_summary
from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    NAN,
)
from research_taste_evals.tastybench.matched import tastybench_pairwise
from research_taste_evals.tastybench.ratings import (
    DECISION_KEYS,
    RATING_KEYS,
    RELIABILITY_KEYS,
    collect,
    decision_summary,
    rating_summary,
    reliability_summary,
)
from research_taste_evals.tastybench.recall import (
    MATCHED_TWINS,
    TASTYBENCH,
    bt_statistic,
    pairwise_statistic,
)


@metric
def tastybench_ratings(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """Bradley-Terry (headline) and Elo rank correlations with citation velocity, with CIs."""

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "tastybench metric ratings",
            RATING_KEYS,
            lambda: rating_summary(collect(scores), resamples, seed),
        )

    return compute


@metric
def tastybench_reliability(seed: int = DEFAULT_BOOTSTRAP_SEED) -> Metric:
    """Split-half Spearman of the ratings and its Spearman-Brown correction, per method."""

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "tastybench metric reliability",
            RELIABILITY_KEYS,
            lambda: reliability_summary(collect(scores), seed),
        )

    return compute


@metric
def tastybench_decisions() -> Metric:
    """Position bias, order consistency, unclear rate, comparisons, agreement, extractor rates.

    Also the agreed ``unparsed_rate`` (answers neither the parser nor the extractor could read;
    ``unclear_rate`` adds failed extractor calls) and ``reasked_rate`` (0: an unclear answer
    goes to the extractor, never back to the judge).
    """

    def compute(scores: list[SampleScore]) -> Value:
        decisions = nan_on_error(
            "tastybench metric decisions", DECISION_KEYS, lambda: decision_summary(collect(scores))
        )
        return decisions | answer_rates(scores)

    return compute


@metric
def tastybench_recall(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """``bt_spearman`` on clean, post-cutoff and unrecognised papers, and the cutoff figures."""
    summary = recall_summary(TASTYBENCH, bt_statistic(resamples, seed))
    matched = recall_summary(MATCHED_TWINS, pairwise_statistic(resamples, seed), run_lines=False)
    own = [k for k in recall_keys(MATCHED_TWINS) if k not in recall_keys(TASTYBENCH)]
    keys = recall_keys(TASTYBENCH) + own

    def both(scores: list[SampleScore]) -> dict[str, float]:
        # schedule=matched: pairwise_accuracy's twins too (NaN, unlogged, for other schedules).
        is_matched = any((s.sample_metadata or {}).get("pair_id") is not None for s in scores)
        twins = matched(scores) if is_matched else {}
        return summary(scores) | {key: twins.get(key, NAN) for key in own}

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error("tastybench metric recall", keys, lambda: both(scores))

    return compute


def tastybench_metrics(resamples: int, seed: int) -> list[Metric]:
    """The ``tastybench`` task's dataset-level metrics (ratings, recall, reliability, decisions).

    Their figures form both score groups (``tastybench_headline``, ``tastybench_figures``);
    scipy is imported when the task builds them (``scorer.tastybench_scorers``), not here: the
    scorers' declarations build these when the registry is imported.
    """
    return [
        tastybench_ratings(resamples=resamples, seed=seed),
        tastybench_recall(resamples=resamples, seed=seed),
        tastybench_reliability(seed=seed),
        tastybench_decisions(),
        tastybench_pairwise(resamples=resamples, seed=seed),
    ]


def _all_figures(resamples: int, seed: int) -> FiguresOf:
    return bundle_figures(f"tastybench:{resamples}:{seed}", tastybench_metrics(resamples, seed))


def first_names(scores: list[SampleScore]) -> tuple[str, ...]:
    """The first group for the run's schedule: ``matched`` (pairwise accuracy is the headline)
    or ``ratings`` (the other schedules), as eval.yaml's ``first_group`` lists them."""
    matched = any((s.sample_metadata or {}).get("pair_id") is not None for s in scores)
    return first_group(__file__, "tastybench", "matched" if matched else "ratings")


@metric
def tastybench_headline(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """The first score group for the run's schedule (eval.yaml ``first_group``)."""
    return first_group_metric(_all_figures(resamples, seed), first_names)


@metric
def tastybench_figures(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """Every other figure of the ``tastybench`` metrics (the second score group)."""
    return details_metric(_all_figures(resamples, seed), first_names)


# ``tastybench_extract``
@metric
def extraction_rate() -> Metric:
    """Share of papers with a usable text; ``unparsed_rate``: replies without non-empty tags;
    ``withheld_rate``: texts withheld for naming their paper (``-T anonymize=true``).

    ``reasked_rate`` is 0: a reply without tags is not asked again.
    """

    def compute(scores: list[SampleScore]) -> Value:
        values = [float(score.score.as_float()) for score in scores]
        withheld = [1.0 if (s.score.metadata or {}).get("leaks") else 0.0 for s in scores]
        rate = sum(values) / len(values) if values else NAN
        leaked = sum(withheld) / len(withheld) if withheld else NAN
        return {
            "extraction_rate": rate,
            "unparsed_rate": 1.0 - rate - leaked,
            "withheld_rate": leaked,
            "reasked_rate": 0.0 if values else NAN,
        }

    return compute
