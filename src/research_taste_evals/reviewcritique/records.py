"""ReviewCritique records: one paper line of either layout -> validated reviews.

The layouts and the segment fields are described in :mod:`research_taste_evals.reviewcritique.
dataset`; this module holds the pydantic models and the flattening, so that a bad line stops the
loader with one message naming the file, the paper line, the review and the field.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from research_taste_evals.core.data import DataError, describe_validation_error

PAPER_TEXT_KEYS = ("body_text", "paper_text")


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


class SegmentRecord(BaseModel):
    """One review segment as stored upstream (bare NaN = no value)."""

    model_config = ConfigDict(extra="allow")

    segment_text: str
    reliability: Literal["Yes", "No"]
    explanation: str | None = None
    error_type: str | None = None
    topic_class_1: str | None = None
    topic_class_2: str | None = None

    @field_validator("segment_text", mode="before")
    @classmethod
    def _number_as_text(cls, value: Any) -> Any:
        # A few human segments are bare numbers ("2019", "4.1") that the source parsed as JSON
        # numbers; they are text of the review, so keep them as written.
        if isinstance(value, int | float) and not isinstance(value, bool) and not _missing(value):
            return str(value)
        return value

    @field_validator("segment_text")
    @classmethod
    def _not_empty(cls, value: str) -> str:
        # An empty segment would be listed to the model as a blank line it is asked to judge.
        if not value.strip():
            raise ValueError("empty segment text")
        return value

    @field_validator("explanation", "error_type", "topic_class_1", "topic_class_2", mode="before")
    @classmethod
    def _nan_as_none(cls, value: Any) -> Any:
        return None if _missing(value) else value


class ReviewRecord(BaseModel):
    """One review of one paper, flattened from either layout."""

    title: str
    decision: str | None = None
    paper_text: str
    reviewer: str
    segments: list[SegmentRecord] = Field(min_length=1)
    score: dict[str, Any] = {}

    @field_validator("title", "paper_text")
    @classmethod
    def _has_text(cls, value: str) -> str:
        # The title is the paper's id (the bootstrap unit) and the text is what the review is
        # judged against: without either the model judges a review of nothing.
        if not value.strip():
            raise ValueError("empty")
        return value

    @field_validator("decision", mode="before")
    @classmethod
    def _nan_as_none(cls, value: Any) -> Any:
        return None if _missing(value) else value


def flatten_reviews(paper: Any, source: str) -> list[dict[str, Any]]:
    """The raw review records of one paper line, in either layout.

    Raises:
        DataError: the line is not an object, or has no paper text or no reviews.
    """
    if not isinstance(paper, dict):
        raise DataError(f"{source}: expected a JSON object, got {type(paper).__name__}")
    text_key = next((key for key in PAPER_TEXT_KEYS if key in paper), None)
    if text_key is None:
        raise DataError(f"{source}: field 'body_text' (or 'paper_text'): missing")
    if all(key in paper for key in PAPER_TEXT_KEYS) and paper["body_text"] != paper["paper_text"]:
        raise DataError(
            f"{source}: fields 'body_text' and 'paper_text' are both present and differ "
            "(keep the one that is the paper's text)"
        )
    if "reviews" in paper:
        if not isinstance(paper["reviews"], list):
            raise DataError(f"{source}: field 'reviews': expected a list")
        named = [(f"review#{k + 1}", review) for k, review in enumerate(paper["reviews"])]
    else:
        named = _keyed_reviews(paper, source)
    if not named:
        raise DataError(f"{source}: no reviews (no 'reviews' list and no key holding 'review')")
    flat = []
    for reviewer, review in named:
        if not isinstance(review, dict):
            raise DataError(f"{source}: field '{reviewer}': expected an object with 'review'")
        flat.append(
            {
                "title": paper.get("title"),
                "decision": paper.get("decision"),
                "paper_text": paper[text_key],
                "reviewer": reviewer,
                "segments": review.get("review"),
                "score": review.get("score") or {},
            }
        )
    return flat


def _keyed_reviews(paper: dict[str, Any], source: str) -> list[tuple[str, Any]]:
    """The upstream layout's reviews: every object-valued key of the paper line.

    Upstream stores nothing else as an object, so an object without ``review`` is a review
    whose key is misspelt; skipping it would silently shrink the benchmark.
    """
    named = []
    for key, value in paper.items():
        if not isinstance(value, dict):
            continue
        if "review" not in value:
            raise DataError(
                f"{source}: field '{key}': an object without 'review' (its keys: "
                f"{sorted(value)}); every object of a paper line is read as a review"
            )
        named.append((key, value))
    return named


def validate_review(raw: dict[str, Any], source: str) -> ReviewRecord:
    """Validate one flattened review; the error names the paper line, the review and the field."""
    try:
        return ReviewRecord.model_validate(raw)
    except ValidationError as error:
        reviewer = raw.get("reviewer")
        raise DataError(
            f"{source}, review '{reviewer}': {describe_validation_error(error)}"
        ) from error
