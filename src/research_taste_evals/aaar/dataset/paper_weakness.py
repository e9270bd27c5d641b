"""PaperWeakness data: ``Paper_Weakness/ICLR_2023/<id>/data_text.json`` folders -> samples.

A record (AAAR-1.0, one folder per ICLR 2023 submission) is ``{ID, track, input: {title,
abstractText, sections: [{heading, text}]}, output: [[weakness str] per reviewer]}``: the
VILA-parsed submission and each reviewer's weaknesses, kept in the reviewer's own words.

A folder written by ``research-taste openreview build`` holds the same records under the
folder its ``build_report.json`` names (``paper_weakness.folder``), text from the PDF and a
``submission_date`` per record: each sample is dated by that day, not by a venue year.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from research_taste_evals.aaar.dataset.eqinfer import AAAR_HF_REPO, AAAR_HF_REVISION
from research_taste_evals.aaar.dataset.paper_folders import (
    RECORD_FILE,
    load_paper_records,
    record_files,
)
from research_taste_evals.aaar.decoding import (
    WEAKNESS_MAX_TOKENS,
    decoding_provenance,
    upstream_decoding,
)
from research_taste_evals.aaar.embedding_models import ITF_IDF_MODEL, S_METRIC_MODEL, is_paper_model
from research_taste_evals.aaar.recall import ITEM_DATES_KEY, dates_metadata, venue_year
from research_taste_evals.core.data import (
    DataError,
    HubFolder,
    ResolvedData,
)
from research_taste_evals.core.dates import ItemDate, parse_item_date
from research_taste_evals.core.embeddings import Embedder
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.text import (
    WordCounting,
    first_counted_words,
    nltk_counting_is_upstream,
    split_into_pieces,
    word_counting_provenance,
)

WEAKNESS_FOLDER = "Paper_Weakness/ICLR_2023"
WEAKNESS_SOURCE = HubFolder(
    repo_id=AAAR_HF_REPO, pattern=f"{WEAKNESS_FOLDER}/*/{RECORD_FILE}", revision=AAAR_HF_REVISION
)
# Pieces of at most 3,000 words for closed models (paper Section 5.3 and Table 12; --max_word_len
# of scripts/subtask3_review_model_prediction.close_source.py).
DEFAULT_WINDOW_WORDS = 3000

Split = Literal["split_combine", "none"]


class Section(BaseModel):
    """One parsed section; VILA leaves some headings empty (null)."""

    model_config = ConfigDict(extra="allow", strict=True)

    heading: str | None = None
    text: str | None = None


class PaperInput(BaseModel):
    """The parsed submission."""

    model_config = ConfigDict(extra="allow", strict=True)

    title: str | None = None
    abstractText: str | None = None  # noqa: N815 - the upstream field name
    sections: list[Section]

    @model_validator(mode="after")
    def _has_text(self) -> PaperInput:
        # Without it the model would review the words "None" (see paper_text) and be scored.
        texts = [self.abstractText, *(section.text for section in self.sections)]
        if not any(text and text.strip() for text in texts):
            raise ValueError("the paper has no text (abstractText and every sections[].text empty)")
        return self


class WeaknessRecord(BaseModel):
    """One PaperWeakness paper as released upstream (``data_text.json``)."""

    model_config = ConfigDict(extra="allow", strict=True)

    ID: str = Field(min_length=1)  # noqa: N815 - the upstream field name
    track: str | None = None
    input: PaperInput
    output: list[list[str]] = Field(min_length=1)

    @field_validator("output")
    @classmethod
    def _some_reviewer_has_weaknesses(cls, output: list[list[str]]) -> list[list[str]]:
        # A reviewer with an empty list is valid (upstream keeps it; S-Precision and S-Recall
        # average over the other reviewers), but with none left the paper has no reference.
        if not any(output):
            raise ValueError(
                f"all {len(output)} reviewers' weakness lists are empty (nothing to score against)"
            )
        return output


def built_folder(root: Path) -> str | None:
    """The PaperWeakness folder an OpenReview-built ``root`` names in its build report."""
    report = root / "build_report.json" if root.is_dir() else None
    if report is None or not report.is_file():
        return None
    try:
        folder = (json.loads(report.read_text(encoding="utf-8")).get("paper_weakness") or {}).get(
            "folder"
        )
    except (ValueError, AttributeError):
        return None
    if folder is None:
        raise DataError(
            f"{report}: field 'paper_weakness': this OpenReview build wrote no PaperWeakness "
            "records (built with --skip-pdfs, or no paper had a readable PDF and weaknesses)"
        )
    return str(folder)


def load_weakness_records(
    data_path: str | Path | None,
) -> tuple[list[WeaknessRecord], ResolvedData]:
    """Load and validate PaperWeakness records from ``data_path`` or the pinned HF dataset
    (an OpenReview-built folder: the records its build report names)."""
    built = built_folder(Path(data_path).expanduser()) if data_path is not None else None
    return load_paper_records(
        WEAKNESS_SOURCE, data_path, built or WEAKNESS_FOLDER, WeaknessRecord, lambda r: r.ID
    )


def record_date(record: WeaknessRecord) -> str:
    """The record's date: its ``submission_date`` (OpenReview builds) or the venue year."""
    submitted = (record.model_extra or {}).get("submission_date")
    return str(submitted) if submitted else str(venue_year(WEAKNESS_FOLDER))


