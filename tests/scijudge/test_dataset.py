"""Loading rows: pairs and variations, left-out reasons, one sentence for a broken field."""

from __future__ import annotations

from pathlib import Path

import pytest
from scijudge_rows import paper, row, write_rows

from research_taste_evals.core.data import DataError
from research_taste_evals.scijudge.dataset import load_rows


def test_a_swap_is_the_same_pair_and_variations_count_in_file_order(tmp_path: Path) -> None:
    a, b, c = (
        paper("x1", "2024-01-01", 9),
        paper("x2", "2024-01-02", 1),
        paper("x3", "2024-01-03", 5),
    )
    rows = [row(a, b), row(b, a), row(a, c), row(a, b, words=" Again.")]
    loaded = load_rows(str(write_rows(tmp_path / "r.jsonl", rows)))
    meta = [s.metadata for s in loaded.dataset if s.metadata]
    assert [(m["pair_id"], m["variation"]) for m in meta] == [
        ("x1|x2", 0), ("x1|x2", 1), ("x1|x3", 0), ("x1|x2", 2)
    ]  # fmt: skip
    assert [s.target for s in loaded.dataset] == ["A", "B", "A", "A"]
    assert loaded.metadata["pairs"] == 2 and loaded.metadata["left_out"] == 0


def test_an_unknown_answer_is_left_out_and_counted(tmp_path: Path) -> None:
    a, b = paper("x1", "2024-01-01", 9), paper("x2", "2024-01-02", 1)
    loaded = load_rows(str(write_rows(tmp_path / "r.jsonl", [row(a, b), row(a, b, answer="C")])))
    assert loaded.metadata["left_out_by_reason"]["unknown_answer"] == 1


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("paper_a_date", "soon", "field 'paper_a_date'"),
        ("paper_b_citations", "many", "field 'paper_b_citations' must be a number"),
        ("paper_a_title", "", "field 'paper_a_title' is missing or empty"),
        ("messages", [], "field 'messages'"),
    ],
)
def test_a_broken_field_is_one_sentence_naming_file_row_and_field(
    tmp_path: Path, field: str, value: object, fragment: str
) -> None:
    good = row(paper("x1", "2024-01-01", 9), paper("x2", "2024-01-02", 1))
    path = write_rows(tmp_path / "r.jsonl", [good, good | {field: value}])
    with pytest.raises(DataError, match="row 2: ") as raised:
        load_rows(str(path))
    assert fragment in str(raised.value) and str(path) in str(raised.value)


def test_no_valid_row_is_an_error(tmp_path: Path) -> None:
    a, b = paper("x1", "2024-01-01", 3), paper("x2", "2024-01-02", 3)
    with pytest.raises(DataError, match="no row is a valid pair"):
        load_rows(str(write_rows(tmp_path / "r.jsonl", [row(a, b, answer="A")])))
