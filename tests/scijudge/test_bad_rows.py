"""Issue 52: SciJudgeBench rows with a future date, negative or NaN citations are one sentence
naming file, row and field; the same paper on both sides is left out and counted."""

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
