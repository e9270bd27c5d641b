"""Loading rows: pairs and variations, left-out reasons, one sentence for a broken field."""

from __future__ import annotations

from pathlib import Path

import pytest
from scijudge_rows import paper, row, write_rows

from research_taste_evals.core.data import DataError
from research_taste_evals.scijudge.dataset import load_rows


def test_a_swap_is_the_same_pair_and_variations_count_couples_in_file_order(
    tmp_path: Path,
) -> None:
    a, b, c = (
        paper("x1", "2024-01-01", 9),
        paper("x2", "2024-01-02", 1),
        paper("x3", "2024-01-03", 5),
    )
    rows = [row(a, b), row(b, a), row(a, c), row(a, b, words=" Again.")]
    loaded = load_rows(str(write_rows(tmp_path / "r.jsonl", rows)))
    meta = [s.metadata for s in loaded.dataset if s.metadata]
    # Rows 1 and 2 are one couple (twins); row 3 and row 4 get their swap built.
    assert [(m["pair_id"], m["variation"], m["order"], m["row"]) for m in meta] == [
        ("x1|x2", 0, "given", 1), ("x1|x2", 0, "swapped", 2),
        ("x1|x3", 0, "given", 3), ("x1|x3", 0, "swapped", 3),
        ("x1|x2", 1, "given", 4), ("x1|x2", 1, "swapped", 4),
    ]  # fmt: skip
    assert [m["couples"] for m in meta] == [2, 2, 1, 1, 2, 2]
    assert [s.target for s in loaded.dataset] == ["A", "B", "A", "B", "A", "B"]
    assert loaded.metadata["pairs"] == 2 and loaded.metadata["left_out"] == 0


def test_twin_rows_with_the_same_answer_are_one_sentence_naming_both(tmp_path: Path) -> None:
    a, b = paper("x1", "2024-01-01", 9), paper("x2", "2024-01-02", 1)
    # each row's answer is its own citations' higher paper, but the twin counts x2 at 10
    path = write_rows(tmp_path / "r.jsonl", [row(a, b), row({**b, "citations": 10}, a)])
    with pytest.raises(DataError, match="rows 1 and 2 show one pair in swapped orders"):
        load_rows(str(path))


def test_a_user_turn_without_both_paper_blocks_is_left_out_and_counted(tmp_path: Path) -> None:
    a, b = paper("x1", "2024-01-01", 9), paper("x2", "2024-01-02", 1)
    bare = row(a, b)
    bare["messages"][1]["content"] = "Which is cited more, A or B?"
    loaded = load_rows(str(write_rows(tmp_path / "r.jsonl", [row(a, b), bare])))
    assert loaded.metadata["left_out_by_reason"]["unswappable_prompt"] == 1


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


def test_a_row_repeated_verbatim_is_left_out_and_counted_not_another_couple(
    tmp_path: Path,
) -> None:
    a, b, c = (
        paper("x1", "2024-01-01", 9),
        paper("x2", "2024-01-02", 1),
        paper("x3", "2024-01-03", 5),
    )
    path = write_rows(tmp_path / "r.jsonl", [row(a, b), row(a, c), row(a, b), row(a, b)])
    loaded = load_rows(str(path))
    meta = [s.metadata for s in loaded.dataset if s.metadata]
    # Before, rows 3 and 4 were couples 1 and 2 of pair x1|x2, weighing that pair three times.
    assert loaded.metadata["left_out_by_reason"]["duplicate_row"] == 2
    assert loaded.metadata["left_out"] == 2
    assert loaded.metadata["couples"] == 2 and len(meta) == 4
    assert {m["couples"] for m in meta} == {1}


def test_a_row_differing_in_one_word_is_another_couple_not_a_duplicate(tmp_path: Path) -> None:
    a, b = paper("x1", "2024-01-01", 9), paper("x2", "2024-01-02", 1)
    path = write_rows(tmp_path / "r.jsonl", [row(a, b), row(a, b, words=" Again.")])
    loaded = load_rows(str(path))
    assert loaded.metadata["left_out_by_reason"]["duplicate_row"] == 0
    assert loaded.metadata["couples"] == 2


def test_a_file_mixing_citation_and_iclr_rows_is_one_sentence_naming_a_row_of_each(
    tmp_path: Path,
) -> None:
    a, b = paper("x1", "2024-01-01", 9), paper("x2", "2024-01-02", 1)
    iclr = row(paper("y1", "2024-01-01", 0), paper("y2", "2024-01-01", 0))
    for side in "ab":
        del iclr[f"paper_{side}_date"], iclr[f"paper_{side}_citations"]
    iclr |= {"year": 2024, "paper_a_rating": 6.0, "paper_b_rating": 3.0, "correct_answer": "A"}
    path = write_rows(tmp_path / "mixed.jsonl", [row(a, b), iclr])
    with pytest.raises(DataError) as error:
        load_rows(str(path))
    message = str(error.value)
    assert str(path) in message and "row 1" in message and "row 2" in message
    assert "split the file" in message and "\n" not in message
