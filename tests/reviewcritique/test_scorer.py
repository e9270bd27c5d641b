from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai.model import ModelName
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

from research_taste_evals.reviewcritique.explanation import (
    PAPER_BERTSCORE_LAYERS,
    PAPER_BERTSCORE_MODEL,
    BertScore,
    rescale_baseline,
)
from research_taste_evals.reviewcritique.metrics import summarise
from research_taste_evals.reviewcritique.scorer import reviewcritique_scorer
from research_taste_evals.reviewcritique.solvers import ANSWERS_KEY

SEGMENTS = [
    {"id": 1, "text": "a", "deficient": True, "error_type": "Neglect", "explanation": "misses x"},
    {"id": 2, "text": "b", "deficient": False, "error_type": None, "explanation": None},
    {"id": 3, "text": "c", "deficient": True, "error_type": "Writing", "explanation": None},
]


class SlowBert(BertScore):
    """BERTScore stand-in that takes a while, like a real model on CPU."""

    def f1(self, candidates: list[str], references: list[str]) -> list[float]:
        time.sleep(0.6)
        return [0.5] * len(candidates)


def _state(answers: dict[str, str]) -> TaskState:
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id="r1",
        epoch=1,
        input="review",
        messages=[],
        metadata={"segments": SEGMENTS},
    )
    state.store.set(ANSWERS_KEY, answers)
    return state


def test_scoring_counts_and_never_blocks_the_event_loop(
    watch_event_loop: Callable[..., Any],
) -> None:
    bert = SlowBert(model="slow", revision=None, num_layers=1, paper_faithful=False)
    score_fn = reviewcritique_scorer(bert)
    labels = {"segments": [{"id": 1, "reliability": "No", "explanation": "misses x entirely"},
                           {"id": 2, "reliability": "No", "explanation": "bad"},
                           {"id": 3, "reliability": "No", "explanation": "typo"}]}  # fmt: skip
    selected = {"deficient_segments": [{"id": 1, "explanation": "misses x"}]}
    state = _state({"labeling_all": json.dumps(labels), "select_deficient": json.dumps(selected)})
    score = watch_event_loop(lambda: score_fn(state, Target("1,3")), 0.45)
    value = score.value
    assert isinstance(value, dict)
    # Hand-worked: LA flags 1,2,3 (tp 2, fp 1); SD flags 1 (tp 1, fn 1, tn 1).
    assert (value["labeling_all_tp"], value["labeling_all_fp"]) == (2.0, 1.0)
    assert (value["select_deficient_tp"], value["select_deficient_fn"]) == (1.0, 1.0)
    assert (value["both_no_tp"], value["both_no_fn"], value["both_no_tn"]) == (1.0, 1.0, 1.0)
    assert (value["either_no_tp"], value["either_no_fp"]) == (2.0, 1.0)
    # Segment 3 has no human explanation: counted, not scored; segment 1's pair is scored.
    assert value["labeling_all_explained"] == 1.0
    assert value["labeling_all_explained_no_reference"] == 1.0
    assert value["select_deficient_rouge1_sum"] == pytest.approx(1.0)
    assert value["labeling_all_bertscore_sum"] == 0.5


def test_pooled_metrics_and_seeded_bootstrap_over_papers() -> None:
    def sample(paper: str, tp: float, fp: float, fn: float) -> SampleScore:
        value = {
            "labeling_all_tp": tp,
            "labeling_all_fp": fp,
            "labeling_all_fn": fn,
            "type/labeling_all/Neglect/tp": tp,
            "type/labeling_all/Neglect/fn": fn,
        }
        return SampleScore(score=Score(value=value), sample_metadata={"paper_id": paper})

    scores = [sample("p1", 2, 1, 1), sample("p1", 0, 1, 0), sample("p2", 1, 0, 3)]
    result = summarise(scores, resamples=200, seed=7)
    # Pooled: tp 3, fp 2, fn 4 -> P 3/5, R 3/7, F1 2*3/(2*3+2+4) = 1/2.
    assert result["labeling_all_precision"] == pytest.approx(3 / 5)
    assert result["labeling_all_recall"] == pytest.approx(3 / 7)
    assert result["labeling_all_f1"] == pytest.approx(1 / 2)
    assert result["recall_by_type/labeling_all/Neglect"] == pytest.approx(3 / 7)
    # Two papers: the bootstrap F1 is one of {p1 only, p2 only, both} = {4/7, 2/5, 1/2}.
    assert result["labeling_all_f1_ci_low"] == pytest.approx(2 / 5)
    assert result["labeling_all_f1_ci_high"] == pytest.approx(4 / 7)
    again = summarise(scores, resamples=200, seed=7)
    assert again["either_no_f1_ci_low"] != again["either_no_f1_ci_low"]  # NaN: no counts
    assert again["labeling_all_f1_ci_low"] == result["labeling_all_f1_ci_low"]
    assert math.isnan(result["both_no_f1"]) and math.isnan(
        result["labeling_all_explanation_rouge1"]
    )


def test_bertscore_rescaling_uses_bert_scores_packaged_baseline() -> None:
    # bert-score's rescale_baseline/en/roberta-large.tsv, row LAYER=17, column F.
    baseline = rescale_baseline(PAPER_BERTSCORE_MODEL, PAPER_BERTSCORE_LAYERS)
    assert baseline == pytest.approx(0.83122575)
    assert rescale_baseline("no-such-model", 6) is None
    value = {"labeling_all_bertscore_sum": 1.8, "labeling_all_bertscore_scored": 2.0}
    scores = [SampleScore(score=Score(value=value), sample_metadata={"paper_id": "p"})]
    result = summarise(scores, resamples=10, seed=1, bertscore_baseline=0.8)
    assert result["labeling_all_explanation_bertscore"] == pytest.approx(0.9)
    assert result["labeling_all_explanation_bertscore_rescaled"] == pytest.approx(0.5)
    assert math.isnan(summarise(scores, 10, 1)["labeling_all_explanation_bertscore_rescaled"])
