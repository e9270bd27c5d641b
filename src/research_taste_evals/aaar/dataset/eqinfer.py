"""EqInfer data: ``equation.1049.json`` records -> Inspect samples.

A record (AAAR-1.0 ``Equation_Inference/equation.1049.json``) is
``{context_before, context_after, options_list: [4 LaTeX strings], answer: "A".."D",
options: formatted A-D block (optional)}``: one human-written equation and three
GPT-4-synthesised wrong ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample
from pydantic import BaseModel, ConfigDict, Field, field_validator

from research_taste_evals.aaar.decoding import (
    EQINFER_MAX_TOKENS,
    decoding_provenance,
    upstream_decoding,
)
from research_taste_evals.aaar.prompts import (
    EQINFER_BINARY_PROMPT,
    EQINFER_MC_PROMPT,
    EQINFER_OPTION_LINE,
    EQINFER_OPTION_SEPARATOR,
)
from research_taste_evals.core.data import (
    DataError,
    HubFile,
    ResolvedData,
    read_json,
    resolve_data,
    validate_records,
)
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.text import (
    content_id,
    fill_template,
    first_words,
    last_words,
    word_counting_provenance,
)

# HF dataset Reza8848/AAAR-1.0, commit 26738cf ("update README"), the newest seen. The Hub
# resolves this short hash; the full hash it resolved to is recorded in each log's metadata.
AAAR_HF_REPO = "Reza8848/AAAR-1.0"
AAAR_HF_REVISION = "26738cf"
EQINFER_FILE = HubFile(
    repo_id=AAAR_HF_REPO,
    filename="Equation_Inference/equation.1049.json",
    revision=AAAR_HF_REVISION,
)
LETTERS = ("A", "B", "C", "D")
# Per side, as in the paper (Section 5.1, Table 9); whitespace words, as the release counts them
# (scripts/subtask1_equation_model_eval_binary.py: ``split()``).
DEFAULT_CONTEXT_WORDS = 1000

Variant = Literal["binary", "multiple_choice"]


class EqInferRecord(BaseModel):
    """One EqInfer instance as released upstream."""

    model_config = ConfigDict(extra="allow", strict=True)

    context_before: str
    context_after: str
    options_list: list[str] = Field(min_length=4, max_length=4)
    answer: Literal["A", "B", "C", "D"]
    options: str | None = None

    @field_validator("context_before", "context_after")
    @classmethod
    def _has_text(cls, value: str) -> str:
        # The task is to pick the equation that fits between the two contexts: without one
        # side the model sees only half of the question, and the score would not say so.
        if not value.strip():
            raise ValueError("empty (the equation's surrounding text is the question)")
        return value


def load_eqinfer_records(data_path: str | Path | None) -> tuple[list[EqInferRecord], ResolvedData]:
    """Load and validate EqInfer records from ``data_path`` or the pinned HF file.

    ``data_path`` may be the file, the dataset root (holding ``Equation_Inference/``, like the
    other AAAR loaders accept) or the ``Equation_Inference`` folder.

    Raises:
        DataError: no ``equation.1049.json`` where ``data_path`` points, or invalid records.
    """
    resolved = resolve_data(EQINFER_FILE, data_path)
    path = resolved.path
    if path.is_dir():
        candidates = [path / EQINFER_FILE.filename, path / Path(EQINFER_FILE.filename).name]
        found = [candidate for candidate in candidates if candidate.is_file()]
        if not found:
            raise DataError(
                f"{path}: no {EQINFER_FILE.filename} or {Path(EQINFER_FILE.filename).name} "
                "in this folder"
            )
        path = found[0]
    records = validate_records(read_json(path), EqInferRecord, source=path)
    check_no_repeats(records, path)
    return records, resolved


def check_no_repeats(records: list[EqInferRecord], source: Path) -> None:
    """An instance listed twice would be evaluated and counted twice: name both records.

    Raises:
        DataError: ``<file>: record j repeats record i`` (same contexts and options).
    """
    first: dict[str, int] = {}
    for index, record in enumerate(records):
        key = instance_id(record)
        if key in first:
            raise DataError(
                f"{source}: record {index} repeats record {first[key]} (same context_before, "
                "context_after and options_list); remove one so it is not scored twice"
            )
        first[key] = index


def instance_id(record: EqInferRecord) -> str:
    return content_id(record.context_before, record.context_after, record.options_list)


def record_to_binary_samples(record: EqInferRecord, context_words: int) -> list[Sample]:
    """One sample per (instance, option): is this candidate the paper's equation? (1 = yes).

    Reads ``context_before`` (last ``context_words`` words kept), ``context_after`` (first
    ``context_words`` words), ``options_list`` and ``answer``.
    """
    base = instance_id(record)
    before = last_words(record.context_before, context_words)
    after = first_words(record.context_after, context_words)
    samples = []
    for letter, candidate in zip(LETTERS, record.options_list, strict=True):
        label = 1 if letter == record.answer else 0
        samples.append(
            Sample(
                id=f"{base}-{letter}",
                input=fill_template(
                    EQINFER_BINARY_PROMPT,
                    context_before=before,
                    context_after=after,
                    candidate=candidate,
                ),
                target=str(label),
                metadata={"instance_id": base, "option": letter, "label": label},
            )
        )
    return samples


def format_options(options: list[str]) -> str:
    """The options block as released: ``(A). `eq`;`` lines, the last without ``;``."""
    return EQINFER_OPTION_SEPARATOR.join(
        fill_template(EQINFER_OPTION_LINE, letter=letter, option=option)
        for letter, option in zip(LETTERS, options, strict=True)
    )


def record_to_choice_sample(record: EqInferRecord, context_words: int, shuffle: bool) -> Sample:
    """One four-way sample per instance; target = the letter of the paper's equation.

    Reads ``context_before``, ``context_after``, ``options_list``, ``answer`` and ``options``.
    With ``shuffle`` the options are permuted by a seed derived from the instance content
    (the released answer letters are unevenly distributed, so a fixed-letter guess beats 25%)
    and formatted as the release formats them. Without it the record's own ``options`` block is
    used verbatim when present (else ``options_list`` in that format).
    """
    base = instance_id(record)
    order = list(range(len(LETTERS)))
    if shuffle:
        random.Random(base).shuffle(order)
    correct = LETTERS.index(record.answer)
    if not shuffle and record.options is not None:
        options = record.options
    else:
        options = format_options([record.options_list[i] for i in order])
    return Sample(
        id=base,
        input=fill_template(
            EQINFER_MC_PROMPT,
            context_before=last_words(record.context_before, context_words),
            context_after=first_words(record.context_after, context_words),
            options=options,
        ),
        target=LETTERS[order.index(correct)],
        metadata={"instance_id": base, "option_order": [LETTERS[i] for i in order]},
    )


def eqinfer_dataset(
    records: list[EqInferRecord],
    variant: Variant,
    context_words: int,
    shuffle_options: bool,
    name: str,
) -> MemoryDataset:
    """Build the dataset; exact duplicate instances keep distinct ids (``-dup1``, ...)."""
    samples: list[Sample] = []
    for record in records:
        if variant == "binary":
            samples.extend(record_to_binary_samples(record, context_words))
        else:
            samples.append(record_to_choice_sample(record, context_words, shuffle_options))
    seen: dict[str | int, int] = {}
    for sample in samples:
        assert sample.id is not None
        count = seen.get(sample.id, 0)
        seen[sample.id] = count + 1
        if count:
            sample.id = f"{sample.id}-dup{count}"
    return MemoryDataset(samples=samples, name=name)


# subtask1_equation_model_eval_binary.py re-asks up to 3 times before forcing the wrong label;
# subtask1_equation_model_eval.py (multiple choice) calls once.
UPSTREAM_PARSE_RETRIES = 3
UPSTREAM_CHOICE_RETRIES = 0


@dataclass(frozen=True)
class EqInferSettings:
    """The ``eqinfer`` arguments its metadata records."""

    variant: str
    context_words: int
    parse_retries: int
    choice_retries: int
    shuffle_options: bool
    faithful_reader: str


def eqinfer_metadata(
    settings: EqInferSettings, instances: int, resolved: ResolvedData
) -> dict[str, Any]:
    """The ``eqinfer`` task's metadata: the provenance block and the run's settings."""
    binary = settings.variant == "binary"
    context_words = settings.context_words
    return {
        **provenance(
            resolved,
            prompt_variant="Equation_eval_binary" if binary else "Equation_eval",
            paper_faithful={
                "data": not resolved.source.startswith("local:"),
                "prompt": True,
                "word_counting": True,  # whitespace words, as the release counts them
                "context_words": context_words == DEFAULT_CONTEXT_WORDS,
                "retries": (
                    settings.parse_retries == UPSTREAM_PARSE_RETRIES
                    if binary
                    else settings.choice_retries == UPSTREAM_CHOICE_RETRIES
                ),
                "options_order": binary or not settings.shuffle_options,
            },
            benchmark="AAAR-1.0 EqInfer",
            parse_modes="strict (decision_*, headline) and faithful (faithful_*) per answer",
            faithful_reader=settings.faithful_reader if binary else None,
            word_counting=word_counting_provenance("whitespace"),
            model_decoding=decoding_provenance(
                upstream_decoding(EQINFER_MAX_TOKENS),
                "subtask1_equation_model_eval_binary.py"
                if binary
                else "subtask1_equation_model_eval.py",
            ),
        ),
        "variant": settings.variant,
        "context_words": context_words,
        "parse_retries": settings.parse_retries if binary else settings.choice_retries,
        "shuffle_options": None if binary else settings.shuffle_options,
        "instances": instances,
    }
