"""One definition of a round's item counts (core.rounds.ItemCounts): the paired items only, the
same in the judging warning, ``round resolve``'s entry and the scorer's figures; the warning
after a resolve says what the newest labels version holds (no longer "no labels yet")."""

from __future__ import annotations

from pathlib import Path

from research_taste_evals.core.rounds import (
    Round,
    RoundItem,
    RoundPair,
    judging_note,
    newest_labels,
    paired_counts,
    paired_item_ids,
)


def _round(folder: Path, labels: str | None) -> Round:
    items = [RoundItem(i, i, "2025-09-01", "text", "g") for i in ("a", "b", "c", "d", "e")]
    pairs = [RoundPair(0, "a", "b", 1, True), RoundPair(1, "c", "d", 1, True)]  # e is unpaired
    versions = []
    if labels is not None:
        (folder / "labels").mkdir(parents=True)
        (folder / "labels" / "2100-01-11.csv").write_text(labels, encoding="utf-8")
        versions = [{"version": "2100-01-11", "file": "labels/2100-01-11.csv"}]
    manifest = {"name": "r1", "label_versions": versions}
    return Round(folder=folder, manifest=manifest, items=items, pairs=pairs)


def test_counts_are_over_the_paired_items_only(tmp_path: Path) -> None:
    labels = "item_id,label,label_time,dropped\na,5,,\nb,,,withdrawn\nc,,,\nd,,,\ne,7,,\n"
    round_ = _round(tmp_path, labels)
    assert paired_item_ids(round_) == ["a", "b", "c", "d"]
    counts = paired_counts(round_, newest_labels(round_))
    assert (counts.paired, counts.labelled, counts.dropped, counts.pending) == (4, 1, 1, 2)
    assert counts.labelled_share == 0.25  # e's label is not counted: e is in no pair
    note = judging_note(round_, "rounds/r1")
    assert "labels version 2100-01-11: labelled share 0.25 (1 of 4 paired items)" in note
    assert "2 pending, 1 dropped" in note and "no labels yet" not in note


def test_before_any_resolve_every_paired_item_is_pending(tmp_path: Path) -> None:
    round_ = _round(tmp_path, None)
    assert newest_labels(round_) is None
    note = judging_note(round_, "rounds/r1")
    assert "no labels yet, 4 of its 4 paired items pending" in note
