"""The figures of ExpDesign and PaperWeakness: one metric per task (``core/task_metric.py``).

Each task's scorer logs the figures its spec names (``specs.py``: the headline, its clean twin
with n and the recall-control figures, the paper's Table 4/5 figures, the failure rates); the
log holds them all. EqInfer's metric is in ``eqinfer.py``.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, metric

from research_taste_evals.aaar.itf_idf_metrics import itf_idf_papers, itf_idf_score
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
from research_taste_evals.core.metrics import answer_shape, empty_prediction_rate
from research_taste_evals.core.task_metric import logged_figures

# Each task's metrics, in the order their figures are named (``core.task_metric.figures``).
_EXPDESIGN = (
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
)
_WEAKNESS = (
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
)


@metric
def expdesign_figures() -> Metric:
    """ExpDesign's figures: those its spec names."""
    return logged_figures(EXPDESIGN.first_names(), _EXPDESIGN)


@metric
def weakness_figures() -> Metric:
    """PaperWeakness's figures: those its spec names."""
    return logged_figures(PAPER_WEAKNESS.first_names(), _WEAKNESS)
