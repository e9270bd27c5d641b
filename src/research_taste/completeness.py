"""Whether a run scored every sample it was asked to: the one test reports use for "partial".

Inspect records the counts itself: ``EvalResults.total_samples`` (samples x epochs asked for)
and ``completed_samples`` (those that finished without error), and each scorer's metric block
(``EvalScore``) carries ``scored_samples``. With ``--no-fail-on-error`` (or a
``fail_on_error`` fraction) a run that lost samples still ends with status ``success`` and its
metrics cover only what remained, so a reader must compare the counts: this module is where
that comparison lives.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.log import EvalLog

# Keys of the block returned by run_completeness (reports and leaderboards read these names).
SAMPLES_TOTAL = "samples_total"
SAMPLES_COMPLETED = "samples_completed"
PARTIAL = "partial"


def run_completeness(log: EvalLog) -> dict[str, Any]:
    """``{samples_total, samples_completed, partial, scored_samples: {scorer: n}}`` of a log.

    ``partial`` is True when the run did not end as ``success``, has no results, completed fewer
    samples than it was asked for, or a scorer's metric block covers fewer samples than
    completed. Works on a header-only log (``read_eval_log(..., header_only=True)``).
    """
    results = log.results
    if results is None:
        dataset = log.eval.dataset.samples or 0
        total = dataset * (log.eval.config.epochs or 1)
        return {SAMPLES_TOTAL: total, SAMPLES_COMPLETED: 0, PARTIAL: True, "scored_samples": {}}
    scored = {
        score.name: score.scored_samples
        for score in results.scores
        if score.scored_samples is not None
    }
    short_block = any(count < results.completed_samples for count in scored.values())
    partial = (
        log.status != "success" or results.completed_samples < results.total_samples or short_block
    )
    return {
        SAMPLES_TOTAL: results.total_samples,
        SAMPLES_COMPLETED: results.completed_samples,
        PARTIAL: partial,
        "scored_samples": scored,
    }
