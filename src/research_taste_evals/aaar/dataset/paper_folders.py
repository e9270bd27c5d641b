"""AAAR-1.0's per-paper folders (``<folder>/<paper id>/data_text.json``) -> validated records.

ExpDesign and PaperWeakness ship one JSON file per paper in this layout; both load through
:func:`load_paper_records`, from the pinned Hugging Face snapshot or a local copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from research_taste_evals.core.data import (
    DataError,
    HubFolder,
    ResolvedData,
    read_json,
    resolve_data,
    validate_records,
)

RECORD_FILE = "data_text.json"

RecordT = TypeVar("RecordT", bound=BaseModel)


def load_paper_records(
    source: HubFolder,
    data_path: str | Path | None,
    folder: str,
    model: type[RecordT],
    paper_id: Callable[[RecordT], str],
) -> tuple[list[RecordT], ResolvedData]:
    """Load and validate every paper's record from ``data_path`` or the pinned ``source``.

    Raises:
        DataError: no record file, a file that is not valid JSON or does not fit ``model``
            (naming the file and the field), or a paper id used twice.
    """
    resolved = resolve_data(source, data_path)
    records = [
        validate_records([read_json(path)], model, source=path)[0]
        for path in record_files(resolved.path, folder)
    ]
    check_unique_ids((paper_id(record) for record in records), resolved.path)
    return records, resolved


def record_files(root: Path, folder: str) -> list[Path]:
    """The ``data_text.json`` files under ``root`` in the upstream layout, sorted by paper folder.

    ``root`` may be the dataset root (holding ``folder``, e.g. ``Paper_Weakness/ICLR_2023``),
    any folder on that path (``Paper_Weakness``), the paper folders' parent, or one paper's
    ``data_text.json``.

    Raises:
        DataError: no record file is found.
    """
    if root.is_file():
        return [root]
    parts = Path(folder).parts
    base = root
    for start in range(len(parts)):
        candidate = root.joinpath(*parts[start:])
        if candidate.is_dir():
            base = candidate
            break
    files = sorted(base.glob(f"*/{RECORD_FILE}"))
    if not files:
        raise DataError(f"{root}: no '<paper id>/{RECORD_FILE}' folders found (upstream layout)")
    return files


def check_unique_ids(ids: Iterable[str], source: Path) -> None:
    """Paper ids become sample ids, so they must be unique.

    Raises:
        DataError: naming the repeated id.
    """
    seen: set[str] = set()
    for paper_id in ids:
        if paper_id in seen:
            raise DataError(f"{source}: paper id '{paper_id}' appears in two records")
        seen.add(paper_id)
