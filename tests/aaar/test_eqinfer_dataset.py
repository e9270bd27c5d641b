from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from research_taste_evals.aaar.dataset.eqinfer import (
    EqInferRecord,
    eqinfer_dataset,
    load_eqinfer_records,
    record_to_binary_samples,
    record_to_choice_sample,
)
from research_taste_evals.aaar.demo import DEMO_EQINFER
from research_taste_evals.core.data import DataError

FIXTURE: dict[str, Any] = {
    "context_before": "one two three four five",
    "context_after": "six seven eight nine ten",
    "options": "A. $x$\nB. $y$\nC. $z$\nD. $w$",
    "options_list": ["x = {a}", "y", "z", "w"],
    "answer": "B",
}


def _write(tmp_path: Path, records: Any, raw: str | None = None) -> Path:
    path = tmp_path / "equation.test.json"
    path.write_text(raw if raw is not None else json.dumps(records))
    return path


def test_binary_samples_one_per_option_with_context_windows() -> None:
    samples = record_to_binary_samples(EqInferRecord.model_validate(FIXTURE), context_words=2)
    assert [s.target for s in samples] == ["0", "1", "0", "0"]
    assert [s.metadata["option"] for s in samples if s.metadata] == ["A", "B", "C", "D"]
    first = samples[0].input
    assert isinstance(first, str)
    assert "```\nfour five\n```" in first and "```\nsix seven\n```" in first
    assert "### Candidate Equation:\nx = {a}\n" in first  # LaTeX braces survive
    assert "three" not in first and "eight" not in first
    ids = [s.id for s in samples]
    assert len(set(ids)) == 4
    # Ids come from content, not position: the same record gives the same ids.
    again = record_to_binary_samples(EqInferRecord.model_validate(FIXTURE), context_words=2)
    assert [s.id for s in again] == ids


def test_choice_sample_shuffles_deterministically_and_tracks_the_answer() -> None:
    record = EqInferRecord.model_validate(FIXTURE)
    shuffled = record_to_choice_sample(record, 1000, shuffle=True)
    order = shuffled.metadata["option_order"] if shuffled.metadata else []
    assert order[["A", "B", "C", "D"].index(str(shuffled.target))] == "B"
    assert record_to_choice_sample(record, 1000, shuffle=True).input == shuffled.input
    verbatim = record_to_choice_sample(record, 1000, shuffle=False)
    assert verbatim.target == "B"
    assert isinstance(verbatim.input, str) and FIXTURE["options"] in verbatim.input


def test_demo_set_answers_are_spread_over_letters() -> None:
    records = [EqInferRecord.model_validate(r) for r in DEMO_EQINFER]
    assert {r.answer for r in records} == {"A", "B", "C", "D"}
    dataset = eqinfer_dataset(records, "binary", 1000, True, name="demo")
    assert len(dataset) == 4 * len(records)


def test_duplicate_instances_keep_distinct_ids() -> None:
    records = [EqInferRecord.model_validate(FIXTURE)] * 2
    dataset = eqinfer_dataset(records, "multiple_choice", 1000, True, name="dups")
    assert len({s.id for s in dataset}) == 2


def test_loads_a_file_or_a_folder_holding_the_upstream_name(tmp_path: Path) -> None:
    path = _write(tmp_path, [FIXTURE])
    records, resolved = load_eqinfer_records(str(path))
    assert len(records) == 1 and resolved.source == f"local:{path.resolve()}"
    other = {**FIXTURE, "context_after": "eleven twelve"}
    (tmp_path / "equation.1049.json").write_text(json.dumps([FIXTURE, other]))
    assert len(load_eqinfer_records(str(tmp_path))[0]) == 2


def test_invalid_json_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, None, raw='[{"context_before": "x",]')
    with pytest.raises(DataError, match=r"equation.test.json: invalid JSON at line 1"):
        load_eqinfer_records(str(path))


def test_missing_context_before_names_file_record_and_field(tmp_path: Path) -> None:
    broken = {k: v for k, v in FIXTURE.items() if k != "context_before"}
    path = _write(tmp_path, [FIXTURE, broken])
    with pytest.raises(
        DataError, match=r"equation.test.json: record 1: field 'context_before': Field required"
    ):
        load_eqinfer_records(str(path))


@pytest.mark.parametrize(
    ("options_list", "field"),
    [
        (["a", "b", "c"], "options_list"),
        (["a", "b", "c", "d", "e"], "options_list"),
        (["a", "b", 3, "d"], r"options_list\[2\]"),
        ("abcd", "options_list"),
    ],
)
def test_options_list_must_be_four_strings(tmp_path: Path, options_list: Any, field: str) -> None:
    path = _write(tmp_path, [FIXTURE, FIXTURE, {**FIXTURE, "options_list": options_list}])
    with pytest.raises(DataError, match=rf"equation.test.json: record 2: field '{field}'"):
        load_eqinfer_records(str(path))


def test_answer_must_be_a_letter(tmp_path: Path) -> None:
    path = _write(tmp_path, [{**FIXTURE, "answer": "E"}])
    with pytest.raises(DataError, match=r"record 0: field 'answer'"):
        load_eqinfer_records(str(path))


def test_loader_accepts_the_dataset_root_like_the_other_aaar_loaders(tmp_path: Path) -> None:
    folder = tmp_path / "Equation_Inference"
    folder.mkdir()
    (folder / "equation.1049.json").write_text(json.dumps([FIXTURE]))
    for data_path in (tmp_path, folder, folder / "equation.1049.json"):
        records, _ = load_eqinfer_records(str(data_path))
        assert [r.answer for r in records] == ["B"]
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="equation.1049.json"):
        load_eqinfer_records(str(empty))
