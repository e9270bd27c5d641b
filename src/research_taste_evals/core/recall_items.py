"""A run's items as the recall figures see them, read back from the scores' metadata.

Each scored sample carries, under ``RECALL_FIELD`` (``core/recall_control.py``), each item it
showed: its date and what the recognition probe found; and the run's stated cutoff
(``knowledge_cutoff``, ``core/cutoff.py``). ``core/recall_metrics.py`` builds the recall
figures from these records.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from inspect_ai.scorer import SampleScore

from research_taste_evals.core.cutoff_estimate import month_end
from research_taste_evals.core.dates import ItemDate, parse_item_date
from research_taste_evals.core.recall_control import RECALL_FIELD
from research_taste_evals.core.stats import NAN


@dataclass(frozen=True)
class ItemRecord:
    """One distinct item of the run: its date and what the probe found."""

    date: ItemDate | None
    recognized: bool | None
    identity_leak: bool


def _metadata(score: SampleScore) -> dict[str, Any]:
    return score.score.metadata or {}


def item_records(scores: Iterable[SampleScore]) -> dict[str, ItemRecord]:
    """Each distinct item of the run (first sample seen), from the scores' recall fields."""
    items: dict[str, ItemRecord] = {}
    for score in scores:
        for item, found in (_metadata(score).get(RECALL_FIELD) or {}).items():
            if str(item) not in items:
                date = parse_item_date(found.get("date"))
                leak = bool(found.get("identity_leak"))
                items[str(item)] = ItemRecord(date, found.get("recognized"), leak)
    return items


def stated_cutoff(scores: Iterable[SampleScore]) -> dt.date | None:
    """The run's stated cutoff (``-T knowledge_cutoff`` or model info), from the scores."""
    for score in scores:
        value = _metadata(score).get("knowledge_cutoff")
        date = parse_item_date(value) if value else None
        if date is not None and date.month is not None:
            # A day as written; a month runs through its end (the ``YYYY-MM`` form).
            day = date.day or month_end((date.year, date.month)).day
            return dt.date(date.year, date.month, day)
    return None


def recognition_values(items: Mapping[str, ItemRecord]) -> dict[str, float]:
    """``recognized_rate`` over the probed items without identity leak, and its counts."""
    probed = [r.recognized for r in items.values() if r.recognized is not None]
    recognized = sum(1 for r in probed if r)
    leaked = sum(1 for r in items.values() if r.identity_leak)
    ran = bool(probed) or leaked > 0
    return {
        "recognized_rate": recognized / len(probed) if probed else NAN,
        "recognized_items": float(recognized) if ran else NAN,
        "probed_items": float(len(probed)) if ran else NAN,
        "leaked_items": float(leaked) if ran else NAN,
    }