def paper_text(paper: PaperInput) -> str:
    """The model's view of the paper, built as the release code builds it.

    Abstract, title, then one line per section, ``"<heading> <text>"``. Like upstream's
    ``str(...)``, a missing field becomes the text ``None``.
    """
    body = "\n".join(f"{section.heading} {section.text}" for section in paper.sections)
    return f"{paper.abstractText}\n\n{paper.title}\n\n{body}"


def split_pieces(text: str, split: Split, window_words: int, counting: WordCounting) -> list[str]:
    """Cut the paper into the pieces the model reviews, as the release code does.

    ``split_combine``: ``num_pieces = n_words // window_words + 1`` pieces of
    ``n_words // num_pieces + 1`` words each, the last one shorter (``cut_word_by_piece`` in
    ``scripts/subtask3_review_model_prediction.close_source.py``); ``none``: only the first
    ``window_words`` words (``cut_word``). Words are NLTK ``word_tokenize`` tokens re-joined by
    the Treebank detokenizer (``counting="nltk"``, as released) or whitespace words.
    """
    if split == "none":
        return [first_counted_words(text, window_words, counting)]
    return split_into_pieces(text, window_words, counting)


def record_to_sample(record: WeaknessRecord) -> Sample:
    """One sample per paper: input = the whole paper text (the solver cuts it into pieces).

    Reads ``ID``, ``input.title``, ``input.abstractText``, ``input.sections[].heading/text``
    and ``output`` (the reviewers' weakness lists, the reference of S-Precision/Recall).
    ``item_dates`` holds the venue year of the source folder (``aaar/recall.py``), or the
    submission day of an OpenReview-built record.
    Reviewers whose list is empty are kept here and skipped by the metric, as upstream does.
    """
    text = paper_text(record.input)
    return Sample(
        id=record.ID,
        input=text,
        target=["\n".join(weaknesses) for weaknesses in record.output],
        metadata={
            "paper_id": record.ID,
            "track": record.track,
            "reviewer_weaknesses": record.output,
            "paper_words": len(text.split()),
            # The venue year (every upstream paper is an ICLR 2023 submission) or the day.
            ITEM_DATES_KEY: [record_date(record)],
        },
    )


def weakness_dataset(records: list[WeaknessRecord]) -> MemoryDataset:
    """Build the dataset, one sample per paper, in paper-id folder order."""
    return MemoryDataset(
        samples=[record_to_sample(record) for record in records], name="paper_weakness"
    )


@dataclass(frozen=True)
class WeaknessSettings:
    """The ``paper_weakness`` arguments its metadata records."""

    split: str
    window_words: int
    word_counting: WordCounting


def weakness_metadata(
    settings: WeaknessSettings,
    papers: int,
    full_set: int,
    resolved: ResolvedData,
    embedders: tuple[Embedder, Embedder],
) -> dict[str, Any]:
    """The ``paper_weakness`` task's metadata (``embedders``: the S-metric and ITF-IDF ones),
    with the papers' date (``item_dates``: the venue year)."""
    s_embedder, itf_embedder = embedders
    return {
        **provenance(
            resolved,
            prompt_variant="Weakness_eval",
            paper_faithful={
                "data": not resolved.source.startswith("local:"),
                "prompt": True,
                "split": settings.split == "split_combine",
                "word_counting": nltk_counting_is_upstream(settings.word_counting),
                "window_words": settings.window_words == DEFAULT_WINDOW_WORDS,
                "embeddings": is_paper_model(s_embedder, S_METRIC_MODEL),
                "itf_idf_embeddings": is_paper_model(itf_embedder, ITF_IDF_MODEL),
                "itf_idf_w": papers == full_set,
            },
            benchmark="AAAR-1.0 PaperWeakness",
            embeddings=s_embedder.describe(),
            itf_idf_embeddings=itf_embedder.describe(),
            word_counting=word_counting_provenance(settings.word_counting),
            model_decoding=decoding_provenance(
                upstream_decoding(WEAKNESS_MAX_TOKENS),
                "subtask3_review_model_prediction.close_source.py",
            ),
        ),
        "split": settings.split,
        "window_words": settings.window_words,
        "word_counting": settings.word_counting,
        "papers": papers,
        "itf_idf_full_set": full_set,
    } | dates_metadata(source_dates(resolved))


def source_dates(resolved: ResolvedData) -> list[ItemDate]:
    """The dates of the source's papers: the venue year, or an OpenReview build's days."""
    folder = built_folder(resolved.path)
    if folder is None:
        return [venue_year(WEAKNESS_FOLDER)]
    records = record_files(resolved.path, folder)
    days = [json.loads(path.read_text(encoding="utf-8")).get("submission_date") for path in records]
    dates = [parse_item_date(str(day)) if day else None for day in days]
    return [date for date in dates if date is not None]
