"""The typed reasons a sample or a sub-score is left unscored, shared by every benchmark.

A scorer that cannot score puts one of these in ``Score.metadata["reason"]`` (and counts it
in a metric), so a reader filters and counts failures the same way in every log.
"""

from __future__ import annotations

from typing import Literal

UnscoredReason = Literal[
    "invalid_response_format",  # the evaluated model's answer did not parse
    "grader_failed",  # the judge/grader panel gave no usable grade (below quorum, errors)
    "empty_prediction",  # the answer parsed but held nothing to score
    "model_error",  # the provider failed for this sample after retries
    "context_overflow",  # the prompt did not fit the model's context (stop_reason model_length)
]
INVALID_RESPONSE_FORMAT: UnscoredReason = "invalid_response_format"
GRADER_FAILED: UnscoredReason = "grader_failed"
EMPTY_PREDICTION: UnscoredReason = "empty_prediction"
MODEL_ERROR: UnscoredReason = "model_error"
CONTEXT_OVERFLOW: UnscoredReason = "context_overflow"
# Inspect's stop reason for a prompt longer than the model's context (API providers, local/).
OVERFLOW_STOP_REASON = "model_length"
