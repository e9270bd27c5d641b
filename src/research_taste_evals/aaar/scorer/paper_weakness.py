"""PaperWeakness scoring: S-Precision / S-Recall / S-F1 per paper, and what ITF-IDF needs.

Follows RenzeLou/AAAR-1.0 ``subtask3_metric.py`` (``soft_accumulate`` with all-mpnet-base-v2,
means over all papers, an empty prediction scoring 0) and ``subtask3_metric_cross_diversity.py``
(ITF-IDF with all-MiniLM-L6-v2, an empty prediction scored as ``["None"]``). The measures are in
:mod:`research_taste_evals.aaar.similarity`, the dataset-level metrics in
:mod:`research_taste_evals.aaar.metrics` (S-*) and :mod:`research_taste_evals.aaar.itf_idf_metrics`.

ITF-IDF needs every paper's predictions at once, so the scorer encodes each paper's list (in a
worker thread) and stores the float32 embeddings, base64-packed, in the score metadata; the
task's epoch reducer keeps every epoch's copy and the metric unpacks them. Logs can thus be
re-scored without the embedding model.
"""

from __future__ import annotations

import asyncio

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.embedding_models import aaar_embedder
from research_taste_evals.aaar.itf_idf_metrics import (
    ITF_IDF_EMBEDDINGS_KEY,
    pack_embeddings,
)
from research_taste_evals.aaar.scorer.task_metrics import weakness_figures
from research_taste_evals.aaar.similarity import soft_precision_recall, with_placeholder
from research_taste_evals.aaar.solvers import PIECE_ANSWERS_KEY, PREDICTED_WEAKNESSES_KEY
from research_taste_evals.aaar.specs import PAPER_WEAKNESS
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.recall_control import recall_fields


@scorer(metrics=[weakness_figures()])
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
    s_embedder = aaar_embedder(embedding_model, embedding_revision, embedding_device)
    itf_embedder = aaar_embedder(itf_idf_model, itf_idf_revision, embedding_device, "itf_idf_model")

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
            reason=INVALID_RESPONSE_FORMAT if not predicted else None,
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
            }
            | recall_fields(PAPER_WEAKNESS, state),
        )

    return score
