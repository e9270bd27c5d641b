"""ExpDesign data: ``Experiment_Design/<arxiv_id>/data_text.json`` folders -> Inspect samples.

A record (AAAR-1.0, one folder per paper) is ``{id, input: [str], output: {"What experiments
do you suggest doing?": [str], "Why do you suggest these experiments?": [str]}}``: the
pre-experiment LaTeX context (leaking sentences removed by the authors) and the expert-annotated
experiment list with its one-to-one explanation list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from research_taste_evals.aaar.dataset.eqinfer import AAAR_HF_REPO, AAAR_HF_REVISION
from research_taste_evals.aaar.dataset.paper_folders import RECORD_FILE, load_paper_records
from research_taste_evals.aaar.decoding import (
    EXPDESIGN_MAX_TOKENS,
    decoding_provenance,
    upstream_decoding,
)
from research_taste_evals.aaar.embedding_models import S_METRIC_MODEL, is_paper_model
from research_taste_evals.aaar.prompts import UPSTREAM_LIST_ITEM
from research_taste_evals.aaar.recall import ITEM_DATES_KEY, arxiv_dates, dates_metadata
from research_taste_evals.core.data import (
    HubFolder,
    ResolvedData,
)
from research_taste_evals.core.dates import ItemDate, undated_source
from research_taste_evals.core.embeddings import Embedder
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.text import (
    WordCounting,
    first_counted_words,
    nltk_counting_is_upstream,
    word_counting_provenance,
)

EXPDESIGN_FOLDER = "Experiment_Design"
EXPERIMENTS_KEY = "What experiments do you suggest doing?"
EXPLANATIONS_KEY = "Why do you suggest these experiments?"
EXPDESIGN_SOURCE = HubFolder(
    repo_id=AAAR_HF_REPO, pattern=f"{EXPDESIGN_FOLDER}/*/{RECORD_FILE}", revision=AAAR_HF_REVISION
)
# The paper feeds closed models the first 3,000 words (Section 5.2, Table 10; the v2 script
# subtask2_experiment_model_prediction.close_source.v2.py defaults to 2,800 for GPT-4o). Words
# are NLTK word_tokenize tokens there (its cut_word). Open models got 2,000.
DEFAULT_CONTEXT_WORDS = 3000


class ExpDesignOutput(BaseModel):
    """The annotated lists: experiment i is explained by explanation i."""

    model_config = ConfigDict(extra="allow", strict=True, populate_by_name=True)

    # Literal aliases (mypy needs them), equal to EXPERIMENTS_KEY and EXPLANATIONS_KEY.
    experiments: list[str] = Field(alias="What experiments do you suggest doing?", min_length=1)
    explanations: list[str] = Field(alias="Why do you suggest these experiments?")

    @model_validator(mode="after")
    def _one_explanation_per_experiment(self) -> ExpDesignOutput:
        # Pairs are zipped when scoring: unequal lists would silently drop the tail.
        if len(self.explanations) != len(self.experiments):
            raise ValueError(
                f"{len(self.experiments)} experiments but {len(self.explanations)} explanations"
                f" ('{EXPLANATIONS_KEY}' must match '{EXPERIMENTS_KEY}' one to one)"
            )
        return self


class ExpDesignRecord(BaseModel):
    """One ExpDesign paper as released upstream (``data_text.json``)."""

    model_config = ConfigDict(extra="allow", strict=True)

    id: str = Field(min_length=1)
    input: list[str]
    output: ExpDesignOutput

    @field_validator("input")
    @classmethod
    def _has_text(cls, value: list[str]) -> list[str]:
        # The paper's pre-experiment text is the whole question; without it the model would
        # be scored on guessing experiments for a paper it never saw.
        if not "".join(value).strip():
            raise ValueError(f"no paper text ({len(value)} input strings, all empty)")
        return value


def load_expdesign_records(
    data_path: str | Path | None,
) -> tuple[list[ExpDesignRecord], ResolvedData]:
    """Load and validate ExpDesign records from ``data_path`` or the pinned HF dataset."""
    return load_paper_records(
        EXPDESIGN_SOURCE, data_path, EXPDESIGN_FOLDER, ExpDesignRecord, lambda r: r.id
    )


def record_to_sample(
    record: ExpDesignRecord,
    context_words: int,
    counting: WordCounting = "nltk",
    date: ItemDate | None = None,
) -> Sample:
    """One sample per paper: input = the first ``context_words`` words of the context.

    Reads ``id``, ``input`` (joined with no separator, as the release code does, then cut to
    ``context_words`` NLTK tokens and detokenized, as its ``cut_word``; or whitespace words) and
    both ``output`` lists, which go to metadata: the experiments are the reference for
    En-Precision/Recall and the ORACLE list the model explains; the explanations are the
    reference for S-Match and ROUGE. ``date`` (from the arXiv id, ``aaar/recall.py``) goes to
    ``item_dates`` (empty for an undated source).
    """
    experiments = record.output.experiments
    return Sample(
        id=record.id,
        input=first_counted_words("".join(record.input), context_words, counting),
        target="\n".join(experiments),
        metadata={
            "paper_id": record.id,
            "experiments": experiments,
            "explanations": record.output.explanations,
            ITEM_DATES_KEY: [str(date)] if date else [],
        },
    )


def expdesign_dataset(
    records: list[ExpDesignRecord],
    context_words: int,
    counting: WordCounting = "nltk",
    root: Path | str | None = None,
) -> MemoryDataset:
    """Build the dataset, one sample per paper, in paper-id order.

    With ``root`` (the data's folder, named in errors) each paper is dated by its arXiv id
    (``aaar/recall.py``: one record without one among dated records is a ``DataError``).
    """
    dated = (arxiv_dates([r.id for r in records], root) if root is not None else None) or {}
    return MemoryDataset(
        samples=[
            record_to_sample(record, context_words, counting, dated.get(record.id))
            for record in records
        ],
        name="expdesign",
    )


def extract_list_items(answer: str) -> list[str]:
    """The release code's list extractor: every ``\\d+\\..*`` match, item number kept.

    Used for experiment, explanation and weakness lists alike. Faithfully lenient: a line with
    a decimal number ("drops 0.5 points") yields an item from that number on.
    """
    return re.findall(UPSTREAM_LIST_ITEM, answer.strip())


@dataclass(frozen=True)
class ExpDesignSettings:
    """The ``expdesign`` arguments its metadata records."""

    context_words: int
    word_counting: WordCounting
    explain_mode: str
    explanation_retries: int
    judge_model: str | None
    judge_prompt: str


def expdesign_metadata(
    settings: ExpDesignSettings,
    records: Sequence[ExpDesignRecord],
    resolved: ResolvedData,
    embedder: Embedder,
    judge_decoding: Mapping[str, Any],
    default_judge: str,
) -> dict[str, Any]:
    """The ``expdesign`` task's metadata: the provenance block, the run's settings and the
    papers' date range (``item_dates``; an undated source says so once in the log)."""
    dates = arxiv_dates([record.id for record in records], resolved.path)
    dates_note = (
        dates_metadata(list(dates.values()))
        if dates
        else undated_source("expdesign", "no record id is an arXiv id")
    )
    judge_prompt, explain_mode = settings.judge_prompt, settings.explain_mode
    return {
        **provenance(
            resolved,
            prompt_variant=f"Exp_eval + Exp_explanation_eval + Exp_entailment_{judge_prompt}",
            paper_faithful={
                "data": not resolved.source.startswith("local:"),
                "judge_prompt": judge_prompt == "v2",
                "judge_decoding": True,
                "word_counting": nltk_counting_is_upstream(settings.word_counting),
                "context_words": settings.context_words == DEFAULT_CONTEXT_WORDS,
                "embeddings": is_paper_model(embedder, S_METRIC_MODEL),
            },
            benchmark="AAAR-1.0 ExpDesign",
            embeddings=embedder.describe(),
            word_counting=word_counting_provenance(settings.word_counting),
            model_decoding=decoding_provenance(
                upstream_decoding(EXPDESIGN_MAX_TOKENS),
                "subtask2_experiment_model_prediction.close_source.v2.py",
            ),
            judge_decoding=dict(judge_decoding),
            parse_modes="strict (en_*, headline) and faithful (faithful_en_*) per answer",
        ),
        "context_words": settings.context_words,
        "word_counting": settings.word_counting,
        "explain_mode": explain_mode,
        "explanation_retries": (
            settings.explanation_retries if explain_mode == "whole_list" else None
        ),
        "judge_model": settings.judge_model or f"role:grader (default {default_judge})",
        "judge_prompt": judge_prompt,
        "papers": len(records),
    } | dates_note
