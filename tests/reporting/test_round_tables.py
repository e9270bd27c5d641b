"""The adjusted rounds leaderboard from shown round rows (reporting.round_tables): each round is
framed by its own pairs.csv and labels file, so a --limit judgment is held against every pair of
the round; rounds.csv and rounds_leaderboard.csv hold the figures."""

from __future__ import annotations

import csv
import hashlib
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste.cli.reporting import MIN_PAIRS
from research_taste.reporting.round_board import DEFAULT_MIN_PAIRS
from research_taste.reporting.round_tables import board_tables, csv_tables, round_boards
from research_taste.reporting.rounds import RoundRow
from research_taste_evals.core.data import DataError

NAN = math.nan


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _round(root: Path, name: str, pairs: int) -> dict[str, Any]:
    """A round of ``pairs`` pairs, item a<k> (label 2) before b<k> (label 1), resolved."""
    folder = root / name
    (folder / "labels").mkdir(parents=True)
    with (folder / "items.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["item_id", "title", "pub_date", "abstract", "group"])
        for k in range(pairs):
            for item in (f"a{k}", f"b{k}"):
                writer.writerow([item, item, "2027-01-01", "text", "g"])
    with (folder / "pairs.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["pair_id", "item_1", "item_2", "gap_days", "same_month"])
        writer.writerows([k, f"a{k}", f"b{k}", 0, True] for k in range(pairs))
    with (folder / "labels" / "2027-02-01.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["item_id", "label", "label_time", "dropped"])
        for k in range(pairs):
            writer.writerows([[f"a{k}", 2, "", ""], [f"b{k}", 1, "", ""]])
    manifest = {
        "name": name,
        "opened_at": "2027-01-05T00:00:00Z",
        "items_sha256": _sha(folder / "items.csv"),
        "pairs_sha256": _sha(folder / "pairs.csv"),
        "label_plan": {"prompt": "reviews"},
        "label_versions": [  # as round resolve lists a version: its file's sha256 with it
            {
                "version": "2027-02-01",
                "file": "labels/2027-02-01.csv",
                "labels_sha256": _sha(folder / "labels" / "2027-02-01.csv"),
            }
        ],
    }
    (folder / "round.json").write_text(json.dumps(manifest))
    return {
        "name": name,
        "folder": str(folder),
        "labels_file": str(folder / "labels" / "2027-02-01.csv"),
    }


def _row(info: dict[str, Any], model: str, skill: float, pairs: range, seed: int) -> RoundRow:
    """A shown judgment: each order of each pair right with probability ``skill``."""
    rng = np.random.default_rng(seed)
    scores = []
    for k in pairs:
        for first in (1.0, 0.0):  # order 1 shows a<k> first, order 2 b<k> first
            right = rng.random() < skill
            value = {
                "first_won": first if right else 1.0 - first,
                "unclear": 0.0,
                "label_1": 2.0 if first else 1.0,
                "label_2": 1.0 if first else 2.0,
                "label_time_1": NAN,
                "label_time_2": NAN,
                "decided_at": NAN,
                "judge_by": NAN,
            }
            metadata = {"pair_id": f"{info['name']}/{k}", "paper_1": "x", "paper_2": "y"}
            scores.append(SampleScore(score=Score(value=value), sample_metadata=metadata))
    metrics = {"pairwise_accuracy": 0.5, "prospective_share": 1.0}
    return RoundRow("tastybench", model, info["name"], "2027-01-02T00:00", "2027-02-01", metrics,
                    scores, info=info, log=f"{model}-{info['name']}.eval")  # fmt: skip


def test_a_limited_judgment_is_listed_unranked_and_the_csvs_hold_the_figures(
    tmp_path: Path,
) -> None:
    easy, hard = _round(tmp_path, "easy", 120), _round(tmp_path, "hard", 120)
    small = _round(tmp_path, "small", 5)
    rows = [
        _row(easy, "ref-a", 0.9, range(120), 1),
        _row(hard, "ref-a", 0.7, range(120), 2),
        _row(easy, "ref-b", 0.6, range(120), 3),
        _row(hard, "ref-b", 0.5, range(120), 4),
        _row(hard, "limited", 1.0, range(20), 5),  # a --limit 40 run: 20 of the 120 pairs
        _row(small, "ref-a", 0.9, range(5), 6),
        _row(small, "ref-b", 0.9, range(5), 7),
    ]
    weakness = RoundRow("paper_weakness", "generic", "easy", "2027-01-02T00:00", "2027-02-01",
                        {"s_f1": 0.2}, [], info=easy)  # fmt: skip
    boards = round_boards(rows, min_pairs=50, resamples=200)
    result = boards["tastybench"]
    lines = {line.model: line for line in result.models}
    assert lines["ref-a"].ranked and lines["ref-b"].ranked
    assert not lines["limited"].ranked and "coverage under 95%" in lines["limited"].reason
    assert result.beats[("ref-a", "ref-b")] > 0.95
    uses = {use.round: use for use in result.rounds}
    assert not uses["small"].used and "--min-pairs 50" in uses["small"].reason

    files = csv_tables([*rows, weakness], boards)
    per_round = [
        dict(zip(files["rounds.csv"][0], line, strict=True)) for line in files["rounds.csv"][1:]
    ]
    [limited] = [line for line in per_round if line["model"] == "limited"]
    assert float(limited["coverage"]) == pytest.approx(20 / 120)
    assert float(limited["headline_missing_at_half"]) == pytest.approx((20 + 100 * 0.5) / 120)
    assert limited["complete"] == "no" and "not fitted" in limited["note"]
    [generic] = [line for line in per_round if line["model"] == "generic"]
    assert generic["note"] == "not ranked (not pairwise)"
    header, *board_lines = files["rounds_leaderboard.csv"]
    board = {line[1]: dict(zip(header, line, strict=True)) for line in board_lines}
    assert board["limited"]["ranked"] == "no" and "coverage" in board["limited"]["reason"]
    headline = float(board["limited"]["pooled_headline_missing_at_half"])
    assert headline == pytest.approx((20 + 100 * 0.5) / 120)  # listed with it, not fitted
    assert board["limited"]["adjusted"] == ""  # undefined: not fitted
    assert board["ref-a"]["ranked"] == "yes"
    names = ("adjusted_ci_low", "adjusted", "adjusted_ci_high")
    low, value, high = (float(board["ref-a"][name]) for name in names)
    assert low <= value <= high
    assert board["generic"]["reason"] == "not ranked (not pairwise)"

    (caption, _), (_, matrix), _ = board_tables("tastybench", result)
    head, *cells = matrix[1]
    assert matrix[1][1 + matrix[0][1:].index(head)] == ""  # a model against itself: never shown
    assert all(
        cell != "" for column, cell in zip(matrix[0][1:], cells, strict=True) if column != head
    )
    assert "0 pairs judged by one model only" in caption


def test_a_round_folder_that_cannot_be_read_is_one_sentence_naming_the_log(tmp_path: Path) -> None:
    info = _round(tmp_path, "gone", 3)
    rows = [_row(info, "m", 0.5, range(3), 1)]
    (tmp_path / "gone" / "pairs.csv").write_text("pair_id,item_1,item_2,gap_days,same_month\n")
    with pytest.raises(DataError, match=r"^m-gone\.eval: eval\.metadata\.round names a round"):
        round_boards(rows)


def test_the_command_line_default_is_the_module_default() -> None:
    assert MIN_PAIRS == DEFAULT_MIN_PAIRS


def test_a_model_that_skipped_more_than_five_percent_is_not_ranked(tmp_path: Path) -> None:
    """docs/rounds.md: "no rank for a model that skipped more than 5%", pooled over the rounds
    it judged: a complete judgment of one round does not rank a model that judged a sixth of
    another (the partial judgment is listed, not fitted)."""
    easy, hard = _round(tmp_path, "easy", 60), _round(tmp_path, "hard", 60)
    rows = [
        _row(easy, "ref-a", 0.9, range(60), 1),
        _row(hard, "ref-a", 0.7, range(60), 2),
        _row(easy, "ref-b", 0.6, range(60), 3),
        _row(hard, "ref-b", 0.5, range(60), 4),
        _row(easy, "split", 0.8, range(60), 5),  # complete
        _row(hard, "split", 0.8, range(10), 6),  # a --limit run: 10 of the 60 pairs
    ]
    result = round_boards(rows, min_pairs=50, resamples=50)["tastybench"]
    lines = {line.model: line for line in result.models}
    assert lines["ref-a"].ranked and lines["ref-b"].ranked
    split = lines["split"]
    assert split.coverage == pytest.approx((120 + 20) / 240)  # pooled over both rounds
    assert not split.ranked and "skipped more than 5%" in split.reason
    assert math.isnan(split.adjusted[0])
    uses = {use.round: use for use in result.rounds}
    assert uses["easy"].used and "prospectively" not in uses["easy"].reason
