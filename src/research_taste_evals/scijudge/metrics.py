"""Dataset-level SciJudgeBench metrics: the figures the log holds (``core/task_metric.py``).

``Score.value`` of one answer (one order of a couple, ``scorer.py``): ``correct`` (an unparsed
answer is wrong, as the paper scores a prediction it cannot extract), ``unparsed``,
``reasked``, ``picked_a`` (NaN when unparsed).

The headline is the paper's "pairwise accuracy with position-swap consistency" (arXiv
2603.14473 section 4.1): a couple (a row and its swapped twin, ``dataset.py``) is right only
when both its orders are; a pair's figure is the share of its couples right (one couple a pair
on today's Hub files, ~5 on the old file's ~10 variations), and ``accuracy`` the mean over pairs
(chance 0.25; an always-A model scores 0). Its 95% CI is a seeded percentile bootstrap
resampling pairs (``core.stats.bootstrap_ci``). A pair with an order missing (``--limit``, an
errored sample) is left out of it and counted (``incomplete_pairs``). Under epochs Inspect
reduces each answer over its epochs first (mean), and a couple counts the product of its two
orders' means (exact for one epoch).

- :func:`scijudge_metrics`: every figure: ``accuracy`` with its CI, ``pairs``,
  ``incomplete_pairs``, ``accuracy_single_order`` (mean over answers, chance 0.5) and per order
  (``accuracy_order/given``, ``/swapped``), ``answers``, the clean twin ``accuracy_clean`` with
  its CI, ``clean_pairs`` and ``clean_items``, ``recognized_rate``, ``estimated_cutoff``,
  ``unparsed_rate``, ``reasked_rate``, ``accuracy_by_variation/<v>`` and their spread
  (max - min), ``position_a_share`` (share of the read answers that pick A),
  ``accuracy_by_category/<c>`` and the other recall figures (post-cutoff and unrecognised
  twins, counts, cutoff figures).
- :func:`scijudge_figures`: the task's metric, the figures its spec names (``specs.py``).

Every figure is NaN where undefined, never 0, and a metric never raises.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import defaultdict
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.answers import answer_rates
from research_taste_evals.core.cutoff_estimate import month_end
from research_taste_evals.core.dates import is_post_cutoff
from research_taste_evals.core.metrics import nan_on_error, score_dict
from research_taste_evals.core.recall_items import item_records
from research_taste_evals.core.recall_metrics import recall_keys, recall_summary
from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    NAN,
    bootstrap_ci,
)
from research_taste_evals.core.task_metric import logged_figures
from research_taste_evals.scijudge.specs import SCIJUDGE

HEADLINE = SCIJUDGE.headline  # the statistic the twins compute under its name

HEADLINE_RECALL_KEYS = (
    "accuracy_clean",
    "accuracy_clean_ci_low",
    "accuracy_clean_ci_high",
    "clean_pairs",
    "recognized_rate",
    "estimated_cutoff",
)
ORDERS = ("given", "swapped")
HEADLINE_KEYS = (
    "accuracy",
    "accuracy_ci_low",
    "accuracy_ci_high",
    "pairs",
    "incomplete_pairs",
    "accuracy_single_order",
    "answers",
    *HEADLINE_RECALL_KEYS,
    "clean_items",
    "unparsed_rate",
    "reasked_rate",
)
_SLUG = re.compile(r"[^a-z0-9]+")


def _meta(score: SampleScore) -> dict[str, Any]:
    return score.score.metadata or {}


def _value(score: SampleScore, key: str) -> float:
    value = score_dict(score).get(key, NAN)
    return NAN if value is None else float(value)


def _couples(
    scores: list[SampleScore], every_couple: bool = True
) -> tuple[dict[str, list[float]], set[str]]:
    """Each complete pair's couples (1 when both orders are right, else 0; under epochs the
    product of the two orders' means) and the pairs with an order missing (or, when
    ``every_couple``, a whole couple: figures per variation read one couple of each pair)."""
    orders: dict[str, dict[str, float]] = defaultdict(dict)
    pair_of: dict[str, str] = {}
    expected: dict[str, int] = {}
    for score in scores:
        meta = _meta(score)
        couple, pair = str(meta.get("couple_id")), str(meta.get("pair_id"))
        orders[couple][str(meta.get("order"))] = _value(score, "correct")
        pair_of[couple] = pair
        expected[pair] = int(meta.get("couples") or 1) if every_couple else 1
    by_pair: dict[str, list[float]] = defaultdict(list)
    incomplete: set[str] = set()
    for couple, values in orders.items():
        if set(values) != set(ORDERS):
            incomplete.add(pair_of[couple])
            continue
        by_pair[pair_of[couple]].append(values["given"] * values["swapped"])
    incomplete |= {pair for pair, values in by_pair.items() if len(values) < expected[pair]}
    return {p: v for p, v in by_pair.items() if p not in incomplete}, incomplete


def pair_accuracies(scores: list[SampleScore], every_couple: bool = True) -> dict[str, float]:
    """Each complete pair's share of couples right in both orders, by pair id (sorted, so the
    seeded bootstrap does not depend on the order samples finished in)."""
    complete, _ = _couples(scores, every_couple)
    return {pair: sum(values) / len(values) for pair, values in sorted(complete.items())}


def incomplete_pairs(scores: list[SampleScore]) -> float:
    """Pairs left out of the headline: an order (or a whole couple) of theirs is not scored."""
    return float(len(_couples(scores)[1]))


def _mean_correct(scores: list[SampleScore]) -> float:
    values = [_value(s, "correct") for s in scores]
    return sum(values) / len(values) if values else NAN


def accuracy_statistic(scores: list[SampleScore], resamples: int, seed: int) -> dict[str, float]:
    """Pair-weighted accuracy, its pair-bootstrap CI and ``n`` (the pairs)."""
    means = list(pair_accuracies(scores).values())
    if not means:
        return {HEADLINE: NAN, f"{HEADLINE}_ci_low": NAN, f"{HEADLINE}_ci_high": NAN, "n": 0.0}
    low, high = bootstrap_ci(
        means,
        lambda picked: sum(picked) / len(picked),  # type: ignore[arg-type]
        resamples=resamples,
        seed=seed,
    )
    return {
        HEADLINE: sum(means) / len(means),
        f"{HEADLINE}_ci_low": low,
        f"{HEADLINE}_ci_high": high,
        "n": float(len(means)),
    }


def clean_items(scores: list[SampleScore], recall: dict[str, float]) -> float:
    """Distinct papers after the run's clean cutoff and (when probed) not recognised."""
    cutoff = recall.get("clean_cutoff", NAN)
    if math.isnan(cutoff):
        return NAN
    year, month = divmod(int(cutoff), 100)
    end: dt.date = month_end((year, month))
    probed = not math.isnan(recall.get("probed_items", NAN))
    return float(
        sum(
            1
            for record in item_records(scores).values()
            if record.date is not None
            and is_post_cutoff(record.date, end)
            and (record.recognized is False if probed else True)
        )
    )


