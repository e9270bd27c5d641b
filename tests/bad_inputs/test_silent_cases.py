"""Inputs that used to be accepted silently: each is now found, or stops with a clear error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from research_taste_evals.aaar.dataset.expdesign import load_expdesign_records
from research_taste_evals.aaar.demo import write_demo_expdesign
from research_taste_evals.core.data import DataError
from research_taste_evals.lft.rubric import DEFAULT_RUBRIC_DIR, load_rubrics

EXPLANATIONS = "Why do you suggest these experiments?"


def test_rubric_with_upper_case_suffix_is_loaded(tmp_path: Path) -> None:
    root = tmp_path / "rubrics"
    shutil.copytree(DEFAULT_RUBRIC_DIR, root)
    (root / "ablation_plan.yaml").rename(root / "ablation_plan.YAML")
    (root / "petunia_plastid.yaml").rename(root / "petunia_plastid.Yml")
    shipped = {rubric.task_id for rubric in load_rubrics()}
    assert {rubric.task_id for rubric in load_rubrics(root)} == shipped
    assert {"ablation-plan", "petunia-plastid"} <= shipped


def test_paper_folder_without_record_is_an_error_not_a_smaller_benchmark(tmp_path: Path) -> None:
    root = write_demo_expdesign(tmp_path)
    assert len(load_expdesign_records(str(root))[0]) == 3
    (root / "Experiment_Design" / "demo.0003" / "data_text.json").unlink()
    with pytest.raises(DataError, match=r"demo\.0003: paper folder has no data_text\.json"):
        load_expdesign_records(str(root))


@pytest.mark.parametrize("keep", [0, 1])
def test_unequal_experiment_and_explanation_lists_are_an_error(tmp_path: Path, keep: int) -> None:
    """An empty or short explanation list used to be zipped away (S-Match over fewer pairs, or
    the paper left out of S-Match as NaN with no reason)."""
    root = write_demo_expdesign(tmp_path)
    path = root / "Experiment_Design" / "demo.0002" / "data_text.json"
    record = json.loads(path.read_text())
    experiments = len(record["output"]["What experiments do you suggest doing?"])
    record["output"][EXPLANATIONS] = record["output"][EXPLANATIONS][:keep]
    path.write_text(json.dumps(record))
    with pytest.raises(DataError) as raised:
        load_expdesign_records(str(root))
    message = str(raised.value)
    assert str(path) in message and "record 0" in message and "field 'output'" in message
    assert f"{experiments} experiments but {keep} explanations" in message
