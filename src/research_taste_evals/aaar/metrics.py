"""AAAR-1.0 dataset-level metrics (every ``@metric`` of the family).

Per-sample numbers live in ``Score.value`` (so they survive epochs); these metrics aggregate
them as the released metric scripts do (Lou et al. 2024, Section 4 and Appendix B.1;
RenzeLou/AAAR-1.0 ``scripts/subtask1_equation_model_eval_binary.py``,
``subtask2_metric_llm_as_judge.py``, ``subtask3_metric.py``,
``subtask3_metric_cross_diversity.py``).
Strict metrics keep their plain names; ``faithful_*`` metrics score the same answers with the
release code's parsing (a failed parse forced to the wrong label / to 0), for comparison with
the paper. A metric never raises: an undefined value is NaN.
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
from research_taste_evals.core.metrics import (
    decision_accuracy,
    decision_f1,
    decision_precision,
    decision_recall,
    key_mean,
    key_ratio,
    score_dict,
)
from research_taste_evals.core.stats import NAN

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

logger = logging.getLogger(__name__)

FAITHFUL_PREFIX = "faithful_"
ITF_IDF_EMBEDDINGS_KEY = "itf_idf_embeddings"
ITF_IDF_EPOCHS_KEY = "itf_idf_embeddings_by_epoch"
# ITF-IDF's w: the paper scores all 993 PaperWeakness papers (Table 3: GPT-4o 5.95).
FULL_WEAKNESS_PAPERS = 993


def _on_prefixed(inner: Metric, prefix: str) -> Metric:
    """``inner`` computed on the score keys that start with ``prefix`` (prefix removed).

    Lets the faithful decision counts reuse the one pooled-F1 implementation in core.
    """

    def compute(scores: list[SampleScore]) -> Value:
        renamed = [
            SampleScore(
                score=Score(
                    value={
                        key.removeprefix(prefix): value
                        for key, value in score_dict(sample_score).items()
                        if key.startswith(prefix)
                    }
                ),
                sample_id=sample_score.sample_id,
            )
            for sample_score in scores
        ]
        return inner(renamed)  # type: ignore[arg-type]  # core's metrics take SampleScores

    return compute


# --- EqInfer ------------------------------------------------------------------------------


@metric
def faithful_f1() -> Metric:
    """Pooled binary F1 with the release code's parsing (unreadable answers forced wrong)."""
    return _on_prefixed(decision_f1(), FAITHFUL_PREFIX)


@metric
def faithful_precision() -> Metric:
    """Pooled precision, release-code parsing (NaN when nothing is predicted positive)."""
    return _on_prefixed(decision_precision(), FAITHFUL_PREFIX)


@metric
def faithful_recall() -> Metric:
    """Pooled recall, release-code parsing."""
    return _on_prefixed(decision_recall(), FAITHFUL_PREFIX)


@metric
def faithful_accuracy() -> Metric:
    """Share of decisions right, release-code parsing."""
    return _on_prefixed(decision_accuracy(), FAITHFUL_PREFIX)


@metric
def faithful_forced_rate() -> Metric:
    """Share of decisions the release code's ``int()`` never read (forced to the wrong label)."""
    return key_mean("faithful_unparsed")


@metric
def choice_accuracy() -> Metric:
    """Share of readable four-way answers that pick the paper's equation (strict)."""
    return key_ratio("correct", "scored")


@metric
def choice_unparsed_rate() -> Metric:
    """Share of four-way answers that are not a single option letter."""
    return key_mean("unparsed")


@metric
def faithful_choice_accuracy() -> Metric:
    """Share of four-way answers that match the target after the release's normalisation."""
    return key_mean("faithful_correct")


# --- ExpDesign ----------------------------------------------------------------------------


@metric
def en_precision() -> Metric:
    """Mean over papers of the share of predicted experiments the judge finds in the reference."""
    return key_mean("en_precision")


@metric
def en_recall() -> Metric:
    """Mean over papers of the share of reference experiments the judge finds predicted."""
    return key_mean("en_recall")


@metric
def en_f1() -> Metric:
    """Mean over papers of the per-paper En-F1 (strict: failed judge calls left out)."""
    return key_mean("en_f1")


@metric
def faithful_en_precision() -> Metric:
    """En-Precision as the release code reads the judge: an answer with no 0/1 scores 0;
    provider errors are left out and counted (``judge_error_rate``)."""
    return key_mean("faithful_en_precision")


@metric
def faithful_en_recall() -> Metric:
    """En-Recall as the release code reads the judge: an answer with no 0/1 scores 0;
    provider errors are left out and counted (``judge_error_rate``)."""
    return key_mean("faithful_en_recall")


@metric
def faithful_en_f1() -> Metric:
    """En-F1 as the release code reads the judge: an answer with no 0/1 scores 0;
    provider errors are left out and counted (``judge_error_rate``)."""
    return key_mean("faithful_en_f1")


@metric
def s_match_mean() -> Metric:
    """Mean over papers of S-Match (cosine of aligned explanation pairs)."""
    return key_mean("s_match")


@metric
def rouge_1() -> Metric:
    """Mean over papers of ROUGE-1 F (aligned explanation pairs, stemming)."""
    return key_mean("rouge_1")


@metric
def rouge_l() -> Metric:
    """Mean over papers of ROUGE-L F (aligned explanation pairs, stemming)."""
    return key_mean("rouge_l")


@metric
def judge_unparsed_rate() -> Metric:
    """Share of judge answers with no 0/1 in them (all judge calls of all papers)."""
    return key_ratio("judge_unparsed", "judge_calls")


@metric
def judge_failure_rate() -> Metric:
    """Share of judge calls with no decision: unparseable, refused or a provider error."""
    return key_ratio("judge_failed", "judge_calls")


@metric
def judge_error_rate() -> Metric:
    """Share of judge calls that were provider errors, left out of the faithful_* denominators
    (upstream stops its run rather than score one) as of the strict ones."""
    return key_ratio("judge_errors", "judge_calls")


@metric
def explanation_failure_rate() -> Metric:
    """Share of papers whose explanation list never matched the experiment list's length."""
    return key_mean("explanation_failed")


# --- PaperWeakness ------------------------------------------------------------------------


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
