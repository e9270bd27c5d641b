"""Load SciJudgeBench rows (Hub split or local JSONL) as one Inspect sample per row.

The dataset card (Hugging Face ``OpenMOSS-Team/SciJudgeBench``) gives every row ``messages``
(system + user chat), ``correct_answer`` ("A"/"B") and, for both papers,
``paper_{a,b}_{citations,title,abstract,date,category,subcategory,arxiv_id}``. A row that is
not a valid pair (an empty abstract, equal citations, an answer other than A/B) is left out and
counted (``left_out``, ``left_out_by_reason`` in the log header); any other broken field is a
``DataError`` naming the file, the row and the field, before any model call.

A pair is the unordered pair of arXiv ids (an A/B swap is the same pair); a row's variation is
its position among its pair's rows in file order (the card's ``test`` split has ~10 prompt
variations per pair).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

from research_taste_evals.core.data import (
    DataError,
    HubFile,
    ResolvedData,
    read_jsonl,
    resolve_data,
    sha256_of,
)
from research_taste_evals.core.dates import date_range, require_item_date
from research_taste_evals.core.network import OFFLINE_HINT
from research_taste_evals.core.text import content_id, fill_template
from research_taste_evals.scijudge.prompts import TASTYBENCH_JUDGE, TASTYBENCH_PROJECT

SplitChoice = Literal["test", "test_ood_iclr", "test_ood_year"]
PromptChoice = Literal["dataset", "tastybench"]
DATASET_ID = "OpenMOSS-Team/SciJudgeBench"
# Not pinned to a commit: the Hub cannot be reached from where this task was written, so the
# default is the branch; the log records the commit it resolved to (``data_revision``).
DEFAULT_REVISION = "main"
SIDES = ("a", "b")
LEFT_OUT_REASONS = ("unknown_answer", "missing_abstract", "equal_citations")
_ROLES: dict[str, type[ChatMessage]] = {
    "system": ChatMessageSystem,
    "user": ChatMessageUser,
    "assistant": ChatMessageAssistant,
}
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Paper:
    """One side of a row."""

    arxiv_id: str
    title: str
    abstract: str
    date: str
    citations: float | None
    category: str
    subcategory: str

    def as_metadata(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class LoadedRows:
    """The dataset and what the task records about where it came from."""

    dataset: MemoryDataset
    metadata: dict[str, Any]


def hub_file(split: str, revision: str) -> HubFile:
    """The split's JSONL file on the Hub (the card's ``configs``: ``<split>.jsonl``)."""
    return HubFile(repo_id=DATASET_ID, filename=f"{split}.jsonl", revision=revision)


def fetch(data_path: str | None, split: str, revision: str) -> ResolvedData:
    """The local file: ``data_path``, else the split from the Hub (or the Hub cache).

    Raises:
        DataError: in one sentence naming ``-T data_path=demo`` and the dataset id when the
            Hub file cannot be had (offline and not cached, or a bad revision).
    """
    if data_path is not None:
        return resolve_data(None, data_path)
    try:
        return resolve_data(hub_file(split, revision))
    except DataError as error:
        cause = str(error).replace(OFFLINE_HINT, "").strip().rstrip(".")
        raise DataError(
            f"scijudge: {cause}; run offline on the shipped demo rows with -T data_path=demo, "
            f"or download the {DATASET_ID} split elsewhere and pass -T data_path=<its JSONL>"
        ) from error


def _text(row: Mapping[str, Any], field: str, where: str, required: bool = True) -> str:
    value = row.get(field)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise DataError(f"{where}: field '{field}' is missing or empty")
        return ""
    if not isinstance(value, str):
        raise DataError(f"{where}: field '{field}' must be text, got {type(value).__name__}")
    return value.strip()


def _citations(row: Mapping[str, Any], field: str, where: str) -> float | None:
    value = row.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"{where}: field '{field}' must be a number, got {value!r}")
    return float(value)


def read_paper(row: Mapping[str, Any], side: str, where: str) -> Paper:
    """Paper ``side`` of a row; the abstract may be empty (the row is then left out)."""
    title = _text(row, f"paper_{side}_title", where)
    date = _text(row, f"paper_{side}_date", where)
    require_item_date(date, f"{where}: field 'paper_{side}_date'")
    arxiv_id = _text(row, f"paper_{side}_arxiv_id", where, required=False)
    return Paper(
        arxiv_id=arxiv_id or f"title:{content_id(title)}",
        title=title,
        abstract=_text(row, f"paper_{side}_abstract", where, required=False),
        date=date[:10],
        citations=_citations(row, f"paper_{side}_citations", where),
        category=_text(row, f"paper_{side}_category", where, required=False) or "unknown",
        subcategory=_text(row, f"paper_{side}_subcategory", where, required=False),
    )


def read_messages(row: Mapping[str, Any], where: str) -> list[ChatMessage]:
    """The row's chat (``messages``: system and user turns)."""
    messages = row.get("messages")
    if not isinstance(messages, list) or not messages:
        raise DataError(f"{where}: field 'messages' must be a non-empty list of chat turns")
    chat: list[ChatMessage] = []
    for index, turn in enumerate(messages):
        field = f"messages[{index}]"
        if not isinstance(turn, Mapping) or turn.get("role") not in _ROLES:
            raise DataError(f"{where}: field '{field}.role' must be one of {', '.join(_ROLES)}")
        content = turn.get("content")
        if not isinstance(content, str) or not content.strip():
            raise DataError(f"{where}: field '{field}.content' must be non-empty text")
        chat.append(_ROLES[turn["role"]](content=content))
    return chat


