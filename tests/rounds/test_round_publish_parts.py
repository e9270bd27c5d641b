"""``round publish``'s parts: tie ranks, p-value against the floor and share at #1 on a
hand-worked board, a Hub round's pinned revision, and texts withheld without an open licence."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from round_publication import published_round

from research_taste.reporting.round_board import Board, ModelLine
from research_taste.reporting.round_publish_board import FLOOR, leaderboard_rows, tie_ranks
from research_taste_evals.core.data import DataError
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.round_snapshot import hub_round_parts
from research_taste_evals.tastybench.tastybench import tastybench_round

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _line(model: str, adjusted: float, ranked: bool = True) -> ModelLine:
    nan3 = (math.nan, math.nan, math.nan)
    return ModelLine(
        model=model,
        rounds=1,
        rounds_used=1 if ranked else 0,
        pairs=40,
        coverage=1.0,
        headline=adjusted,
        raw=(adjusted, adjusted - 0.1, adjusted + 0.1),
        adjusted=(adjusted, adjusted - 0.1, adjusted + 0.1) if ranked else nan3,
        ranked=ranked,
        reason="" if ranked else "judged only rounds not used",
    )


def test_ties_share_a_rank_and_the_next_skips() -> None:
    # 0.7 and 0.70004 are equal at three decimals: ranks 1, 1, then 3, 4 ("min" ranking)
    ranks = tie_ranks({"a": 0.7, "b": 0.70004, "c": 0.61, "floor": 0.55})
    assert ranks == {"a": 1, "b": 1, "c": 3, "floor": 4}


def test_leaderboard_rows_in_forecastbench_shape() -> None:
    models = [_line("a", 0.7), _line("b", 0.70004), _line(FLOOR, 0.55), _line("late", 0.9, False)]
    # hand-set bootstrap shares: a above the floor in 97% of replicates, b in 90%
    beats = {("a", FLOOR): 0.97, ("b", FLOOR): 0.90, (FLOOR, "a"): 0.03, (FLOOR, "b"): 0.1}
    beats |= {("a", "b"): 0.5, ("b", "a"): 0.45}
    board = Board(
        rounds=[],
        models=models,
        judgments=[],
        beats=beats,
        single_model_pairs=0,
        all_rounds=[],
        resamples=100,
        top_share={"a": 0.55, "b": 0.45, FLOOR: 0.0},
    )
    rows = {row["model"]: row for row in leaderboard_rows(board)}
    assert [rows[m]["rank"] for m in ("a", "b", FLOOR, "late")] == [1, 1, 3, ""]
    assert rows["a"]["p_value_vs_floor"] == pytest.approx(0.03)
    assert rows["b"]["p_value_vs_floor"] == pytest.approx(0.10)
    assert rows[FLOOR]["p_value_vs_floor"] == ""  # not compared with itself
    assert rows["late"]["adjusted_accuracy"] == "" and rows["late"]["ranked"] is False
    assert rows["a"]["share_at_first"] == 0.55 and rows["late"]["share_at_first"] == ""
    assert [row["model"] for row in leaderboard_rows(board)][-1] == "late"  # unranked last


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("hf://lab/rounds/iclr-a", "no revision is not pinned"),
        ("hf://lab/rounds@main/iclr-a", "revision 'main' is not pinned"),
        ("hf://lab/rounds@0123abc/iclr-a", "revision '0123abc' is not pinned"),
        ("hf://rounds/iclr-a", "a Hub round is hf://"),
    ],
)
def test_unpinned_hub_round_refused_offline(value: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        tastybench_round(round=value)


def test_pinned_hub_round_parts() -> None:
    assert hub_round_parts(f"hf://lab/rounds@{COMMIT}/iclr-a") == ("lab/rounds", COMMIT, "iclr-a")


@pytest.mark.slow
def test_texts_withheld_without_an_open_licence(tmp_path: Path) -> None:
    published = published_round(tmp_path, "")  # the notes state no licence
    folder = published.out / "iclr-pub"
    assert not (folder / "items.csv").exists() and (folder / "pairs.csv").is_file()
    rows = [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]
    assert {(r["text_published"], r["title"], r["abstract"]) for r in rows} == {(False, "", "")}
    original = (published.round / "items.csv").read_text(encoding="utf-8")
    for path in published.out.rglob("*"):
        if path.is_file():
            assert "We study method p1." not in path.read_text(encoding="utf-8"), path
    assert "items' texts withheld" in (published.out / "README.md").read_text(encoding="utf-8")
    with pytest.raises(DataError, match="texts were withheld for their licence"):
        tastybench_round(round=str(folder))
    (folder / "items.csv").write_text(original, encoding="utf-8")  # restored: judged as is
    assert tastybench_round(round=str(folder)).dataset
