"""ReviewCritique dataset-level metrics, pooled over segments (positive = deficient).

Per strategy: headline precision, recall, F1 (pooled over every segment of every review, an
undecided deficient segment counted as missed; AAAR-1.0 Table 7) with a seeded percentile
bootstrap CI of F1 that resamples papers (a paper's reviews move together); the same three on
the segments both prompts decided (``*_parsed_only``); recall per error type; segments without
a decision. Per prompt: unparsed and re-asked answers, invented, duplicate, contradictory and
omitted ids; explanation quality (ROUGE-1/2/L, BERTScore F1) as the mean over correctly
flagged segments that have a human explanation (AAAR-1.0 Table 8). Over both prompts: the
agreed ``unparsed_rate`` and ``reasked_rate`` (shares of the 2 answers per review). Undefined
values are NaN; the metric never raises.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.answers import answer_rates
from research_taste_evals.core.metrics import COUNT_KEYS, nan_on_error
from research_taste_evals.core.stats import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_BOOTSTRAP_SEED,
    NAN,
    bootstrap_ci,
    precision_recall_f1,
)
from research_taste_evals.core.task_metric import logged_figures
from research_taste_evals.reviewcritique.specs import REVIEW_CRITIQUE

STRATEGIES = ("labeling_all", "select_deficient", "both_no", "either_no")
PROMPT_NAMES = ("labeling_all", "select_deficient")
FAILURE_KEYS = ("invented_ids", "duplicate_ids", "contradictory_ids", "omitted_segments")
PARSED_ONLY = "parsed_only"
EXPLANATION_MEASURES = ("rouge1", "rouge2", "rougeL", "bertscore")
TYPE_PREFIX = "type"
TYPE_SEPARATOR = "/"


def type_key(strategy: str, error_type: str, count: str) -> str:
    """Score-value key of a per-error-type count, e.g. ``type/either_no/Neglect/tp``."""
    return TYPE_SEPARATOR.join((TYPE_PREFIX, strategy, error_type, count))


def _values(scores: Sequence[SampleScore]) -> list[dict[str, float]]:
    return [s.score.value for s in scores if isinstance(s.score.value, dict)]


def _total(values: Sequence[dict[str, float]], key: str) -> float:
    return float(sum(float(v.get(key) or 0.0) for v in values))


def pooled_prf(values: Sequence[dict[str, float]], strategy: str) -> tuple[float, float, float]:
    """Pooled precision, recall, F1 of ``strategy`` (a count prefix) over the score values."""
    counts = {key: _total(values, f"{strategy}_{key}") for key in COUNT_KEYS}
    return precision_recall_f1(counts["tp"], counts["fp"], counts["fn"])


def _paper_groups(scores: Sequence[SampleScore]) -> list[list[dict[str, float]]]:
    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    for index, sample_score in enumerate(scores):
        value = sample_score.score.value
        if not isinstance(value, dict):
            continue
        metadata = sample_score.sample_metadata or {}
        groups[str(metadata.get("paper_id", f"sample-{index}"))].append(value)
    # In paper order, not the order samples finished in: the seeded bootstrap then gives the
    # same CI when ``inspect score`` rebuilds it from the log's samples.
    return [groups[paper] for paper in sorted(groups)]


def _f1_of_papers(strategy: str) -> Callable[[Sequence[object]], float]:
    def statistic(papers: Sequence[object]) -> float:
        values = [v for paper in papers if isinstance(paper, list) for v in paper]
        return pooled_prf(values, strategy)[2]

    return statistic


def rescaled(raw_mean: float, baseline: float | None) -> float:
    """bert-score's baseline rescaling, (F1 - b) / (1 - b); linear, so it commutes with the mean."""
    if baseline is None:
        return NAN
    return (raw_mean - baseline) / (1 - baseline)