def left_out_reason(answer: object, a: Paper, b: Paper) -> str | None:
    """Why a row is not a valid pair (the first of :data:`LEFT_OUT_REASONS`), or None."""
    if str(answer).strip().upper() not in ("A", "B"):
        return "unknown_answer"
    if not a.abstract or not b.abstract:
        return "missing_abstract"
    if a.citations is not None and a.citations == b.citations:
        return "equal_citations"
    return None


def pair_key(a: Paper, b: Paper) -> str:
    """The unordered pair of arXiv ids: an A/B swap is the same pair."""
    return "|".join(sorted((a.arxiv_id, b.arxiv_id)))


def tastybench_prompt(a: Paper, b: Paper) -> str:
    """The pair in TastyBench's judge wording, paper A as Project 1."""
    projects = {
        f"project_{n}": fill_template(
            TASTYBENCH_PROJECT, title=p.title, date=p.date, abstract=p.abstract
        )
        for n, p in ((1, a), (2, b))
    }
    return fill_template(TASTYBENCH_JUDGE, **projects)


def record_to_sample(
    row: Mapping[str, Any], where: str, prompt: PromptChoice = "dataset"
) -> Sample | str:
    """One row as a sample, or the reason it is left out (:func:`left_out_reason`).

    Reads ``messages``, ``correct_answer`` and, of ``paper_a``/``paper_b``: ``_title``,
    ``_abstract``, ``_date``, ``_citations``, ``_arxiv_id``, ``_category``, ``_subcategory``.
    The sample's ``pair_id`` and ``variation`` are set by :func:`samples_of`.
    """
    a, b = (read_paper(row, side, where) for side in SIDES)
    messages = read_messages(row, where)
    reason = left_out_reason(row.get("correct_answer"), a, b)
    if reason is not None:
        return reason
    answer = str(row["correct_answer"]).strip().upper()
    shown: str | list[ChatMessage] = messages if prompt == "dataset" else tastybench_prompt(a, b)
    category = a.category if a.category == b.category else f"{a.category} / {b.category}"
    return Sample(
        id=content_id(pair_key(a, b), [m.text for m in messages], answer),
        input=shown,
        target=answer,
        metadata={
            "pair_id": pair_key(a, b),
            "category": category,
            "prompt": prompt,
            "paper_a": a.as_metadata(),
            "paper_b": b.as_metadata(),
        },
    )


def samples_of(
    rows: list[Any], source: str, prompt: PromptChoice
) -> tuple[list[Sample], dict[str, int]]:
    """The kept rows as samples (with pair and variation) and the left-out counts by reason."""
    samples: list[Sample] = []
    left_out = dict.fromkeys(LEFT_OUT_REASONS, 0)
    seen: dict[str, int] = {}
    ids: set[str] = set()
    for number, row in enumerate(rows, start=1):
        where = f"{source}: row {number}"
        if not isinstance(row, Mapping):
            raise DataError(f"{where}: expected a JSON object, got {type(row).__name__}")
        sample = record_to_sample(row, where, prompt)
        if isinstance(sample, str):
            left_out[sample] += 1
            continue
        assert sample.metadata is not None
        pair = sample.metadata["pair_id"]
        sample.metadata["variation"] = seen.get(pair, 0)
        seen[pair] = seen.get(pair, 0) + 1
        if sample.id in ids:  # the same row twice: keep both, told apart by variation
            sample.id = f"{sample.id}-{sample.metadata['variation']}"
        ids.add(str(sample.id))
        samples.append(sample)
    return samples, left_out


def load_rows(
    data_path: str | None,
    split: SplitChoice = "test",
    revision: str = DEFAULT_REVISION,
    prompt: PromptChoice = "dataset",
) -> LoadedRows:
    """The kept rows of a split (or of ``data_path``), one sample per row.

    Raises:
        DataError: the data cannot be had, a row is broken, or no row is a valid pair.
    """
    resolved = fetch(data_path, split, revision)
    if resolved.path.is_dir():
        raise DataError(f"{resolved.path}: data_path must be a JSONL file, not a folder")
    rows = read_jsonl(resolved.path)
    samples, left_out = samples_of(rows, str(resolved.path), prompt)
    if not samples:
        raise DataError(
            f"{resolved.path}: no row is a valid pair ({len(rows)} rows; left out by reason: "
            f"{left_out}); give rows with both abstracts, different citations and answer A or B"
        )
    dated = date_range(
        require_item_date(s.metadata[side]["date"], "kept row")
        for s in samples
        if s.metadata
        for side in ("paper_a", "paper_b")
    )
    pairs = {s.metadata["pair_id"] for s in samples if s.metadata}
    return LoadedRows(
        dataset=MemoryDataset(samples=samples, name=f"scijudge-{split}", shuffled=False),
        metadata={
            "dataset_id": DATASET_ID,
            "split": split if data_path is None else None,
            "data_path": str(resolved.path) if data_path is not None else None,
            "revision_requested": revision if data_path is None else None,
            "data_revision": resolved.revision,
            "data_sha256": sha256_of(resolved.path),
            "prompt": prompt,
            "rows": len(rows),
            "kept_rows": len(samples),
            "left_out": sum(left_out.values()),
            "left_out_by_reason": left_out,
            "pairs": len(pairs),
            "item_dates": f"papers by day, {dated[0]} to {dated[1]}" if dated else "none",
        },
    )
