"""The typed reasons a sample or a sub-score is left unscored, shared by every benchmark.

A scorer that cannot score sets ``Score(reason=...)`` (Inspect's field) to one of these (and
counts it in a metric), so a reader filters and counts failures the same way in every log.
Inspect's own :data:`inspect_ai.scorer.ScoreReason` values are used where they fit
(``invalid_response_format``, ``grader_failed``); the package adds three of its own.
"""

from __future__ import annotations

from typing import Literal

from inspect_ai.scorer import ScoreReason

UnscoredReason = (
    ScoreReason
    | Literal[
        "empty_prediction",  # the answer parsed but held nothing to score
        "model_error",  # the provider failed for this sample after retries
        "context_overflow",  # the prompt did not fit the model's context (model_length)
    ]
)
INVALID_RESPONSE_FORMAT: UnscoredReason = "invalid_response_format"
GRADER_FAILED: UnscoredReason = "grader_failed"
EMPTY_PREDICTION: UnscoredReason = "empty_prediction"
MODEL_ERROR: UnscoredReason = "model_error"
CONTEXT_OVERFLOW: UnscoredReason = "context_overflow"
# Inspect's stop reason for a prompt longer than the model's context (API providers, local/).
OVERFLOW_STOP_REASON = "model_length"