def summarise(
    scores: Sequence[SampleScore],
    resamples: int,
    seed: int,
    bertscore_baseline: float | None = None,
) -> dict[str, float]:
    """Every ReviewCritique figure (see the module docstring) as one flat dict."""
    values = _values(scores)
    papers = _paper_groups(scores)
    result: dict[str, float] = {}
    for strategy in STRATEGIES:
        precision, recall, f1 = pooled_prf(values, strategy)
        low, high = bootstrap_ci(
            papers,
            _f1_of_papers(strategy),
            resamples=resamples,
            seed=seed,
        )
        result[f"{strategy}_precision"] = precision
        result[f"{strategy}_recall"] = recall
        result[f"{strategy}_f1"] = f1
        result[f"{strategy}_f1_ci_low"] = low
        result[f"{strategy}_f1_ci_high"] = high
        result[f"{strategy}_unscored_segments"] = _total(values, f"{strategy}_unscored")
        result[f"{strategy}_undecided_deficient_segments"] = _total(
            values, f"{strategy}_undecided_deficient"
        )
        parsed = pooled_prf(values, f"{strategy}_{PARSED_ONLY}")
        for name, figure in zip(("precision", "recall", "f1"), parsed, strict=True):
            result[f"{strategy}_{name}_{PARSED_ONLY}"] = figure
    result["parsed_only_segments"] = _total(values, "parsed_only_segments")
    result.update(answer_rates(scores, answers_per_sample=len(PROMPT_NAMES)))
    for prompt in PROMPT_NAMES:
        for event in ("unparsed", "reasked"):
            result[f"{prompt}_{event}_rate"] = (
                _total(values, f"{prompt}_{event}") / len(values) if values else NAN
            )
        for key in FAILURE_KEYS:
            result[f"{prompt}_{key}"] = _total(values, f"{prompt}_{key}")
        explained = _total(values, f"{prompt}_explained")
        for measure in EXPLANATION_MEASURES:
            denominator = (
                _total(values, f"{prompt}_bertscore_scored")
                if measure == "bertscore"
                else explained
            )
            total = _total(values, f"{prompt}_{measure}_sum")
            result[f"{prompt}_explanation_{measure}"] = total / denominator if denominator else NAN
        result[f"{prompt}_explanation_bertscore_rescaled"] = rescaled(
            result[f"{prompt}_explanation_bertscore"], bertscore_baseline
        )
        result[f"{prompt}_explained_segments"] = explained
    result.update(recall_by_type(values))
    return result


def recall_by_type(values: Sequence[dict[str, float]]) -> dict[str, float]:
    """Recall per strategy and error type: ``recall_by_type/<strategy>/<type>``."""
    totals: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: {"tp": 0.0, "fn": 0.0})
    for value in values:
        for key, count in value.items():
            parts = key.split(TYPE_SEPARATOR)
            if parts[0] == TYPE_PREFIX and len(parts) == 4:
                totals[(parts[1], parts[2])][parts[3]] += float(count or 0.0)
    result = {}
    for (strategy, error_type), counts in sorted(totals.items()):
        scored = counts["tp"] + counts["fn"]
        result[f"recall_by_type/{strategy}/{error_type}"] = counts["tp"] / scored if scored else NAN
    return result


def metric_keys() -> list[str]:
    """The fixed keys of :func:`summarise` (per-type keys depend on the data)."""
    suffixes = (
        "precision",
        "recall",
        "f1",
        "f1_ci_low",
        "f1_ci_high",
        "unscored_segments",
        "undecided_deficient_segments",
        f"precision_{PARSED_ONLY}",
        f"recall_{PARSED_ONLY}",
        f"f1_{PARSED_ONLY}",
    )
    keys = [f"{s}_{suffix}" for s in STRATEGIES for suffix in suffixes]
    keys += ["parsed_only_segments", "unparsed_rate", "reasked_rate"]
    for prompt in PROMPT_NAMES:
        keys += [f"{prompt}_unparsed_rate", f"{prompt}_reasked_rate"]
        keys += [f"{prompt}_{key}" for key in FAILURE_KEYS]
        keys += [f"{prompt}_explanation_{m}" for m in EXPLANATION_MEASURES]
        keys.append(f"{prompt}_explanation_bertscore_rescaled")
        keys.append(f"{prompt}_explained_segments")
    return keys


@metric
def reviewcritique_metrics(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
    bertscore_baseline: float | None = None,
) -> Metric:
    """All ReviewCritique figures; NaN (and a logged error) instead of raising.

    Args:
        resamples: Bootstrap resamples of papers for the F1 CIs.
        seed: Bootstrap seed.
        bertscore_baseline: bert-score's rescaling baseline for the BERTScore model in use
            (None: no rescaled BERTScore, NaN).
    """

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(
            "reviewcritique metric",
            metric_keys(),
            lambda: summarise(scores, resamples, seed, bertscore_baseline),
        )

    return compute


@metric
def reviewcritique_figures(
    resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
    bertscore_baseline: float | None = None,
) -> Metric:
    """The figures of :func:`reviewcritique_metrics` its spec names (``core/task_metric.py``)."""
    bundle = [reviewcritique_metrics(resamples, seed, bertscore_baseline)]
    return logged_figures(REVIEW_CRITIQUE.first_names(), bundle)
