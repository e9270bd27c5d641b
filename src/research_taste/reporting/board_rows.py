"""Scored round logs -> the tidy rows of the adjusted rounds leaderboard (reporting.round_board).

A judgment's decisions come from its scored log; the frame it is held against (the round's
resolved, untied pairs) comes from the round folder's ``pairs.csv`` and the labels version the
log was scored with, never from the log's samples: a ``--limit`` or ``--sample-id`` run plans
only the sliced samples, so its own sample count would call it complete.
"""

from __future__ import annotations

import math
from typing import Any

from research_taste.reporting.round_board import Decision, RoundFrame
from research_taste_evals.core.data import DataError
from research_taste_evals.core.pairing import decision_correct
from research_taste_evals.core.rounds import is_prospective


def round_key(info: dict[str, Any]) -> str:
    """The identity every rounds table is keyed by, from the scored log's
    ``eval.metadata["round"]``: its ``round_id`` (two rounds may share a folder name), the
    round's name for a round opened before rounds had an id."""
    return str(info.get("round_id") or info.get("name") or "?")


def decisions(scores: list[Any], round_: str, model: str) -> list[Decision]:
    """One :class:`Decision` per scored sample (an ordered pair) of a round pairwise judgment."""

    out = []
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, dict):
            continue
        pair = str((sample_score.sample_metadata or {}).get("pair_id")).rsplit("/", 1)[-1]
        found = decision_correct(value.get("first_won"), value.get("label_1"), value.get("label_2"))
        correct = None if found is None or math.isnan(found) else found  # unclear: None
        out.append(Decision(round_, pair, model, correct, is_prospective(value)))
    return out


def frame(info: dict[str, Any], log: str) -> RoundFrame:
    """The round's headline pairs under the scored log's labels version: both items labelled,
    neither dropped, labels unequal (ties and dropped items are left out, as the headline does).

    Raises:
        DataError: the round folder or labels file the log names cannot be read (one sentence
            naming the log and the field).
    """
    from research_taste_evals.core.rounds import load_round, read_labels

    folder, labels_file = info.get("folder"), info.get("labels_file")
    if not folder or not labels_file:
        missing = "folder" if not folder else "labels_file"
        raise DataError(f"{log}: eval.metadata.round.{missing} is missing; re-score the log")
    try:
        round_, labels = load_round(str(folder)), read_labels(str(labels_file))
    except DataError as error:
        raise DataError(
            f"{log}: eval.metadata.round names a round that cannot be read here ({error}); "
            "report where the round folder is"
        ) from error
    pairs, pending = set(), False
    for pair in round_.pairs:
        first, second = labels.label(pair.item_1), labels.label(pair.item_2)
        if first.dropped or second.dropped:
            continue
        if not (math.isfinite(first.value) and math.isfinite(second.value)):
            pending = True
            continue
        if first.value != second.value:
            pairs.add(str(pair.pair_id))
    return RoundFrame(round_key(info), frozenset(pairs), resolved=not pending)
