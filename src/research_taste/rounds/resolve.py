"""One resolve of a round: its labels version, the cache that version alone reads, and the entry
``round.json`` lists it under.

Both sources (``rounds/openreview.py``, ``rounds/arxiv.py``) resolve the same way: read the
checked round, name the new version from the day (``labels/<day>.csv``, then ``<day>.2.csv``...:
never reused), fetch through the version's own cache (``cache/resolve-<version>``: a resolve never
reads answers cached by ``open`` or by an earlier resolve), write the labels file and append its
entry to ``label_versions``. The item file is never touched.

Items that never resolve do not hold a round back (``settle``): an item withdrawn,
desk-rejected or retracted after open keeps the label it has (its source's, else the previous
labels version's: withdrawal depends on the reviews, so dropping those labels would bias the
pairs); one that left with no label, or that no longer exists, or an arXiv paper whose citation
series cannot carry a slope at its due date, is dropped from scoring with its reason (column
``dropped``), counted in the version's entry, and no longer pending. A version whose items all
have a label or a reason is ``resolved``.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_taste.rounds.checks import check_manifest
from research_taste.rounds.manifest import csv_text, utc_iso, write_atomic
from research_taste_evals.core.data import DataError, read_csv, sha256_of
from research_taste_evals.core.rounds import (
    LABELS_DIR,
    ROUND_FILE,
    Round,
    item_counts,
    item_state,
    load_round,
    paired_item_ids,
    read_manifest,
)


def next_labels_path(folder: Path, day: dt.date) -> Path:
    """``labels/<day>.csv``, or ``<day>.2.csv``, ``<day>.3.csv``... when taken (never reused)."""
    base = folder / LABELS_DIR
    candidate, n = base / f"{day.isoformat()}.csv", 1
    while candidate.exists():
        n += 1
        candidate = base / f"{day.isoformat()}.{n}.csv"
    return candidate


def add_label_version(folder: Path, entry: dict[str, Any]) -> dict[str, Any]:
    """Append ``entry`` to ``round.json``'s ``label_versions`` (the items are untouched)."""
    manifest = read_manifest(folder)
    manifest.setdefault("label_versions", []).append(entry)
    write_atomic(folder / ROUND_FILE, json.dumps(manifest, indent=2) + "\n")
    return manifest


@dataclass(frozen=True)
class LabelsVersion:
    """A resolve under way: the round, when it resolves, and the labels file it will write."""

    round_: Round
    resolved_at: dt.datetime
    path: Path

    @property
    def folder(self) -> Path:
        return self.round_.folder

    @property
    def cache_dir(self) -> Path:
        """This version's own cache (no other open or resolve reads it; a resolve killed midway
        and started again the same day resumes from it: same day, same version)."""
        return self.folder / "cache" / f"resolve-{self.path.stem}"

    def today(self) -> dt.date:
        """The day the labels are fetched (the fetch date the clients record)."""
        return self.resolved_at.date()


def new_labels_version(out: str | Path, now: Callable[[], dt.datetime]) -> LabelsVersion:
    """The next labels version of the round in ``out`` (checked: a changed item file is refused).

    Raises:
        DataError: ``out`` is not an intact round.
    """
    round_ = load_round(out)
    check_manifest(round_.folder / ROUND_FILE, round_.manifest)
    labels = round_.folder / LABELS_DIR
    if labels.exists() and not labels.is_dir():
        raise DataError(f"{labels}: a file where the round's labels folder is expected")
    resolved = now()
    return LabelsVersion(round_, resolved, next_labels_path(round_.folder, resolved.date()))


# An item with one of these statuses and no label leaves the round: it is dropped, not pending.
LEAVING = ("withdrawn", "desk_rejected", "retracted", "not_found", "no_slope_at_due_date")


def previous_rows(version: LabelsVersion) -> dict[str, dict[str, Any]]:
    """The rows of the round's latest labels version before this one (none: empty)."""
    versions = version.round_.manifest.get("label_versions") or []
    if not versions:
        return {}
    path = version.folder / str(versions[-1]["file"])
    return {str(row["item_id"]): row for row in read_csv(path)} if path.is_file() else {}


def settle(version: LabelsVersion, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with the leavers settled (module docstring): a leaver's label kept from the
    previous version where this one has none, the others' ``dropped`` reason set."""
    previous = previous_rows(version)
    settled = []
    for row in rows:
        status = str(row.get("status") or "")
        if row["label"] == "" and status in LEAVING:
            before = previous.get(str(row["item_id"])) or {}
            if before.get("label"):
                row = {**row, **{k: v for k, v in before.items() if k in row}, "status": status}
        row = {**row, "dropped": status if row["label"] == "" and status in LEAVING else ""}
        settled.append(row)
    return settled


def record_labels_version(
    version: LabelsVersion,
    columns: Sequence[str],
    rows: Sequence[dict[str, Any]],
    horizon_reached: Callable[[dict[str, Any]], bool],
    **notes: Any,
) -> dict[str, Any]:
    """Write ``rows``, settled (:func:`settle`), to the version's labels file and list it in
        ``round.json``; its entry (the paired items' labelled share and pending count, as the scorer
    counts them: ``core.rounds.ItemCounts``; the share of items whose label's horizon is
        reached, the items dropped by reason, whether the round is resolved, and ``notes``)."""
    rows = settle(version, rows)
    write_atomic(version.path, csv_text([*columns, "dropped"], rows))
    dropped: dict[str, int] = {}
    for row in rows:
        if row["dropped"]:
            dropped[row["dropped"]] = dropped.get(row["dropped"], 0) + 1
    by_id = {str(row["item_id"]): row for row in rows}
    found = [by_id.get(item_id) or {} for item_id in paired_item_ids(version.round_)]
    states = [item_state(bool(row.get("label")), bool(row.get("dropped"))) for row in found]
    counts = item_counts(states)
    entry = {
        "version": version.path.stem,
        "file": str(version.path.relative_to(version.folder)),
        "resolved_at": utc_iso(version.resolved_at),
        # over the paired items, as the judging warning and the scorer (core.rounds.ItemCounts)
        "labelled_share": counts.labelled_share if counts.paired else None,
        "paired_items": counts.paired,
        "pending_items": counts.pending,
        "horizon_reached_share": sum(map(horizon_reached, rows)) / len(rows) if rows else None,
        "dropped": dropped,
        "resolved": all(row["label"] != "" or row["dropped"] for row in rows),
        # what `round score` checks the file against: a hand-edited label is refused
        "labels_sha256": sha256_of(version.path),
        **notes,
    }
    add_label_version(version.folder, entry)
    return entry
