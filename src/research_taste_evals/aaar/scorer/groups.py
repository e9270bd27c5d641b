"""The two score groups of ExpDesign and PaperWeakness (``core/metric_groups.py``).

Each task's scorer reports the first group (eval.yaml ``first_group``: the headline, its clean
twin with n, ``recognized_rate``, ``estimated_cutoff``, the paper's comparable figure, the
failure rates); ``expdesign_details`` and ``weakness_details`` copy its score (no model call)
and report every other figure, under the names the single group gave them. EqInfer reports at
most eleven figures: one group.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, Scorer, metric, scorer

from research_taste_evals.aaar.itf_idf_metrics import (
    ITF_IDF_EMBEDDINGS_KEY,
    itf_idf_papers,
    itf_idf_score,
)
from research_taste_evals.aaar.metrics import (
    en_f1,
    en_precision,
    en_recall,
    explanation_failure_rate,
    faithful_en_f1,
    faithful_en_precision,
    faithful_en_recall,
    judge_error_rate,
    judge_failure_rate,
    judge_unparsed_rate,
    rouge_1,
    rouge_l,
    s_f1,
    s_match_mean,
    s_precision,
    s_recall,
)
from research_taste_evals.aaar.recall import recall_twins
from research_taste_evals.aaar.specs import EXPDESIGN, PAPER_WEAKNESS
from research_taste_evals.core.metric_groups import (
    bundle_figures,
    copy_score,
    details_metric,
    first_group_metric,
)
from research_taste_evals.core.metrics import answer_shape, empty_prediction_rate

# The metrics each scorer declared when they were one group, in that order (their names).
_EXPDESIGN = bundle_figures(
    "expdesign",
    [
        en_f1(),
        recall_twins(EXPDESIGN),
        en_precision(),
        en_recall(),
        faithful_en_f1(),
        faithful_en_precision(),
        faithful_en_recall(),
        s_match_mean(),
        rouge_l(),
        rouge_1(),
        judge_unparsed_rate(),
        judge_failure_rate(),
        judge_error_rate(),
        empty_prediction_rate(),
        # unparsed_rate: answers with no list item to read (= empty_prediction_rate);
        # reasked_rate: whole-list explanations asked again (upstream's retries).
        answer_shape(unparsed_key="empty_prediction"),
        explanation_failure_rate(),
    ],
)
# ITF-IDF reads every paper's packed embeddings: first-group figures, so the copy leaves them out.
_WEAKNESS_FIRST_ONLY = (ITF_IDF_EMBEDDINGS_KEY,)
_WEAKNESS = bundle_figures(
    "paper_weakness",
    [
        s_f1(),
        recall_twins(PAPER_WEAKNESS),
        s_precision(),
        s_recall(),
        itf_idf_score(),
        itf_idf_papers(),
        empty_prediction_rate(),
        # unparsed_rate: answers with no list item in any piece (= empty_prediction_rate);
        # reasked_rate: 0, no answer is asked again (as released).
        answer_shape(unparsed_key="empty_prediction"),
    ],
    ignore=_WEAKNESS_FIRST_ONLY,
)


def _expdesign_names(scores: list[SampleScore]) -> tuple[str, ...]:
    return EXPDESIGN.first_names()


def _weakness_names(scores: list[SampleScore]) -> tuple[str, ...]:
    return PAPER_WEAKNESS.first_names()


@metric
def expdesign_headline() -> Metric:
    """ExpDesign's first score group (eval.yaml ``first_group``)."""
    return first_group_metric(_EXPDESIGN, _expdesign_names)


@metric
def expdesign_figures() -> Metric:
    """Every other ExpDesign figure (the second score group)."""
    return details_metric(_EXPDESIGN, _expdesign_names)


@metric
def weakness_headline() -> Metric:
    """PaperWeakness's first score group (eval.yaml ``first_group``)."""
    return first_group_metric(_WEAKNESS, _weakness_names)


@metric
def weakness_figures() -> Metric:
    """Every other PaperWeakness figure (the second score group)."""
    return details_metric(_WEAKNESS, _weakness_names)


@scorer(metrics=[expdesign_figures()])
def expdesign_details(of: str = "expdesign_scorer") -> Scorer:
    """The second score group: a copy of ``expdesign_scorer``'s score, every other figure."""
    return copy_score(of)


@scorer(metrics=[weakness_figures()])
def weakness_details(of: str = "weakness_scorer") -> Scorer:
    """The second score group: a copy of ``weakness_scorer``'s score without the embeddings."""
    return copy_score(of, without=_WEAKNESS_FIRST_ONLY)
