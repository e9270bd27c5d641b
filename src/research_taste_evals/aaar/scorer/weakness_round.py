"""PaperWeakness on a round: S-Precision / S-Recall / S-F1 against the reviewers' weaknesses of a
labels version, computed as ``scorer/paper_weakness.py`` does (``soft_precision_recall`` on the
same embedder), so a round scored after resolve equals the same answers scored with the
references up front. Without references (the judgment run, or a paper not reviewed yet) the
paper is pending: its figures are NaN and ``pending_items`` counts it.

ITF-IDF (the paper's diversity score, AAAR-1.0 Section 4) compares each paper's weakness list
with the other papers' lists of the same run and needs no reference: it is computed as
``scorer/paper_weakness.py`` does (``with_placeholder`` lists on the ITF-IDF embedder, packed
into the score's metadata, ``itf_idf_metrics.itf_idf_score``), at judging and again at scoring.

``inspect score LOG --scorer research_taste_evals/round_weakness_scorer -S labels=<labels csv>
-S embedding_model=<as judged> --action overwrite`` (``research-taste round score`` passes the
judgment's own scorer options).
"""

from __future__ import annotations

import math

from inspect_ai.log import transcript
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.dataset.weakness_round import read_references
from research_taste_evals.aaar.embedding_models import ITF_IDF_MODEL, S_METRIC_MODEL, aaar_embedder
from research_taste_evals.aaar.itf_idf_metrics import (
    ITF_IDF_EMBEDDINGS_KEY,
    itf_idf_papers,
    itf_idf_score,
    pack_embeddings,
)
from research_taste_evals.aaar.metrics import s_f1, s_precision, s_recall
from research_taste_evals.aaar.similarity import soft_precision_recall, with_placeholder
from research_taste_evals.aaar.solvers import PREDICTED_WEAKNESSES_KEY
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.rounds import decision_time, read_labels
from research_taste_evals.core.stats import NAN


@metric
def pending_items() -> Metric:
    """Papers without a reference in the labels version scored (all, before resolve)."""

    def compute(scores: list[SampleScore]) -> Value:
        return float(sum(_value(s).get("pending", 0) == 1 for s in scores))

    return compute


@metric
def prospective_share() -> Metric:
    """Share of answers given before their paper's first review existed and not after the
    round's ``judge_by`` (its judging window)."""

    def compute(scores: list[SampleScore]) -> Value:
        flags = [_value(s).get("prospective") for s in scores]
        known = [f for f in flags if isinstance(f, float) and math.isfinite(f)]
        return sum(known) / len(known) if known else NAN

    return compute


def _value(sample_score: SampleScore) -> dict[str, float]:
    value = sample_score.score.value
    return value if isinstance(value, dict) else {}


ROUND_WEAKNESS_METRICS = [s_f1(), s_precision(), s_recall(), pending_items(), prospective_share()]


@scorer(metrics=[*ROUND_WEAKNESS_METRICS, itf_idf_score(), itf_idf_papers()])
def round_weakness_scorer(
    labels: str | None = None,
    embedding_model: str = S_METRIC_MODEL,
    embedding_revision: str | None = None,
    embedding_device: str = "cpu",
    itf_idf_model: str = ITF_IDF_MODEL,
    itf_idf_revision: str | None = None,
) -> Scorer:
    """The stored weakness list of a round's paper against a labels version's references, and
    its ITF-IDF embeddings (label-free)."""
    references = read_references(labels) if labels else {}
    label_table = read_labels(labels) if labels else None
    embedder = aaar_embedder(embedding_model, embedding_revision, embedding_device)
    itf_embedder = aaar_embedder(itf_idf_model, itf_idf_revision, embedding_device, "itf_idf_model")

    async def score(state: TaskState, target: Target) -> Score:
        predicted: list[str] = state.store.get(PREDICTED_WEAKNESSES_KEY, [])
        paper_id = str(state.metadata["paper_id"])
        reviewers = references.get(paper_id) or []
        decided = decision_time(transcript().events)
        label = label_table.label(paper_id) if label_table else None
        label_time, dropped = (label.time, label.dropped) if label else (None, "")
        judge_by = label_table.judge_by if label_table else None
        late = decided is not None and judge_by is not None and decided > judge_by
        on_time = label_time is None or (decided is not None and decided < label_time)
        prospective = 0.0 if late else float(on_time)
        value = {
            "s_precision": NAN,
            "s_recall": NAN,
            "s_f1": NAN,
            "empty_prediction": float(not predicted),
            "pending": float(not any(reviewers) and not dropped),
            "prospective": prospective,
        }
        itf_embeddings = await itf_embedder.aencode(with_placeholder(predicted))
        if any(reviewers):
            embeddings = await embedder.aencode_lists([predicted, *reviewers])
            precision, recall, f1 = soft_precision_recall(embeddings[0], embeddings[1:])
            value.update(s_precision=precision, s_recall=recall, s_f1=f1)
        return Score(
            value=value,
            answer="\n".join(predicted),
            reason=INVALID_RESPONSE_FORMAT if not predicted else None,
            metadata={
                "labels_version": label_table.version if label_table else None,
                "reviewers": len(reviewers),
                "decided_at": decided.isoformat() if decided else None,
                "embedding_model": embedder.model_id,
                "itf_idf_embedding_model": itf_embedder.model_id,
                "itf_idf_embedding_revision": itf_embedder.revision,
                ITF_IDF_EMBEDDINGS_KEY: pack_embeddings(itf_embeddings),
            },
        )

    return score