def _recall(resamples: int, seed: int, run_lines: bool) -> Any:
    return recall_summary(
        SCIJUDGE, lambda scores: accuracy_statistic(scores, resamples, seed), run_lines
    )


def _slug(name: str) -> str:
    return _SLUG.sub("_", name.lower()).strip("_") or "unknown"


def _grouped(scores: list[SampleScore], key: str) -> dict[str, float]:
    """Pair-weighted accuracy within each value of the score metadata's ``key``."""
    groups: dict[str, list[SampleScore]] = defaultdict(list)
    for score in scores:
        groups[str(_meta(score).get(key))].append(score)
    every_couple = key != "variation"  # a variation is one couple of each pair
    return {
        name: float(sum(means) / len(means))
        for name, members in groups.items()
        if (means := list(pair_accuracies(members, every_couple).values()))
    }


def details_figures(scores: list[SampleScore], recall: dict[str, float]) -> dict[str, float]:
    """Per order, variation spread, position bias, categories, the other recall figures."""
    by_variation = _grouped(scores, "variation")
    picks = [v for s in scores if not math.isnan(v := _value(s, "picked_a"))]
    result = {
        f"accuracy_order/{order}": _mean_correct(
            [s for s in scores if _meta(s).get("order") == order]
        )
        for order in ORDERS
    }
    result |= {
        f"accuracy_by_variation/{name}": value
        for name, value in sorted(by_variation.items(), key=lambda kv: int(kv[0]))
    }
    result["accuracy_variation_spread"] = (
        max(by_variation.values()) - min(by_variation.values()) if by_variation else NAN
    )
    result["position_a_share"] = sum(picks) / len(picks) if picks else NAN
    for name, value in sorted(_grouped(scores, "category").items()):
        result[f"accuracy_by_category/{_slug(name)}"] = value
    shown = set(HEADLINE_RECALL_KEYS)
    return result | {key: value for key, value in recall.items() if key not in shown}


def headline_figures(
    scores: list[SampleScore], recall: dict[str, float], resamples: int, seed: int
) -> dict[str, float]:
    """The headline, its CI and n, the single-order figure, the clean twin, failure rates."""
    head = accuracy_statistic(scores, resamples, seed)
    return {
        HEADLINE: head[HEADLINE],
        "accuracy_ci_low": head["accuracy_ci_low"],
        "accuracy_ci_high": head["accuracy_ci_high"],
        "pairs": head["n"],
        "incomplete_pairs": incomplete_pairs(scores),
        "accuracy_single_order": _mean_correct(scores),
        "answers": float(len(scores)),
        **{key: recall[key] for key in HEADLINE_RECALL_KEYS},
        "clean_items": clean_items(scores, recall),
        **answer_rates(scores),
    }


@metric
def scijudge_metrics(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
) -> Metric:
    """Every SciJudgeBench figure; NaN (and a logged error) instead of raising."""
    recall = _recall(resamples, seed, run_lines=True)
    fallback = [
        *HEADLINE_KEYS,
        *(f"accuracy_order/{order}" for order in ORDERS),
        "accuracy_variation_spread",
        "position_a_share",
        *(key for key in recall_keys(SCIJUDGE) if key not in HEADLINE_KEYS),
    ]

    def compute(scores: list[SampleScore]) -> Value:
        def every_figure() -> dict[str, float]:
            twins = recall(scores)
            return headline_figures(scores, twins, resamples, seed) | details_figures(scores, twins)

        return nan_on_error("scijudge metric", fallback, every_figure)

    return compute


@metric
def scijudge_figures(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Metric:
    """The figures of :func:`scijudge_metrics` its spec names (``core/task_metric.py``)."""
    return logged_figures(SCIJUDGE.first_names(), [scijudge_metrics(resamples, seed)])
