"""ReviewCritique data: one Sample per peer review, its segments labelled deficient or not.

Du et al. (2024), "LLMs Assist NLP Researchers: Critique Paper (Meta-)Reviewing" (EMNLP 2024,
arXiv:2406.16253), data at jiangshdd/ReviewCritique @ 629932bc; reused as the fourth task of
AAAR-1.0 (Lou et al., 2024, Sections 3.4 / 5.4).

LICENSE: the data is under the "Apache NON-AI License, Version 2.0": it may be used for
evaluation, analysis and benchmarking only, NEVER in an AI training set or to train a model.

Two layouts are read, one JSON object per line, both with bare ``NaN`` tokens (Python's json
accepts them; they mean "no value"):

- upstream (``data/ReviewCritique.jsonl``, ``data/ReviewCritique_LLM.jsonl``): ``title``,
  ``decision``, ``body_text`` and one key per review (``review#1``... for human reviews, the
  model name for LLM reviews) holding ``{"review": [segment, ...], "score": {...}}``;
- derived (the third-party re-serialisation many people have): ``title``, ``decision``,
  ``paper_text`` and ``reviews``, a list of those review objects (keys dropped; we name them
  ``review#k`` by position).

A segment is ``{segment_text, topic_class_1, topic_class_2, reliability "Yes"|"No",
explanation, error_type}``; "No" marks a deficient segment, the positive class.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample

from research_taste_evals.core.data import (
    DataError,
    PinnedFile,
    ResolvedData,
    git_blob_id,
    read_jsonl,
    resolve_data,
)
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.text import content_id, fill_template, first_words
from research_taste_evals.reviewcritique.prompts import REVIEW_CONTEXT, SEGMENT_LINE
from research_taste_evals.reviewcritique.records import (
    ReviewRecord,
    flatten_reviews,
    validate_review,
)

Subset = Literal["human", "llm"]
SUBSETS: tuple[Subset, ...] = ("human", "llm")
UPSTREAM_REPO = "jiangshdd/ReviewCritique"
UPSTREAM_COMMIT = "629932bcfa31879b1df1e011e3cd7188aa3b9b46"
_RAW_BASE = f"https://github.com/{UPSTREAM_REPO}/raw/{UPSTREAM_COMMIT}/data/"
# Digests from the upstream tree at the pinned commit; only the git blob id of the human file
# is published, and it pins the bytes as firmly as a sha256.
PINNED_FILES: dict[Subset, PinnedFile] = {
    "human": PinnedFile(
        url=_RAW_BASE + "ReviewCritique.jsonl",
        sha256=None,
        filename="ReviewCritique.jsonl",
        git_blob="41428e6a74c197def46ccad51fe4b191259a0482",
    ),
    "llm": PinnedFile(
        url=_RAW_BASE + "ReviewCritique_LLM.jsonl",
        sha256="96e1fe6ca1a92f90e5063809c7f05197872fa4cfa2ffebd737c6a6d2db3b48f7",
        filename="ReviewCritique_LLM.jsonl",
        git_blob="db400bb4ed2bbcd1ae6c7500437d562c79602044",
    ),
}
LICENSE_NOTE = (
    "ReviewCritique (Du et al., 2024) is under the Apache NON-AI License 2.0: evaluation, "
    "analysis and benchmarking only; never use it to train a model or in a training set."
)
# Neither paper states a paper-text budget; this keeps every paper of both files whole (the
# longest has 23,628 words), so truncation only happens when a user asks for it.
DEFAULT_PAPER_WORDS = 30_000
UNSPECIFIED_ERROR_TYPE = "Unspecified"
DEFICIENT = "No"


def normalise_error_type(raw: str | None) -> str:
    """Group spelling variants ("out-of-scope", "Misinterpret Novelty "): trim, capitalise."""
    if raw is None or not raw.strip():
        return UNSPECIFIED_ERROR_TYPE
    text = " ".join(raw.split())
    return text[0].upper() + text[1:]


def data_files(path: Path) -> list[Path]:
    """The JSON-lines files at ``path``: the file itself, or every ``*.jsonl`` in a folder."""
    if path.is_file():
        return [path]
    files = sorted(path.glob("*.jsonl"))
    if not files:
        raise DataError(f"{path}: no *.jsonl files in this folder")
    return files


def load_reviews(path: Path) -> tuple[list[ReviewRecord], int]:
    """Validated reviews of every file at ``path``, with reviews repeated across files dropped.

    The derived subset's files overlap (the same paper drawn twice, identical content); a review
    whose content id was already read is counted and skipped.

    Returns:
        ``(reviews, duplicates_dropped)``.
    """
    reviews: list[ReviewRecord] = []
    seen: set[str] = set()
    duplicates = 0
    for file in data_files(path):
        for line_number, paper in enumerate(read_jsonl(file), start=1):
            source = f"{file}: paper {line_number}"
            for raw in flatten_reviews(paper, source):
                record = validate_review(raw, source)
                key = review_id(record)
                if key in seen:
                    duplicates += 1
                    continue
                seen.add(key)
                reviews.append(record)
    if not reviews:  # Inspect would stop later with "dataset is empty", naming no file
        raise DataError(
            f"{path}: no papers with reviews (the file is empty or has blank lines only); "
            "give a ReviewCritique JSON-lines file, one paper per line"
        )
    return reviews, duplicates


def load_reviewcritique(
    subset: Subset, data_path: str | None = None
) -> tuple[list[ReviewRecord], ResolvedData, int]:
    """Reviews of the pinned upstream file for ``subset``, or of a local file or folder.

    Evaluation only: the license forbids training on this data (see ``LICENSE_NOTE``).
    """
    if subset not in SUBSETS:
        raise ValueError(f"subset must be one of {SUBSETS}, got {subset!r}")
    resolved = resolve_data(PINNED_FILES[subset], data_path)
    reviews, duplicates = load_reviews(resolved.path)
    return reviews, resolved, duplicates


def matches_pinned(path: Path, subset: Subset) -> bool:
    """Whether ``path`` is byte-identical to the pinned upstream file of ``subset``."""
    return path.is_file() and git_blob_id(path) == PINNED_FILES[subset].git_blob


def review_id(record: ReviewRecord) -> str:
    """Stable id from the paper title and the review's segments and labels (not the file order)."""
    return content_id(
        record.title,
        [(s.segment_text, s.reliability) for s in record.segments],
    )


