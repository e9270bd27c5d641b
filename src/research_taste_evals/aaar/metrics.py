"""AAAR-1.0 dataset-level metrics: the per-sample means and pooled counts of the family.

Per-sample numbers live in ``Score.value`` (so they survive epochs); these metrics aggregate
them as the released metric scripts do (Lou et al. 2024, Section 4 and Appendix B.1;
RenzeLou/AAAR-1.0 ``scripts/subtask1_equation_model_eval_binary.py``,
``subtask2_metric_llm_as_judge.py``, ``subtask3_metric.py``).
Strict metrics keep their plain names; ``faithful_*`` metrics score the same answers with the
release code's parsing (a failed parse forced to the wrong label / to 0), for comparison with
the paper. A metric never raises: an undefined value is NaN.
PaperWeakness's ITF-IDF (a run-level diversity score over every paper's list) and its epoch
reducer are in ``itf_idf_metrics.py``.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, Score, Value, metric

from research_taste_evals.core.metrics import (
    decision_accuracy,
    decision_f1,
    decision_precision,
    decision_recall,
    key_mean,
    key_ratio,
    score_dict,
)

FAITHFUL_PREFIX = "faithful_"


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
