"""Long-Form Task data: rubric files -> Inspect samples (one sample per task).

Each rubric file (see :mod:`research_taste_evals.lft.rubric`) is one task; the sample's input
is the task prompt and its metadata carries the whole rubric, so the solver chain (context
documents, web block list, nudges) and the grader panel read everything from the sample.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample

from research_taste_evals.lft.metrics import TASK_ID_KEY  # the metrics group by it
from research_taste_evals.lft.rubric import (
    DEFAULT_RUBRIC_DIR,
    RUBRIC_METADATA_KEY,
    Rubric,
    load_rubrics,
)

DATASET_NAME = "lft"


def rubric_to_sample(rubric: Rubric) -> Sample:
    """One sample for one rubric (pure).

    Reads ``task_id`` (the sample id: stable across runs and load order, unique within a rubric
    directory), ``prompt`` (the input), ``title`` and ``domain``; the whole rubric goes into
    ``metadata["rubric"]`` and its content hash into ``metadata["rubric_hash"]``. There is no
    target: the rubric is the reference.
    """
    return Sample(
        id=rubric.task_id,
        input=rubric.prompt,
        target="",
        metadata={
            TASK_ID_KEY: rubric.task_id,
            "title": rubric.title,
            "domain": rubric.domain,
            "rubric_hash": rubric.content_hash(),
            RUBRIC_METADATA_KEY: rubric.model_dump(mode="json"),
        },
    )


def lft_dataset(rubrics: Iterable[Rubric]) -> MemoryDataset:
    """The samples of ``rubrics``, in the given order."""
    return MemoryDataset(samples=[rubric_to_sample(r) for r in rubrics], name=DATASET_NAME)


def split_names(value: str | Iterable[str] | None, what: str) -> list[str] | None:
    """``-T name=a,b`` arrives as one string: split it on commas; a list passes through."""
    if value is None:
        return None
    listed = value.split(",") if isinstance(value, str) else list(value)
    cleaned = [name.strip() for name in listed if name.strip()]
    if not cleaned:
        raise ValueError(f"{what} is empty: give at least one name, or leave it unset")
    return cleaned


def parse_task_ids(task_ids: str | Iterable[str] | None) -> list[str] | None:
    """The requested task ids (``None``: all of them)."""
    return split_names(task_ids, "task_ids")


def load_lft_rubrics(
    rubric_dir: str | Path | None, task_ids: str | Iterable[str] | None
) -> tuple[list[Rubric], str]:
    """The selected rubrics and where they came from (``package`` or ``local:<path>``)."""
    rubrics = load_rubrics(rubric_dir, parse_task_ids(task_ids))
    if rubric_dir is None:
        return rubrics, f"package:{DEFAULT_RUBRIC_DIR.name}"
    return rubrics, f"local:{Path(rubric_dir).expanduser().resolve()}"
