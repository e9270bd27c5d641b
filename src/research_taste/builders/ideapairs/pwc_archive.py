"""The paper's source: the PapersWithCode evaluation tables (HF ``pwc-archive/evaluation-tables``).

Section 4 of Mule et al.: "We first scrape all available NLP leaderboards from paperswithcode.com
that have at least two entries. This yields 1,918 benchmark leaderboards", and the final data
has 11,488 pairs (Table 1). PapersWithCode is closed; its final public evaluation-tables snapshot
lives on the Hugging Face Hub as parquet shards (``data/train-0000N-of-00004.parquet``, one row
per task, columns ``task``, ``categories``, ``datasets``, ``subtasks``, ... in the same nested
schema as the JSON dump that ``leaderboards.read_pwc_json`` reads).

Pinned revision: commit ``7dd607a42427a2c27fcedc689a7415df58788c50``, the snapshot public work
cites as the final one (retrieved July 2025). No public material we could reach lists the
shards' sha256 checksums, so none is pinned here (none is invented): the Hub client verifies the
download against the revision, and the build report records the sha256 of every shard read.

NLP filter ("as the paper does"): a task counts as NLP when "Natural Language Processing" is
among its ``categories`` or those of a task above it; a leaderboard needs >= 2 rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import DataError, HubFolder, resolve_data

PWC_ARCHIVE = HubFolder(
    repo_id="pwc-archive/evaluation-tables",
    pattern="data/train-*.parquet",
    revision="7dd607a42427a2c27fcedc689a7415df58788c50",
)
NLP_CATEGORY = "Natural Language Processing"
# Section 4 and Table 1 of the paper, set beside ours in the build report.
PAPER_COUNTS = {"nlp_leaderboards_with_2_entries": 1918, "pairs": 11488}
SOURCE_NAME = "pwc-archive"


def fetch_pwc_archive() -> list[Path]:
    """The parquet shards of the pinned snapshot, from the cache or the Hub.

    Raises:
        DataError: one sentence when the Hub cannot be reached, with the ``--source FILE`` hint.
    """
    try:
        root = resolve_data(PWC_ARCHIVE).path
    except DataError as error:
        cause = str(error).split(": could not download: ", 1)[-1].split(". ")[0]
        raise DataError(
            f"cannot fetch {PWC_ARCHIVE.describe()} ({cause}); download the evaluation tables "
            "elsewhere and pass them with --source FILE (the JSON dump or its parquet shards)"
        ) from error
    shards = sorted(root.glob(PWC_ARCHIVE.pattern))
    if not shards:
        raise DataError(f"{root}: no {PWC_ARCHIVE.pattern} in the downloaded snapshot")
    return shards


def _metrics(value: Any) -> Any:
    """A row's metrics as a dict: parquet may hold a map (list of pairs) or a JSON string."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    if isinstance(value, list) and all(isinstance(v, tuple | list) and len(v) == 2 for v in value):
        return dict(value)
    if isinstance(value, list) and all(isinstance(v, dict) and "key" in v for v in value):
        return {v["key"]: v.get("value") for v in value}
    return value


def _normalise(node: Any) -> Any:
    """Parquet nulls and maps -> the JSON dump's shapes (lists, dicts), recursively."""
    if isinstance(node, dict):
        return {
            key: _metrics(value) if key == "metrics" else _normalise(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_normalise(item) for item in node]
    return node


def read_parquet_tasks(path: Path) -> list[Any]:
    """The tasks of one evaluation-tables parquet shard, in the JSON dump's schema."""
    import pyarrow.parquet as pq  # the pwc-archive source only

    try:
        rows = pq.read_table(path).to_pylist()
    except Exception as error:  # pyarrow raises several types for one cause: unreadable file
        raise DataError(f"{path}: not a readable parquet file: {error}") from error
    return [_normalise(row) for row in rows]


def nlp_tasks(tasks: list[Any], inherited: bool = False) -> list[Any]:
    """The tasks (with their subtasks) in the NLP category, or under a task that is."""
    kept = []
    for task in tasks:
        if not isinstance(task, dict):
            kept.append(task)  # the reader names the bad record
            continue
        is_nlp = inherited or NLP_CATEGORY in (task.get("categories") or [])
        subtasks = nlp_tasks(task.get("subtasks") or [], is_nlp)
        if is_nlp:
            kept.append(task | {"subtasks": subtasks})
        elif subtasks:
            kept.append(task | {"datasets": [], "subtasks": subtasks})
    return kept


def source_report(
    source: str | None, nlp_only: bool, boards_with_2: int, pairs: int
) -> dict[str, Any]:
    """What the build read, and its counts beside the paper's (section 4, Table 1)."""
    report: dict[str, Any] = {"source": source or "files", "nlp_only": nlp_only}
    if source == SOURCE_NAME:
        report["pinned"] = PWC_ARCHIVE.describe()
    if nlp_only:
        report["beside_the_paper"] = {
            "nlp_leaderboards_with_2_entries": {
                "ours": boards_with_2,
                "paper": PAPER_COUNTS["nlp_leaderboards_with_2_entries"],
            },
            "pairs": {"ours": pairs, "paper": PAPER_COUNTS["pairs"]},
            "note": "the paper also drops boards without a research goal (327) and ideas "
            "without a parsed paper; its pairs come after its extraction and manual checks",
        }
    return report
