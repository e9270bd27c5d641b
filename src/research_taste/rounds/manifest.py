"""Writing a round folder: the items, the label-blind pairs and ``round.json`` (its label
versions: ``resolve.py``).

The layout and its reading are in ``research_taste_evals.core.rounds`` (the tasks read it);
this module writes it. Files are written whole to a ``.part`` file and renamed, so an
interrupted command never leaves half a file.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from research_taste.rounds import JUDGE_DAYS
from research_taste_evals.aaar.dataset.weakness_round import WEAKNESS_FILE
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


def label_blind_pairs(items: Sequence[RoundItem], seed: int = PAIRING_SEED) -> list[RoundPair]:
    """Disjoint pairs of date neighbours within a group (``matched.match_papers``), with no
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


def utc_now() -> dt.datetime:
    """Now, in UTC (the default clock of open and resolve)."""
    return dt.datetime.now(dt.UTC)


def utc_iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def write_round(
    out: Path,
    items: Sequence[RoundItem],
    *,
    opened_at: dt.datetime,
    source: str,
    query: dict[str, Any],
    label_plan: dict[str, Any],
    counts: dict[str, Any],
    weakness_records: Sequence[dict[str, Any]] = (),
    sample: dict[str, Any] | None = None,
    judge_days: int = JUDGE_DAYS,
) -> dict[str, Any]:
    """Write ``items.csv``, ``pairs.csv``, the PaperWeakness records if any
    (``weakness_items.jsonl``) and ``round.json`` into ``out``; the manifest. ``judge_by`` is
    ``judge_days`` after ``opened_at``: a decision after it is not prospective (the round
    scorers report it apart); ``sample`` is the draw of ``rounds/sample.py``, when there is one.

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
    weakness: dict[str, Any] = {}
    if weakness_records:
        lines = "".join(json.dumps(record) + "\n" for record in weakness_records)
        write_atomic(out / WEAKNESS_FILE, lines)
        weakness = {
            "weakness_items": len(weakness_records),
            "weakness_sha256": sha256_of(out / WEAKNESS_FILE),
        }
    manifest = {
        "name": out.name,
        "opened_at": utc_iso(opened_at),
        "judge_by": utc_iso(opened_at + dt.timedelta(days=judge_days)),
        "source": source,
        "query": query,
        "items": len(items),
        "pairs": len(pairs),
        "items_sha256": sha256_of(out / ITEMS_FILE),
        "pairs_sha256": sha256_of(out / PAIRS_FILE),
        **weakness,
        "pairing": {"seed": PAIRING_SEED, "label_blind": True, "both_orders": True},
        "label_plan": label_plan,
        "counts": counts,
        **({"sample": sample} if sample is not None else {}),
        "label_versions": [],
    }
    write_atomic(out / ROUND_FILE, json.dumps(manifest, indent=2) + "\n")
    return manifest
