"""AAAR-1.0 PaperWeakness's ITF-IDF: the run-level diversity metric and what it needs.

ITF-IDF compares each paper's weakness list with every other paper's list of the same run
(Lou et al. 2024, Section 4; RenzeLou/AAAR-1.0 ``scripts/subtask3_metric_cross_diversity.py``),
so the scorer packs each list's embeddings into ``Score.metadata`` (:func:`pack_embeddings`),
the task's reducer keeps every epoch's (:func:`mean_keeping_epoch_lists`) and the metric scores
each epoch's run. A metric never raises: an undefined value is NaN.
"""

from __future__ import annotations

import base64
import logging
import math
from typing import TYPE_CHECKING, Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    ScoreReducer,
    Value,
    mean_score,
    metric,
    score_reducer,
)

from research_taste_evals.aaar.similarity import itf_idf
from research_taste_evals.core.stats import NAN

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

logger = logging.getLogger(__name__)

ITF_IDF_EMBEDDINGS_KEY = "itf_idf_embeddings"
ITF_IDF_EPOCHS_KEY = "itf_idf_embeddings_by_epoch"
# ITF-IDF's w: the paper scores all 993 PaperWeakness papers (Table 3: GPT-4o 5.95).
FULL_WEAKNESS_PAPERS = 993


def pack_embeddings(vectors: np.ndarray) -> dict[str, Any]:
    """An (m, d) array as JSON-safe metadata: shape plus base64 of the float32 bytes."""
    import numpy as np

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
    import numpy as np

    if packed.get("dtype") != "float32":
        raise ValueError(f"unsupported packed embedding dtype {packed.get('dtype')!r}")
    raw = base64.b64decode(packed["data"])
    return np.frombuffer(raw, dtype=np.float32).reshape(tuple(packed["shape"]))


@score_reducer(name="aaar_mean_keep_epochs")
def mean_keeping_epoch_lists() -> ScoreReducer:
    """Inspect's mean reducer, plus every epoch's packed ITF-IDF embeddings in the metadata.

    Inspect keeps only the first epoch's ``Score.metadata`` when it reduces epochs; ITF-IDF
    compares each paper's list with every other paper's list of the same run, so it needs each
    epoch's lists. PaperWeakness sets this as its task reducer.
    """
    mean = mean_score()

    def reduce(scores: list[Score]) -> Score:
        reduced = mean(scores)
        by_epoch = [(score.metadata or {}).get(ITF_IDF_EMBEDDINGS_KEY) for score in scores]
        return reduced.model_copy(
            update={"metadata": {**(reduced.metadata or {}), ITF_IDF_EPOCHS_KEY: by_epoch}}
        )

    return reduce


def _epoch_lists(sample_score: SampleScore) -> list[Any]:
    metadata = sample_score.score.metadata or {}
    by_epoch = metadata.get(ITF_IDF_EPOCHS_KEY)
    if isinstance(by_epoch, list) and by_epoch:
        return by_epoch
    return [metadata.get(ITF_IDF_EMBEDDINGS_KEY)]


def itf_idf_by_epoch(scores: list[SampleScore]) -> list[float]:
    """ITF-IDF of each epoch's run over all scored papers (w = papers with that epoch).

    Raises:
        ValueError: a score lacks its packed embeddings, or they cannot be used.
    """
    lists = [_epoch_lists(sample_score) for sample_score in scores]
    epochs = max((len(per_sample) for per_sample in lists), default=0)
    values = []
    for epoch in range(epochs):
        papers = []
        for per_sample in lists:
            if epoch >= len(per_sample):
                continue
            packed = per_sample[epoch]
            if not isinstance(packed, dict):
                raise ValueError("a score has no packed ITF-IDF embeddings")
            papers.append(unpack_embeddings(packed))
        values.append(itf_idf(papers))
    return values


@metric
def itf_idf_score() -> Metric:
    """ITF-IDF over all scored papers, the mean over epochs of each epoch's run.

    Depends on w, the number of papers scored: a run on fewer than the paper's 993 papers is
    not comparable with the paper's figure (:func:`warn_partial_itf_idf` says so once per run,
    when the task is built: Inspect computes metrics mid-run and at the end, so a warning here
    printed three times; ``itf_idf_papers`` records w).
    NaN (never an exception) when a score lacks its packed embeddings or they cannot be used.
    """

    def compute(scores: list[SampleScore]) -> Value:
        import numpy as np

        try:
            values = itf_idf_by_epoch(scores)
        except (KeyError, TypeError, ValueError):
            return NAN
        finite = [value for value in values if not math.isnan(value)]
        return float(np.mean(finite)) if finite else NAN

    return compute


def warn_partial_itf_idf(papers: int) -> None:
    """Warn, once per run (call it when the task is built), that ITF-IDF over ``papers`` papers
    is not comparable with the paper's figure over all 993 (w differs)."""
    if papers < FULL_WEAKNESS_PAPERS:
        logger.warning(
            "ITF-IDF over %d papers (w=%d, fewer with --limit); the paper's figure uses all "
            "%d, so this value is not comparable with it",
            papers,
            papers,
            FULL_WEAKNESS_PAPERS,
        )


@metric
def itf_idf_papers() -> Metric:
    """w of ITF-IDF: the number of papers scored (the paper's is 993)."""

    def compute(scores: list[SampleScore]) -> Value:
        return float(len(scores))

    return compute
