"""Inputs that used to be accepted silently: each is now found, or stops with a clear error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval

from research_taste_evals.aaar.dataset.expdesign import load_expdesign_records
from research_taste_evals.aaar.dataset.paper_weakness import (
    load_weakness_records,
    record_to_sample,
)
from research_taste_evals.aaar.demo import write_demo_expdesign, write_demo_weakness
from research_taste_evals.aaar.similarity import soft_precision_recall
from research_taste_evals.core.data import DataError
from research_taste_evals.lft.lft import lft
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


@pytest.mark.parametrize(
    ("quorum", "graders", "size"),
    [(99, "baseline/lft-grader", 10), (21, ["baseline/lft-grader", "baseline/lft-grader"], 20)],
)
def test_lft_quorum_above_the_panel_fails_before_any_call(
    quorum: int, graders: str | list[str], size: int, tmp_path: Path
) -> None:
    """It used to fail at scoring, after the model had answered. Built by name (as ``inspect
    eval`` builds it) or by calling it, the task's first solver step stops each sample before
    the model is called (a task build reads no role: CONTRIBUTING.md), with the one sentence
    as the log's error."""
    run = {
        "model": "baseline/lft-generic-protocol",
        "model_roles": {"grader": graders},
        "log_dir": str(tmp_path / "logs"),
        "display": "none",
    }
    args = {"quorum": quorum, "task_ids": "ablation-plan"}
    by_name = inspect_eval("research_taste_evals/lft", task_args=args, **run)  # type: ignore[arg-type]
    by_call = inspect_eval(lft(**args), **run)  # type: ignore[arg-type]
    for log in (by_name[0], by_call[0]):
        assert log.status == "error" and log.error is not None
        message = log.error.message
        assert f"quorum={quorum} is outside 1..{size}" in message, message
        assert "grader_repeats=10" in message
        assert all(not s.output.completion for s in log.samples or []), "the model was called"


def test_reviewer_with_an_empty_weakness_list_is_valid_and_skipped(tmp_path: Path) -> None:
    """Documented as valid (AAAR README): upstream keeps such reviewers and S-Precision /
    S-Recall average over the others; only a paper whose reviewers are all empty stops."""
    root = write_demo_weakness(tmp_path)
    path = sorted(root.glob("Paper_Weakness/ICLR_2023/*/data_text.json"))[0]
    record = json.loads(path.read_text())
    record["output"] = [[], *record["output"]]
    path.write_text(json.dumps(record))
    records, _ = load_weakness_records(str(root))
    sample = record_to_sample(next(r for r in records if r.output[0] == []))
    assert sample.metadata is not None and sample.metadata["reviewer_weaknesses"][0] == []
    reviewer = np.array([[1.0, 0.0]])
    empty = np.zeros((0, 2))
    precision, recall, _ = soft_precision_recall(reviewer, [empty, reviewer])
    assert (precision, recall) == pytest.approx((1.0, 1.0))
