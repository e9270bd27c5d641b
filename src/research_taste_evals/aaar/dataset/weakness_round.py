"""PaperWeakness on a round (``docs/rounds.md``): the papers' texts frozen at open, their
references (the reviewers' weaknesses) written by each resolve.

A round opened on OpenReview with PDFs holds ``weakness_items.jsonl``: one AAAR-1.0 record per
paper (``ID``, ``track``, ``input`` = title, abstract and one section per PDF page,
``submission_date``) without ``output``; ``round.json`` holds its sha256
(``weakness_sha256``). A resolve writes ``labels/<version>.weaknesses.json``: ``{paper id:
[[weakness, ...] per reviewer]}`` beside ``labels/<version>.csv``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from research_taste_evals.aaar.dataset.paper_weakness import PaperInput, paper_text
from research_taste_evals.aaar.recall import ITEM_DATES_KEY
from research_taste_evals.core.data import DataError, read_json, sha256_of
from research_taste_evals.core.round_files import RECORDS_FILE
from research_taste_evals.core.rounds import (
    PENDING,
    ItemCounts,
    Round,
    item_counts,
    item_state,
    newest_labels_file,
    open_round,
    read_labels,
)

# the round layout names it (core/round_files.py writes it at open)
WEAKNESS_FILE = RECORDS_FILE
REFERENCES_SUFFIX = ".weaknesses.json"


def references_path(labels_csv: str | Path) -> Path:
    """The references file beside a labels CSV (``<version>.weaknesses.json``)."""
    path = Path(labels_csv).expanduser().resolve()
    return path.with_name(path.stem + REFERENCES_SUFFIX)


def read_references(labels_csv: str | Path) -> dict[str, list[list[str]]]:
    """Each paper's reviewers' weakness lists in a labels version (empty: none posted yet).

    Raises:
        DataError: the references file is missing or not ``{id: [[str, ...], ...]}``.
    """
    path = references_path(labels_csv)
    data = read_json(path)
    if not isinstance(data, dict):
        raise DataError(f"{path}: not a JSON object of paper id -> reviewers' weaknesses")
    return {str(key): [list(map(str, r)) for r in value] for key, value in data.items()}


def paper_counts(round_: Round, paper_ids: list[str]) -> tuple[str | None, ItemCounts]:
    """The newest labels version (None before the first resolve) and the papers by state in
    it: a paper is labelled once a reviewer's weaknesses are in (the scorer's ``pending``)."""
    path = newest_labels_file(round_)
    if path is None:
        return None, item_counts([PENDING] * len(paper_ids), unit="papers")
    labels, references = read_labels(path), read_references(path)
    states = [
        item_state(any(references.get(pid) or []), bool(labels.label(pid).dropped))
        for pid in paper_ids
    ]
    return labels.version, item_counts(states, unit="papers")


def load_weakness_round(folder: str | None) -> tuple[Round, list[dict[str, Any]]]:
    """The round named by ``paper_weakness_round``'s ``round`` and its PaperWeakness records,
    checked against ``round.json``.

    Raises:
        ConfigError: no ``round.json`` there.
        DataError: the round has no PaperWeakness items, or the file changed since open.
    """
    round_ = open_round(folder, "paper_weakness_round")
    path = round_.folder / WEAKNESS_FILE
    if not path.is_file() and round_.manifest.get("weakness_sha256"):
        raise DataError(
            f"{path}: missing, though the round was opened with "
            f"{round_.manifest.get('weakness_items')} PaperWeakness items (round.json's "
            "weakness_sha256); restore the file"
        )
    if not path.is_file():
        raise DataError(
            f"round={folder!r}: {path} is missing; the round was opened without PDFs (no paper "
            "texts)"
        )
    if sha256_of(path) != round_.manifest.get("weakness_sha256"):
        raise DataError(
            f"{path}: its sha256 no longer matches 'weakness_sha256' in round.json, so the "
            "round is not the one that was opened; restore the file or open a new round"
        )
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            record = json.loads(line)
            PaperInput.model_validate(record["input"])
        except (ValueError, KeyError) as error:
            raise DataError(f"{path}: line {number}: field 'input' unreadable ({error})") from error
        records.append(record)
    return round_, records


def weakness_round_dataset(records: list[dict[str, Any]]) -> MemoryDataset:
    """One sample per paper, no reference yet (``reviewer_weaknesses`` empty)."""
    samples = []
    for record in records:
        text = paper_text(PaperInput.model_validate(record["input"]))
        samples.append(
            Sample(
                id=str(record["ID"]),
                input=text,
                metadata={
                    "paper_id": str(record["ID"]),
                    "track": record.get("track"),
                    "reviewer_weaknesses": [],
                    "paper_words": len(text.split()),
                    ITEM_DATES_KEY: [str(record.get("submission_date") or "")],
                },
            )
        )
    return MemoryDataset(samples=samples, name="paper_weakness")
