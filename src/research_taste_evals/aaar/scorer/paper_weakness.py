"""PaperWeakness scoring: S-Precision / S-Recall / S-F1 per paper and ITF-IDF over the dataset.

Follows RenzeLou/AAAR-1.0 ``subtask3_metric.py`` (``soft_accumulate`` with all-mpnet-base-v2,
means over all papers, an empty prediction scoring 0) and ``subtask3_metric_cross_diversity.py``
(ITF-IDF with all-MiniLM-L6-v2, an empty prediction scored as ``["None"]``). The metric functions
themselves are in :mod:`research_taste_evals.aaar.similarity`.

ITF-IDF needs every paper's predictions at once, so the scorer encodes each paper's list (in a
worker thread) and stores the float32 embeddings, base64-packed, in the score metadata; the
dataset-level metric unpacks them. Logs can thus be re-scored without the embedding model.
"""

from __future__ import annotations

import asyncio
import base64
import math
from typing import Any

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.similarity import (
    itf_idf,
    soft_precision_recall,
    with_placeholder,
)
from research_taste_evals.core.embeddings import get_embedder
from research_taste_evals.core.metrics import empty_prediction_rate, key_mean

PREDICTED_WEAKNESSES_KEY = "weakness:predicted_weaknesses"
PIECE_ANSWERS_KEY = "weakness:piece_answers"
ITF_IDF_EMBEDDINGS_KEY = "itf_idf_embeddings"
NAN = math.nan


def pack_embeddings(vectors: np.ndarray) -> dict[str, Any]:
    """An (m, d) array as JSON-safe metadata: shape plus base64 of the float32 bytes."""
    array = np.ascontiguousarray(vectors, dtype=np.float32)
    return {
        "shape": list(array.shape),
        "dtype": "float32",
        "data": base64.b64encode(array.tobytes()).decode("ascii"),
    }


def unpack_embeddings(packed: dict[str, Any]) -> np.ndarray:
    """Inverse of :func:`pack_embeddings`.

    Raises:
        ValueError: the payload is not a packed float32 array.
    """
    if packed.get("dtype") != "float32":
        raise ValueError(f"unsupported packed embedding dtype {packed.get('dtype')!r}")
    raw = base64.b64decode(packed["data"])
    return np.frombuffer(raw, dtype=np.float32).reshape(tuple(packed["shape"]))


@metric
def s_precision() -> Metric:
    """Mean over papers of S-Precision."""
    return key_mean("s_precision")


@metric
def s_recall() -> Metric:
    """Mean over papers of S-Recall."""
    return key_mean("s_recall")


@metric
def s_f1() -> Metric:
    """Mean over papers of the per-paper S-F1 (as upstream; not the F1 of the means)."""
    return key_mean("s_f1")


@metric
def itf_idf_score() -> Metric:
    """ITF-IDF over all scored papers (specificity x informativeness of predicted weaknesses).

    NaN (never an exception) when a score lacks its packed embeddings or they cannot be used.
    """

    def compute(scores: list[SampleScore]) -> Value:
        per_paper = []
        for sample_score in scores:
            packed = (sample_score.score.metadata or {}).get(ITF_IDF_EMBEDDINGS_KEY)
            if not isinstance(packed, dict):
                return NAN
            try:
                per_paper.append(unpack_embeddings(packed))
            except (KeyError, TypeError, ValueError):
                return NAN
        try:
            return itf_idf(per_paper)
        except ValueError:
            return NAN

    return compute


@scorer(metrics=[s_f1(), s_precision(), s_recall(), itf_idf_score(), empty_prediction_rate()])
def weakness_scorer(
    embedding_model: str,
    itf_idf_model: str,
    embedding_revision: str | None = None,
    itf_idf_revision: str | None = None,
    embedding_device: str = "cpu",
) -> Scorer:
    """Score one paper's combined weakness list against each reviewer's list.

    Both encodings run in worker threads, concurrently.
    """
    s_embedder = get_embedder(embedding_model, embedding_revision, embedding_device)
    itf_embedder = get_embedder(itf_idf_model, itf_idf_revision, embedding_device)

    async def score(state: TaskState, target: Target) -> Score:
        predicted: list[str] = state.store.get(PREDICTED_WEAKNESSES_KEY, [])
        reviewers: list[list[str]] = state.metadata["reviewer_weaknesses"]
        s_embeddings, itf_embeddings = await asyncio.gather(
            s_embedder.aencode_lists([predicted, *reviewers]),
            itf_embedder.aencode(with_placeholder(predicted)),
        )
        precision, recall, f1 = soft_precision_recall(s_embeddings[0], s_embeddings[1:])
        scored_reviewers = sum(1 for weaknesses in reviewers if weaknesses)
        return Score(
            value={
                "s_precision": precision,
                "s_recall": recall,
                "s_f1": f1,
                "empty_prediction": float(not predicted),
                "weaknesses": float(len(predicted)),
            },
            answer="\n".join(predicted),
            reason="invalid_response_format" if not predicted else None,
            explanation=(
                f"{len(predicted)} predicted weaknesses vs {scored_reviewers} reviewers "
                f"({sum(len(w) for w in reviewers)} weaknesses); S-P {precision:.4f}, "
                f"S-R {recall:.4f}, S-F1 {f1:.4f}"
            ),
            metadata={
                "pieces": len(state.store.get(PIECE_ANSWERS_KEY, [])),
                "embedding_model": s_embedder.model_id,
                "embedding_revision": s_embedder.revision,
                "itf_idf_embedding_model": itf_embedder.model_id,
                "itf_idf_embedding_revision": itf_embedder.revision,
                ITF_IDF_EMBEDDINGS_KEY: pack_embeddings(itf_embeddings),
            },
        )

    return score
