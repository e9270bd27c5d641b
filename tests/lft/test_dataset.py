"""Rubrics -> samples: stable ids, the rubric in metadata, task selection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from research_taste_evals.core.data import DataError
from research_taste_evals.lft.dataset import (
    lft_dataset,
    load_lft_rubrics,
    parse_task_ids,
    rubric_to_sample,
)
from research_taste_evals.lft.rubric import load_rubrics, parse_rubric, rubric_from_metadata


def rubric_data(task_id: str, prompt: str = "Plan it.") -> dict[str, Any]:
    levels = [
        {"level": k, "criteria": [{"id": f"{task_id}-{k}", "text": f"step {k}", "points": 2}]}
        for k in range(1, 11)
    ]
    return {
        "task_id": task_id,
        "title": task_id.title(),
        "domain": "d",
        "prompt": prompt,
        "levels": levels,
    }


def test_rubric_to_sample_carries_the_rubric() -> None:
    rubric = parse_rubric(rubric_data("alpha", "Write a plan."), "alpha.yaml")
    sample = rubric_to_sample(rubric)
    assert sample.id == "alpha"
    assert sample.input == "Write a plan."
    assert sample.metadata is not None
    assert sample.metadata["task_id"] == "alpha"
    assert sample.metadata["rubric_hash"] == rubric.content_hash()
    assert rubric_from_metadata(sample.metadata) == rubric


def test_rubric_from_metadata_rejects_a_non_lft_sample() -> None:
    with pytest.raises(DataError, match="no 'rubric'"):
        rubric_from_metadata({"task_id": "x"})


def test_ids_do_not_depend_on_load_order(tmp_path: Path) -> None:
    for name in ("zeta", "alpha", "mid"):
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(rubric_data(name)), "utf-8")
    rubrics = load_rubrics(tmp_path)
    forward = lft_dataset(rubrics)
    backward = lft_dataset(list(reversed(rubrics)))
    assert (
        sorted(s.id for s in forward) == sorted(s.id for s in backward) == ["alpha", "mid", "zeta"]
    )
    assert {s.id: s.metadata["rubric_hash"] for s in forward} == {  # type: ignore[index]
        s.id: s.metadata["rubric_hash"]
        for s in backward  # type: ignore[index]
    }


def test_shipped_dataset_has_one_sample_per_task() -> None:
    dataset = lft_dataset(load_rubrics())
    assert len(dataset) == len(load_rubrics()) >= 4
    assert len({sample.id for sample in dataset}) == len(dataset)


@pytest.mark.parametrize(
    ("given", "expected"),
    [(None, None), ("a", ["a"]), ("a, b,", ["a", "b"]), (["x", "y"], ["x", "y"])],
)
def test_parse_task_ids(given: Any, expected: list[str] | None) -> None:
    assert parse_task_ids(given) == expected


def test_empty_task_ids_is_an_error() -> None:
    with pytest.raises(ValueError, match="task_ids is empty"):
        parse_task_ids(" , ")


def test_source_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "only.yaml").write_text(yaml.safe_dump(rubric_data("only")), "utf-8")
    rubrics, source = load_lft_rubrics(str(tmp_path), "only")
    assert [r.task_id for r in rubrics] == ["only"]
    assert source == f"local:{tmp_path.resolve()}"
    _, shipped = load_lft_rubrics(None, "petunia-plastid")
    assert shipped == "package:rubrics"
