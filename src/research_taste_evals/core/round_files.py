"""Writing a round folder (the layout is read by ``core/rounds.py``): the items, label-blind
pairs, optional per-paper records and ``round.json`` with their sha256 and the round's id.

``research-taste round open`` writes its rounds through :func:`write_round_files`, and so do the
round tasks' demo writers, so a demo round is a round like any other. Files are written whole to
a ``.part`` file and renamed, so an interrupted command never leaves half a file.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import DataError, sha256_of
from research_taste_evals.core.pairing import MatchItem, match_papers, parse_day
from research_taste_evals.core.rounds import (
    ITEM_COLUMNS,
    ITEMS_FILE,
    PAIR_COLUMNS,
    PAIRS_FILE,
    ROUND_FILE,
    RoundItem,
    RoundPair,
)

PAIRING_SEED = 20261127
# The per-paper records a round opened with paper texts holds (read by the family that judges
# them; the sha256 is ``round.json``'s ``weakness_sha256``).
RECORDS_FILE = "weakness_items.jsonl"


def write_atomic(path: Path, text: str) -> None:
    """``text`` to ``path`` through a ``.part`` file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def csv_text(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def utc_iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def label_blind_pairs(items: Sequence[RoundItem], seed: int = PAIRING_SEED) -> list[RoundPair]:
    """Disjoint pairs of date neighbours within a group (``core.pairing.match_papers``), with no
    label: every item gets a distinct placeholder label, so no pairing is refused as a tie and
    nothing about labels can enter the pairing."""
    placeholders = [
        MatchItem(item.item_id, parse_day(item.pub_date), float(index), item.group or None)
        for index, item in enumerate(items)
    ]
    matching = match_papers(placeholders, seed)
    return [
        RoundPair(pair.pair_id, pair.first, pair.second, pair.gap_days, pair.same_month)
        for pair in matching.pairs
    ]


def new_round_id(name: str, opened_at: dt.datetime) -> str:
    """A round's unique id, ``<name>-<opened at, UTC>-<8 random hex digits>``: two rounds opened
    on the same venue with the same items (hence the same sha256) still differ by it."""
    stamp = opened_at.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    return f"{name}-{stamp}-{secrets.token_hex(4)}"


def write_round_files(
    out: Path,
    items: Sequence[RoundItem],
    opened_at: dt.datetime,
    judge_days: int,
    fields: dict[str, Any],
    records: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """Write ``items.csv``, ``pairs.csv`` (label-blind), the per-paper records if any and
    ``round.json`` (``fields`` merged in: source, query, label plan, counts...) into ``out``;
    the manifest.

    Raises:
        DataError: ``out`` already holds a round (a round is opened once), or fewer than two
            items could be paired.
    """
    if (out / ROUND_FILE).exists():
        raise DataError(f"{out / ROUND_FILE}: a round is already open there; open a new round")
    pairs = label_blind_pairs(items)
    if not pairs:
        raise DataError(f"{out}: only {len(items)} items and no two of them can be paired")
    item_rows = [{c: getattr(item, c) for c in ITEM_COLUMNS} for item in items]
    pair_rows = [{c: getattr(pair, c) for c in PAIR_COLUMNS} for pair in pairs]
    write_atomic(out / ITEMS_FILE, csv_text(ITEM_COLUMNS, item_rows))
    write_atomic(out / PAIRS_FILE, csv_text(PAIR_COLUMNS, pair_rows))
    extra: dict[str, Any] = {}
    if records:
        write_atomic(out / RECORDS_FILE, "".join(json.dumps(r) + "\n" for r in records))
        extra = {"weakness_items": len(records), "weakness_sha256": sha256_of(out / RECORDS_FILE)}
    manifest = {
        "name": out.name,
        "round_id": new_round_id(out.name, opened_at),
        "opened_at": utc_iso(opened_at),
        "judge_by": utc_iso(opened_at + dt.timedelta(days=judge_days)),
        "items": len(items),
        "pairs": len(pairs),
        "items_sha256": sha256_of(out / ITEMS_FILE),
        "pairs_sha256": sha256_of(out / PAIRS_FILE),
        **extra,
        "pairing": {"seed": PAIRING_SEED, "label_blind": True, "both_orders": True},
        **fields,
        "label_versions": [],
    }
    write_atomic(out / ROUND_FILE, json.dumps(manifest, indent=2) + "\n")
    return manifest
