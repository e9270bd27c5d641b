"""Writing a round folder at open: the items, the label-blind pairs and ``round.json`` with the
round's unique ``round_id`` (its label versions: ``resolve.py``).

The layout and its reading are in ``research_taste_evals.core.rounds`` (the tasks read it), the
writing in ``research_taste_evals.core.round_files`` (the round tasks' demos write rounds too);
this module gives it the open commands' fields.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from research_taste.rounds import JUDGE_DAYS
from research_taste.rounds.checks import no_pairs_cause
from research_taste_evals.core.data import DataError
from research_taste_evals.core.round_files import (
    csv_text,
    label_blind_pairs,
    utc_iso,
    write_atomic,
    write_round_files,
)
from research_taste_evals.core.rounds import RoundItem

__all__ = ["csv_text", "label_blind_pairs", "utc_iso", "utc_now", "write_atomic", "write_round"]


def utc_now() -> dt.datetime:
    """Now, in UTC (the default clock of open and resolve)."""
    return dt.datetime.now(dt.UTC)


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
    licences: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Write ``items.csv``, ``pairs.csv``, the PaperWeakness records if any
    (``weakness_items.jsonl``) and ``round.json`` into ``out``; the manifest. ``judge_by`` is
    ``judge_days`` after ``opened_at``: a decision after it is not prospective (the round
    scorers report it apart); ``sample`` is the draw of ``rounds/sample.py``, when there is one;
    ``round_id`` is new for every round (``core.round_files.new_round_id``); ``licences``, each
    item's licence as its source states it, is ``round.json``'s ``item_licences``.

    Raises:
        DataError: ``out`` already holds a round (a round is opened once), or fewer than two
            items could be paired.
    """
    if not label_blind_pairs(items):  # said here, where the causes are known
        cause = no_pairs_cause(items, dict(counts.get("left_out") or {}))
        raise DataError(f"{out}: only {len(items)} items and no two of them can be paired: {cause}")
    fields = {
        "source": source,
        "query": query,
        "label_plan": label_plan,
        "counts": counts,
        **({"sample": sample} if sample is not None else {}),
        **({"item_licences": licences} if licences is not None else {}),
    }
    return write_round_files(out, items, opened_at, judge_days, fields, weakness_records)
