"""Rounds' resolve, shared by both sources: a new labels version a day, never reused, its own
cache folder, and the entry ``round.json`` lists it under (the item file untouched)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from research_taste.rounds.manifest import write_round
from research_taste.rounds.resolve import new_labels_version, record_labels_version
from research_taste_evals.core.data import sha256_of
from research_taste_evals.core.rounds import RoundItem

OPENED = dt.datetime(2026, 1, 1, 9, tzinfo=dt.UTC)
RESOLVED = dt.datetime(2026, 3, 2, 18, 30, tzinfo=dt.UTC)


def _round(folder: Path) -> None:
    items = [
        RoundItem(f"i{n}", f"Title {n}", f"2025-12-0{n}", f"Abstract {n}.", "g")
        for n in (1, 2, 3, 4)
    ]
    write_round(folder, items, opened_at=OPENED, source="test", query={}, label_plan={}, counts={})


def _resolve(folder: Path) -> dict:
    version = new_labels_version(folder, lambda: RESOLVED)
    assert version.today() == dt.date(2026, 3, 2)
    assert version.cache_dir == folder.resolve() / "cache" / f"resolve-{version.path.stem}"
    rows = [
        {"item_id": "i1", "label": "5", "status": "decided"},
        {"item_id": "i2", "label": "", "status": "pending"},
        {"item_id": "i3", "label": "", "status": "reviewed"},
        {"item_id": "i4", "label": "7", "status": "decided"},
    ]
    return record_labels_version(
        version,
        ("item_id", "label", "status"),
        rows,
        horizon_reached=lambda row: row["status"] == "decided",
        ratings="as fetched",
    )


def test_each_resolve_writes_a_new_version_and_lists_it(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    _round(folder)
    items_before = (folder / "items.csv").read_bytes()
    first, second = _resolve(folder), _resolve(folder)
    assert first == {
        "version": "2026-03-02",
        "file": "labels/2026-03-02.csv",
        "resolved_at": "2026-03-02T18:30:00Z",
        "labelled_share": 0.5,  # of the paired items (all four here)
        "paired_items": 4,
        "pending_items": 2,
        "horizon_reached_share": 0.5,
        "dropped": {},
        "resolved": False,
        "labels_sha256": sha256_of(folder / "labels" / "2026-03-02.csv"),
        "ratings": "as fetched",
    }
    assert second["version"] == "2026-03-02.2" and second["file"] == "labels/2026-03-02.2.csv"
    manifest = json.loads((folder / "round.json").read_text(encoding="utf-8"))
    assert manifest["label_versions"] == [first, second]
    assert (folder / "labels" / "2026-03-02.csv").read_text(encoding="utf-8").splitlines() == [
        "item_id,label,status,dropped",
        "i1,5,decided,",
        "i2,,pending,",
        "i3,,reviewed,",
        "i4,7,decided,",
    ]
    assert (folder / "items.csv").read_bytes() == items_before


def test_leavers_keep_an_earlier_label_or_are_dropped(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    _round(folder)
    _resolve(folder)  # i1 labelled 5
    version = new_labels_version(folder, lambda: RESOLVED + dt.timedelta(days=1))
    rows = [
        {"item_id": "i1", "label": "", "status": "withdrawn"},  # its reviews are gone now
        {"item_id": "i2", "label": "", "status": "desk_rejected"},
        {"item_id": "i3", "label": "", "status": "no_slope_at_due_date"},
        {"item_id": "i4", "label": "7", "status": "decided"},
    ]
    entry = record_labels_version(version, ("item_id", "label", "status"), rows, lambda _: True)
    assert entry["dropped"] == {"desk_rejected": 1, "no_slope_at_due_date": 1}
    assert entry["resolved"] is True and entry["labelled_share"] == 0.5
    lines = (folder / entry["file"]).read_text(encoding="utf-8").splitlines()
    assert lines[1:3] == ["i1,5,withdrawn,", "i2,,desk_rejected,desk_rejected"]
