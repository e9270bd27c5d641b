"""Issue 59, item 3: the simulated venue. Seeded, offline; its clock is kept in the round's
venue.json and moves only by ``--advance-days``; a resolve sees the reviews posted by the
clock's time, in the conference labels' shape; the labels follow the abstracts' evidence."""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import statistics
from pathlib import Path

import pytest

from research_taste.cli import main
from research_taste.rounds.simulated import (
    advance_clock,
    open_simulated_round,
    resolve_simulated,
    venue_clock,
)
from research_taste_evals.core.data import DataError
from research_taste_evals.core.simulated_venue import EVIDENCE, generate, tier

OPENED = dt.datetime(2027, 3, 1, 9, tzinfo=dt.UTC)


def _open(folder: Path, seed: int = 7, items: int = 40) -> dict:
    return open_simulated_round(folder, max_items=items, seed=seed, now=lambda: OPENED)


def _labels(folder: Path, entry: dict) -> dict[str, dict[str, str]]:
    with (folder / entry["file"]).open(encoding="utf-8") as handle:
        return {row["item_id"]: row for row in csv.DictReader(handle)}


def test_the_same_seed_opens_the_same_venue(tmp_path: Path) -> None:
    one, two, other = _open(tmp_path / "a"), _open(tmp_path / "b"), _open(tmp_path / "c", seed=8)
    assert one["items_sha256"] == two["items_sha256"] != other["items_sha256"]
    assert one["source"] == "simulated" and one["label_plan"]["kind"] == "rating"
    assert one["weakness_items"] == 40 and one["pairs"] == 20


def test_the_clock_moves_only_when_told_and_survives_between_resolves(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    _open(folder)
    venue = json.loads((folder / "venue.json").read_text())
    first = resolve_simulated(folder)  # at the open: no review is out
    assert first["labelled_share"] == 0.0 and first["resolved_at"] == "2027-03-01T09:00:00Z"
    assert first["reviews_left_out"] == {}  # a review not posted yet is not public, not refused
    middle = resolve_simulated(folder, advance_days=20)
    assert venue_clock(folder) == OPENED + dt.timedelta(days=20)
    again = resolve_simulated(folder)  # no advance: the same clock, a new version of that day
    assert again["resolved_at"] == middle["resolved_at"] and again["version"].endswith(".2")
    rows = _labels(folder, middle)
    clock = OPENED + dt.timedelta(days=20)
    for item_id, future in venue["submissions"].items():
        posted = [
            r for r in future["reviews"] if dt.datetime.fromisoformat(r["posted_at"]) <= clock
        ]
        row = rows[item_id]
        if posted:
            assert float(row["label"]) == pytest.approx(
                statistics.fmean(r["rating"] for r in posted), rel=1e-5
            )
            assert row["label_time"] == min(r["posted_at"] for r in posted)
        else:
            assert row["label"] == "" and row["status"] == "pending"
    assert 0 < middle["labelled_share"] < 1
    last = resolve_simulated(folder, advance_days=8)  # day 28: every review is out
    assert last["labelled_share"] == 1.0 and last["resolved"]
    weaknesses = json.loads((folder / "labels" / f"{last['version']}.weaknesses.json").read_text())
    assert all(len(lists) == 3 and all(lists) for lists in weaknesses.values())


def test_labels_follow_the_evidence_the_abstract_shows() -> None:
    venue = generate(3, 400, OPENED)
    by_tier: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for submission in venue:
        abstract = submission.item.abstract
        shown = [
            t
            for t, sentences in enumerate(EVIDENCE)
            if any(re.search(re.escape(x).replace(r"\{k\}", r"\d+"), abstract) for x in sentences)
        ]
        assert shown == [tier(submission.future["quality"])]
        ratings = [r["rating"] for r in submission.future["reviews"]]
        by_tier[shown[0]].append(statistics.fmean(ratings))
    high, middle, low = (statistics.fmean(by_tier[t]) for t in (0, 1, 2))
    assert high > middle + 2 > low + 4


def test_advance_days_on_a_real_venue_s_round_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "r"
    _open(folder)
    manifest = json.loads((folder / "round.json").read_text())
    manifest["source"] = "arxiv"
    (folder / "round.json").write_text(json.dumps(manifest))
    assert main(["round", "resolve", str(folder), "--advance-days", "3"]) != 0
    [line] = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert "--advance-days" in line and "'arxiv'" in line


def test_a_broken_venue_state_is_one_sentence_naming_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    _open(folder)
    (folder / "venue.json").write_text(json.dumps({"clock": "soon", "submissions": {}}))
    with pytest.raises(DataError, match=r"venue\.json: field 'clock' must be an ISO time"):
        resolve_simulated(folder)
    with pytest.raises(DataError, match="venue.json"):
        advance_clock(folder, 1)


def test_the_cli_opens_and_resolves_with_the_clock_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "r"
    argv = ["round", "open", "--source", "simulated", "--max-items", "12", "--out", str(folder)]
    assert main(argv) == 0
    assert "opened" in capsys.readouterr().out
    assert main(["round", "resolve", str(folder), "--advance-days", "28"]) == 0
    assert "labelled share 1 (" in capsys.readouterr().out
    assert main(["round", "open", "--source", "simulated", "--venue", "TMLR", "--out", "x"]) != 0