def paper_id(title: str) -> str:
    """Stable id of a paper (the bootstrap unit): its title."""
    return content_id(" ".join(title.split()).lower())


def record_to_sample(record: ReviewRecord, paper_words: int) -> Sample:
    """One review -> one Sample. Pure.

    Reads: ``title``, ``decision``, ``paper_text`` (first ``paper_words`` words kept),
    ``reviewer``, ``score``, and per segment ``segment_text``, ``reliability``,
    ``explanation``, ``error_type``. Segment ids are 1-based positions in the review.
    """
    words_total = len(record.paper_text.split())
    paper = first_words(record.paper_text, paper_words)
    segments = [
        {
            "id": index,
            "text": segment.segment_text,
            "deficient": segment.reliability == DEFICIENT,
            "error_type": normalise_error_type(segment.error_type)
            if segment.reliability == DEFICIENT
            else None,
            "error_type_raw": segment.error_type,
            "explanation": segment.explanation,
        }
        for index, segment in enumerate(record.segments, start=1)
    ]
    listing = "\n".join(
        fill_template(SEGMENT_LINE, id=str(s["id"]), text=" ".join(str(s["text"]).split()))
        for s in segments
    )
    context = fill_template(
        REVIEW_CONTEXT, title=record.title.strip(), paper=paper, segments=listing
    )
    deficient_ids = [s["id"] for s in segments if s["deficient"]]
    return Sample(
        id=review_id(record),
        input=context,
        target=",".join(str(i) for i in deficient_ids),
        metadata={
            "paper_id": paper_id(record.title),
            "title": record.title,
            "decision": record.decision,
            "reviewer": record.reviewer,
            "review_scores": {str(k): str(v) for k, v in record.score.items()},
            "segments": segments,
            "paper_words_total": words_total,
            "paper_words_kept": min(words_total, paper_words),
            "paper_truncated": words_total > paper_words,
            "license": LICENSE_NOTE,
        },
    )


def reviewcritique_dataset(
    reviews: list[ReviewRecord], paper_words: int, name: str
) -> MemoryDataset:
    """The Inspect dataset of ``reviews``, one Sample each."""
    if paper_words <= 0:
        raise ValueError(f"paper_words must be positive, got {paper_words}")
    return MemoryDataset([record_to_sample(r, paper_words) for r in reviews], name=name)


def count_segments(reviews: list[ReviewRecord]) -> dict[str, int]:
    """Papers, reviews, segments and deficient segments (for metadata and checks)."""
    segments = [s for r in reviews for s in r.segments]
    return {
        "papers": len({paper_id(r.title) for r in reviews}),
        "reviews": len(reviews),
        "segments": len(segments),
        "deficient_segments": sum(s.reliability == DEFICIENT for s in segments),
    }


# Our JSON wording of the two strategies AAAR-1.0 Section 5.4 describes (not published verbatim).
PROMPT_VARIANT = "json-v1"


@dataclass(frozen=True)
class CritiqueSettings:
    """The ``review_critique`` arguments its metadata records."""

    subset: Subset
    paper_words: int
    structured_output: bool
    reask: int
    bootstrap_resamples: int
    bootstrap_seed: int


def reviewcritique_metadata(
    settings: CritiqueSettings,
    reviews: list[Any],
    resolved: Any,
    duplicates: int,
    bert: Any,
) -> dict[str, Any]:
    """The ``review_critique`` task's metadata: the provenance block and the run's settings.

    Args:
        settings: The task's (checked) arguments it records.
        reviews: The loaded reviews (their segments are counted).
        resolved: Where the data came from (``load_reviewcritique``).
        duplicates: Duplicate reviews dropped while loading.
        bert: The loaded BERTScore model (``explanation.load_bertscore``).
    """
    return {
        **provenance(
            resolved,
            benchmark="ReviewCritique (AAAR-1.0 task 4)",
            prompt_variant=PROMPT_VARIANT,
            paper_faithful={
                "data": matches_pinned(resolved.path, settings.subset),
                "prompt": False,
                "bertscore": bert.paper_faithful and bert.error is None,
            },
            upstream_commit=UPSTREAM_COMMIT,
            license=LICENSE_NOTE,
        ),
        **resolved.as_metadata(),
        **bert.describe(),
        **count_segments(reviews),
        "upstream_commit": UPSTREAM_COMMIT,
        "subset": settings.subset,
        "paper_words": settings.paper_words,
        "structured_output": settings.structured_output,
        "reask": settings.reask,
        "failure_policy": (
            "headline: an undecided deficient segment is missed (false negative); "
            "*_parsed_only: segments both prompts decided"
        ),
        "duplicate_reviews_dropped": duplicates,
        "bootstrap_resamples": settings.bootstrap_resamples,
        "bootstrap_seed": settings.bootstrap_seed,
        "license": LICENSE_NOTE,
    }
