from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from inspect_ai.model import ModelName
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.itf_idf_metrics import (
    ITF_IDF_EMBEDDINGS_KEY,
    itf_idf_score,
    pack_embeddings,
    unpack_embeddings,
)
from research_taste_evals.aaar.metrics import s_f1
from research_taste_evals.aaar.scorer.paper_weakness import weakness_scorer
from research_taste_evals.aaar.similarity import itf_idf
from research_taste_evals.aaar.solvers import PREDICTED_WEAKNESSES_KEY
from research_taste_evals.core.embeddings import OFFLINE_MODEL


def _unit(rows: list[list[float]]) -> np.ndarray:
    array = np.array(rows, dtype=np.float32)
    return array / np.linalg.norm(array, axis=1, keepdims=True)


def test_pack_unpack_is_exact() -> None:
    vectors = np.random.default_rng(0).normal(size=(3, 5)).astype(np.float32)
    packed = pack_embeddings(vectors)
    assert packed["shape"] == [3, 5] and isinstance(packed["data"], str)
    assert np.array_equal(unpack_embeddings(packed), vectors)
    with pytest.raises(ValueError, match="dtype"):
        unpack_embeddings({**packed, "dtype": "float16"})


def _with_embeddings(
    vectors: np.ndarray | None, value: dict[str, float] | None = None
) -> SampleScore:
    metadata = {} if vectors is None else {ITF_IDF_EMBEDDINGS_KEY: pack_embeddings(vectors)}
    return SampleScore(score=Score(value=value or {"s_f1": 0.5}, metadata=metadata), sample_id="x")


def test_itf_idf_metric_reads_packed_embeddings_and_never_raises() -> None:
    papers = [_unit([[1, 0, 0], [0, 1, 0]]), _unit([[1, 0.1, 0]]), _unit([[0, 0, 1]])]
    scores = [_with_embeddings(p) for p in papers]
    assert itf_idf_score()(scores) == pytest.approx(itf_idf(papers))
    # Hand-worked: paper 3's only item is unlike anything else: O = 1, R = 1, score ln(1)*ln(3)=0;
    # paper 1 item 1 ~ paper 2 (cos 0.995 -> 1.0): O = 1, R = 2 -> ln(2/1) * ln(3/2).
    expected_paper_1 = (math.log(2) * math.log(3 / 2) + math.log(2) * math.log(3)) / 2
    expected_paper_2 = math.log(1) * math.log(3 / 2)
    assert itf_idf(papers) == pytest.approx((expected_paper_1 + expected_paper_2 + 0.0) / 3)
    assert math.isnan(itf_idf_score()([]))
    assert math.isnan(itf_idf_score()([*scores, _with_embeddings(None)]))
    broken = SampleScore(
        score=Score(value={"s_f1": 0.5}, metadata={ITF_IDF_EMBEDDINGS_KEY: {"dtype": "float32"}}),
        sample_id="y",
    )
    assert math.isnan(itf_idf_score()([*scores, broken]))
    empty = _with_embeddings(np.zeros((0, 3), np.float32))
    assert math.isnan(itf_idf_score()([*scores, empty]))  # itf_idf refuses an empty list


def test_s_metrics_skip_nan_papers() -> None:
    scores = [
        _with_embeddings(None, {"s_f1": 0.4}),
        _with_embeddings(None, {"s_f1": math.nan}),
        _with_embeddings(None, {"s_f1": 0.0}),
    ]
    assert s_f1()(scores) == pytest.approx(0.2)


def test_weakness_scoring_never_blocks_the_event_loop(
    slow_encode: float, watch_event_loop: Callable[..., Any]
) -> None:
    slow_seconds = slow_encode
    score_fn = weakness_scorer(OFFLINE_MODEL, OFFLINE_MODEL)
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id="p1",
        epoch=1,
        input="paper",
        messages=[],
        metadata={"reviewer_weaknesses": [["No ablation study."], [], ["Unclear writing."]]},
    )
    state.store.set(PREDICTED_WEAKNESSES_KEY, ["1. The ablation is missing."])

    score = watch_event_loop(lambda: score_fn(state, Target("")), 0.75 * slow_seconds)
    assert isinstance(score.value, dict) and 0.0 < score.value["s_f1"] < 1.0
    assert score.metadata is not None
    assert unpack_embeddings(score.metadata[ITF_IDF_EMBEDDINGS_KEY]).shape == (1, 384)
