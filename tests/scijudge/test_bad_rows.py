"""Issue 52: SciJudgeBench rows with a future date, negative or NaN citations are one sentence
naming file, row and field; the same paper on both sides, or an answer contradicting the
citations (ratings), is left out and counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scijudge_rows import paper, row, write_rows

from research_taste_evals.core.data import DataError
from research_taste_evals.scijudge.dataset import load_rows

A, B = paper("x1", "2024-01-01", 9), paper("x2", "2024-01-02", 1)


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("paper_b_date", "2999-01-01", "field 'paper_b_date' is '2999-01-01', after today"),
        ("paper_b_citations", -3, "field 'paper_b_citations' must be a citation count"),
        ("paper_a_citations", float("nan"), "field 'paper_a_citations' must be a citation count"),
        ("paper_a_rating", float("inf"), "field 'paper_a_rating' must be a finite number"),
    ],
)
def test_a_bad_date_or_count_is_one_sentence_naming_file_row_and_field(
    tmp_path: Path, field: str, value: object, named: str
) -> None:
    bad = row(A, B)
    bad[field] = value
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(row(A, B)) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as raised:
        load_rows(str(path))
    assert str(raised.value).startswith(f"{path}: row 2: {named}"), str(raised.value)
    assert len(str(raised.value).splitlines()) == 1


def test_the_same_paper_on_both_sides_is_left_out_and_counted(tmp_path: Path) -> None:
    twin = {**A, "citations": 3}
    path = write_rows(tmp_path / "r.jsonl", [row(A, B), row(A, twin)])
    loaded = load_rows(str(path))
    assert loaded.metadata["left_out_by_reason"]["same_paper"] == 1
    assert loaded.metadata["kept_rows"] == 1


def test_an_answer_contradicting_the_citations_or_ratings_is_left_out_and_counted(
    tmp_path: Path,
) -> None:
    # the card's label is the paper with more citations: row 2 names the less-cited one
    path = write_rows(tmp_path / "r.jsonl", [row(A, B), row(A, B, answer="B")])
    loaded = load_rows(str(path))
    assert loaded.metadata["left_out_by_reason"]["answer_not_higher"] == 1
    assert (loaded.metadata["kept_rows"], loaded.metadata["left_out"]) == (1, 1)
    assert [s.target for s in loaded.dataset] == ["A", "B"]  # row 1 and its built swap

    # on the ICLR split the label is the higher rating
    iclr = {key: value for key, value in row(A, B, answer="A").items() if "date" not in key}
    iclr |= {"year": 2024, "paper_a_rating": 3.0, "paper_b_rating": 6.0}
    for side in "ab":
        del iclr[f"paper_{side}_citations"]
    good = {**iclr, "correct_answer": "B"}
    loaded = load_rows(str(write_rows(tmp_path / "iclr.jsonl", [good, iclr])))
    assert loaded.metadata["left_out_by_reason"]["answer_not_higher"] == 1
    assert loaded.metadata["kept_rows"] == 1
