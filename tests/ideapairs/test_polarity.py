"""Direction from meaning, rank from values (issue #18): boards listed worst-first get the
right labels, and every such board is listed in the build report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from research_taste.builders.ideapairs.boards import Leaderboard, parse_cell
from research_taste.builders.ideapairs.builder import build
from research_taste.builders.ideapairs.leaderboards import read_leaderboards
from research_taste.builders.ideapairs.pairing import plan_board
from research_taste.builders.ideapairs.polarity import (
    anchored_polarity,
    described_polarity,
    is_resource,
    metric_polarity,
)
from research_taste.builders.ideapairs.scoring import score_board
from research_taste.builders.ideapairs.splitting import Splitter

MakeBoard = Callable[..., Leaderboard]


@pytest.mark.parametrize(
    ("name", "polarity"),
    [
        ("Accuracy", "higher"),
        ("% Test Accuracy", "higher"),
        ("EM", "higher"),
        ("F1", "higher"),
        ("BLEU score", "higher"),
        ("ROUGE-L", "higher"),
        ("MRR", "higher"),
        ("Score", "higher"),
        ("Top-1 Error Rate", "lower"),
        ("WER (%)", "lower"),
        ("CER", "lower"),
        ("Test perplexity", "lower"),
        ("Validation loss", "lower"),
        ("MAE", "lower"),
        ("RMSE", "lower"),
        ("Bit per Character (BPC)", "lower"),
        ("Senseval 2", None),
        ("Dev", None),
        ("Parameters", None),
    ],
)
def test_metric_polarity_from_the_name(name: str, polarity: str | None) -> None:
    assert metric_polarity(name) == polarity


def test_polarity_from_a_description_and_from_reference_rows() -> None:
    assert described_polarity("WSD is a task.\nThe main evaluation measure is F1-score.") == (
        "higher"
    )
    assert described_polarity("We report accuracy and the error rate is the metric.") is None
    assert anchored_polarity(["MFS baseline", "x", "y"], [0.0, 0.5, 1.0]) == "higher"
    assert anchored_polarity(["Human performance", "x", "y"], [0.0, 0.5, 1.0]) == "lower"
    assert anchored_polarity(["x", "y"], [0.0, 1.0]) is None
    # a "Baseline" in the middle of the board is a method (CoQA), not a reference point
    middle = ["a", "b", "BERT Large Finetuned Baseline", "c", "d"]
    assert anchored_polarity(middle, [1.0, 0.9, 0.76, 0.3, 0.0]) is None


def test_percentage_correct_is_higher_and_model_size_is_no_result(
    board_from_rows: Callable[..., Leaderboard],
) -> None:
    assert metric_polarity("Percentage correct") == "higher"
    assert is_resource("Number of params") and is_resource("#Params (M)")
    assert not is_resource("Test Accuracy") and not is_resource("Parsing F1")
    rows = [(f"M{i}", 2019, {"Test Accuracy": 80.0 - i, "Number of params": 1e6 * (i + 1)})
            for i in range(5)]  # fmt: skip
    scored, _ = score_board(board_from_rows(rows))
    assert scored.columns == ["Test Accuracy"]
    assert scored.left_out_columns == {"Number of params": "model size or cost, not a result"}


def test_worst_first_table_keeps_its_meaning_and_is_reported(board_from_rows: MakeBoard) -> None:
    # Accuracy listed ascending (worst first): the row-order check would invert it.
    board = board_from_rows(
        [
            ("a", 2017, {"Accuracy": 60.0}),
            ("b", 2018, {"Accuracy": 70.0}),
            ("c", 2019, {"Accuracy": 90.0}),
        ]
    )
    scored, drops = score_board(board)
    assert drops == []
    assert scored.inverted == []
    assert scored.ranks == [3, 2, 1]
    assert scored.direction_source == {"Accuracy": "metric_name"}
    assert [c["column"] for c in scored.contradictions] == ["Accuracy"]


def test_unknown_metric_name_falls_back_to_the_row_order(board_from_rows: MakeBoard) -> None:
    board = board_from_rows(
        [("a", 2019, {"Dev": 4.2}), ("b", 2018, {"Dev": 4.4}), ("c", 2017, {"Dev": 5.0})]
    )
    scored, _ = score_board(board)
    assert scored.direction_source == {"Dev": "row_order"}
    assert scored.inverted == ["Dev"]
    assert scored.contradictions == []


def _pairs_by_method(source: Path, board_name: str) -> list[tuple[str, str]]:
    splitter = Splitter(20260521)
    found = []
    for board in read_leaderboards([source]):
        scored, _ = score_board(board)
        plan, _ = plan_board(scored, splitter)
        if board.name == board_name:
            found += [
                (scored.entries[p.better].method, scored.entries[p.worse].method)
                for p in plan.pairs
            ]
    return found


def test_wsd_boards_of_nlp_progress_put_the_baseline_below_elmo(upstream_dir: Path) -> None:
    export = upstream_dir / "sota-extractor" / "data" / "tasks" / "nlp-progress.json"
    boards = {b.name: b for b in read_leaderboards([export])}
    supervised = boards["Word Sense Disambiguation on Supervised"]
    scored, _ = score_board(supervised)
    by_method = dict(zip([e.method for e in scored.entries], scored.scores, strict=True))
    assert by_method["MFS baseline"] < by_method["ELMo"]
    assert scored.inverted == []
    assert scored.contradictions  # rows listed ascending: reported
    pairs = _pairs_by_method(export, "Word Sense Disambiguation on Supervised")
    assert pairs and all(worse != "ELMo" or better != "MFS baseline" for better, worse in pairs)
    assert all(better != "MFS baseline" for better, _ in pairs)
    knowledge, _ = score_board(boards["Word Sense Disambiguation on Knowledge-based"])
    assert knowledge.inverted == []


def test_snli_pairs_of_sota_extractor_follow_test_accuracy(upstream_dir: Path) -> None:
    snli = upstream_dir / "sota-extractor" / "data" / "tasks" / "snli.json"
    board = read_leaderboards([snli])[0]
    scored, _ = score_board(board)
    assert scored.rank_column == "% Test Accuracy"
    assert "% Test Accuracy" not in scored.inverted
    accuracy = {e.method: parse_cell(e.cells["% Test Accuracy"])[1] for e in scored.entries}
    pairs = _pairs_by_method(snli, board.name)
    assert len(pairs) > 20
    assert all(accuracy[better] > accuracy[worse] for better, worse in pairs)  # type: ignore[operator]


@pytest.mark.parametrize(
    "source",
    ["nlp-progress", "sota-extractor/data/tasks/nlp-progress.json", "sota-extractor/data/tasks"],
)
def test_no_pair_contradicts_a_metric_whose_name_gives_its_polarity(
    upstream_dir: Path, tmp_path: Path, source: str
) -> None:
    path = upstream_dir / source
    inputs = sorted(path.glob("*.json")) if path.name == "tasks" else [path]
    splitter = Splitter(20260521)
    checked = 0
    for board in read_leaderboards(inputs):
        scored, _ = score_board(board)
        plan, _ = plan_board(scored, splitter)
        for pair in plan.pairs:
            better, worse = scored.entries[pair.better], scored.entries[pair.worse]
            for column in scored.columns:
                polarity = metric_polarity(column)
                if polarity is None:
                    continue
                high, low = parse_cell(better.cells[column])[1], parse_cell(worse.cells[column])[1]
                assert high >= low if polarity == "higher" else high <= low, (  # type: ignore[operator]
                    board.name,
                    column,
                    better.method,
                    worse.method,
                )
                checked += 1
    assert checked > 100
    report = build(inputs, tmp_path / "pairs.jsonl", extract=False).report
    listed = report["row_order_contradicts_polarity"]
    assert all({"board", "column", "polarity", "row_correlation"} <= set(c) for c in listed)
