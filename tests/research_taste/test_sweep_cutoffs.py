"""A sweep file gives a knowledge cutoff next to a model: every dated task it runs gets it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from research_taste.cli.sweep import load_sweep, plan
from research_taste_evals.core.data import DataError


def _sweep(tmp_path: Path, **extra: object) -> Path:
    body = {
        "log_dir": str(tmp_path / "logs"),
        "models": ["baseline/tastybench-first", "baseline/all-positive"],
        "tasks": [
            {"task": "tastybench", "args": {"data_path": "demo"}},
            {"task": "tastybench", "args": {"data_path": "demo", "knowledge_cutoff": "2023-01-01"}},
            {"task": "eqinfer", "args": {"data_path": "demo"}},
        ],
        **extra,
    }
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump(body), encoding="utf-8")
    return path


def test_the_cutoff_reaches_the_dated_tasks_of_its_model_only(tmp_path: Path) -> None:
    config = load_sweep(
        _sweep(tmp_path, knowledge_cutoffs={"baseline/tastybench-first": "2024-06-01"})
    )
    args = {(run.entry, run.model): run.args for run in plan(config)}
    assert args[(0, "baseline/tastybench-first")]["knowledge_cutoff"] == "2024-06-01"
    assert "knowledge_cutoff" not in args[(0, "baseline/all-positive")]  # no cutoff given
    # The task entry's own argument wins; a task without item dates takes none.
    assert args[(1, "baseline/tastybench-first")]["knowledge_cutoff"] == "2023-01-01"
    assert "knowledge_cutoff" not in args[(2, "baseline/tastybench-first")]


@pytest.mark.parametrize(
    ("cutoffs", "expected"),
    [
        (
            {"baseline/tastybench-first": "2024-13-01"},
            "knowledge_cutoffs.baseline/tastybench-first",
        ),
        ({"openai/gpt-4o": "2024-06-01"}, "no task of the sweep evaluates 'openai/gpt-4o'"),
    ],
)
def test_a_bad_cutoff_entry_is_one_sentence_naming_it(
    tmp_path: Path, cutoffs: dict[str, str], expected: str
) -> None:
    with pytest.raises(DataError) as raised:
        load_sweep(_sweep(tmp_path, knowledge_cutoffs=cutoffs))
    assert expected in str(raised.value) and "sweep.yaml" in str(raised.value)
