"""The figures a round's scorer reports about the round itself, the same in every log of it.

A judgment scores the samples it ran, but its labelled share, pending and dropped items are the
round's: counted over the round's paired items (``core.rounds.paired_counts``), never over the
items of the samples a ``--limit`` or ``--sample-id`` run happened to plan, nor over the samples
left after errored ones are taken out (``round score``). The scorer puts these counts in each
sample's value (:data:`ROUND_COUNT_KEYS`) and the metric reads them back
(:func:`counts_from_values`), so the judgment log, every scored log, the report and its CSVs
show one figure. The round's ``judge_by`` comes with them: a judgment made after it is not
prospective even before any labels version exists.
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from research_taste_evals.core.round_manifest import parse_time
from research_taste_evals.core.rounds import (
    ItemCounts,
    Labels,
    Round,
    is_round,
    load_round,
    paired_counts,
)

ROUND_COUNT_KEYS = ("round_paired_items", "round_labelled_items", "round_dropped_items")


def round_figures(
    labels: Labels | None, folder: str | None
) -> tuple[ItemCounts | None, dt.datetime | None]:
    """(the round's paired items counted in ``labels``, its ``judge_by``): the round is the
    labels file's (``<round>/labels/<version>.csv``), else ``folder``; (None, the labels'
    ``judge_by``) for a labels file outside any round folder."""
    root = labels.path.parent.parent if labels else Path(folder) if folder else None
    if root is None or not is_round(root):
        return None, labels.judge_by if labels else None
    round_ = load_round(root)
    return paired_counts(round_, labels), parse_time(round_.manifest.get("judge_by"))


def count_values(counts: ItemCounts | None) -> dict[str, float]:
    """The round's counts as a sample value's entries (none for no round)."""
    if counts is None:
        return {}
    figures = (counts.paired, counts.labelled, counts.dropped)
    return {key: float(value) for key, value in zip(ROUND_COUNT_KEYS, figures, strict=True)}


def counts_from_values(values: Iterable[dict[str, Any]]) -> ItemCounts | None:
    """The round's counts the samples carry (:func:`count_values`); None when none does (a log
    scored before they were recorded: the metric then counts its samples' items)."""
    for value in values:
        found = [value.get(key) for key in ROUND_COUNT_KEYS]
        if all(isinstance(x, float) and math.isfinite(x) for x in found):
            paired, labelled, dropped = (int(x) for x in found)  # type: ignore[arg-type]
            return ItemCounts(paired, labelled, dropped)
    return None


def window_warnings(round_: Round, now: dt.datetime | None = None) -> list[str]:
    """The warning a judgment of a round whose judging window closed gets (``judge_by`` passed:
    its decisions are not prospective, and its scorer counts them so): printed to stderr, which
    every display mode shows (``--display none`` included), and returned for the log's
    ``eval.metadata["round"]["warnings"]``. Empty within the window or without one."""
    judge_by = parse_time(round_.manifest.get("judge_by"))
    moment = now or dt.datetime.now(dt.UTC)
    if judge_by is None or moment <= judge_by:
        return []
    warning = (
        f"round {round_.name}: its judging window closed at {round_.manifest['judge_by']} "
        f"(judge_by in {round_.folder / 'round.json'}): decisions made now are not prospective "
        "and count in no headline; judge a round open now (`research-taste round open`)"
    )
    print(f"warning: {warning}", file=sys.stderr)
    return [warning]
