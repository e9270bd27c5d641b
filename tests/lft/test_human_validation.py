"""Human validation: export feasible LFT solutions from logs, read expert grades, agreement."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest
import yaml
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from mock_models import scripted_model

from research_taste.cli import main
from research_taste.lft.human_agreement import GradePair, agreement, read_pairs
from research_taste.lft.human_validation import (
    collect_candidates,
    export_for_experts,
    key_path,
    sample_per_task,
)
from research_taste_evals.core.data import DataError
from research_taste_evals.lft.lft import lft

FEASIBLE_TASK, INFEASIBLE_TASK = "feasible-task", "weak-task"


def rubric_yaml(task_id: str) -> dict:
    return {
        "task_id": task_id,
        "title": task_id,
        "domain": "testing",
        "prompt": f"Plan {task_id}.",
        "levels": [
            {"level": k, "criteria": [{"id": f"{task_id}-c{k}", "text": f"does {k}", "points": 1}]}
            for k in range(1, 11)
        ],
    }


def grader_by_task(messages: list[ChatMessage]) -> str:
    level = 6 if f"Plan {FEASIBLE_TASK}." in messages[-1].text else 3
    return "```json\n" + json.dumps({"level": level, "criteria_met": []}) + "\n```"


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hv")
    rubrics = root / "rubrics"
    rubrics.mkdir()
    for task_id in (FEASIBLE_TASK, INFEASIBLE_TASK):
        (rubrics / f"{task_id}.yaml").write_text(yaml.safe_dump(rubric_yaml(task_id)))
    logs = root / "logs"
    log = inspect_eval(
        lft(rubric_dir=str(rubrics), grader_repeats=2),
        model=scripted_model(lambda messages: "Step 1. Do it."),
        model_roles={"grader": scripted_model(grader_by_task)},
        epochs=4,
        log_dir=str(logs),
        display="none",
    )[0]
    assert log.status == "success", log.error
    return logs


def test_only_feasible_solutions_are_candidates(log_dir: Path) -> None:
    candidates = collect_candidates(str(log_dir))
    assert len(candidates) == 4 and {c.task_id for c in candidates} == {FEASIBLE_TASK}
    assert all(c.autograder_end_to_end == 6 and c.solution == "Step 1. Do it." for c in candidates)
    assert len(collect_candidates(str(log_dir), min_level=0)) == 8


def test_sampling_is_seeded_and_capped_per_task(log_dir: Path) -> None:
    candidates = collect_candidates(str(log_dir), min_level=0)
    first = sample_per_task(candidates, 3, seed=1)
    assert [c.export_id for c in first] == [c.export_id for c in sample_per_task(candidates, 3, 1)]
    assert len(first) == 6 and len(sample_per_task(candidates, 10, 1)) == 8
    with pytest.raises(ValueError, match="per_task"):
        sample_per_task(candidates, 0, 1)


def test_export_is_blind_and_agreement_reads_grades_back(log_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "experts.csv"
    assert (
        main(["lft-export", "--log-dir", str(log_dir), "--out", str(out), "--per-task", "3"]) == 0
    )
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 and "autograder_end_to_end" not in rows[0]
    assert rows[0]["expert_1_end_to_end"] == "" and "## Level 10" in rows[0]["rubric"]
    key = [json.loads(line) for line in key_path(out).read_text().splitlines()]
    assert {k["export_id"] for k in key} == {r["export_id"] for r in rows}
    for row, (e1, e2) in zip(rows, [("4", "5"), ("6", ""), ("7", "6")], strict=True):
        row["expert_1_end_to_end"], row["expert_2_end_to_end"] = e1, e2
    with out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    pairs = read_pairs(out, key_path(out))
    assert sorted(p.expert_level for p in pairs) == [4, 5, 6, 6, 7]
    result = agreement(pairs)
    assert result.pairs == 5 and result.solutions == 3
    assert result.downgraded == pytest.approx(2 / 5) and result.upgraded == pytest.approx(1 / 5)
    assert main(["lft-agreement", str(out)]) == 0


def test_bad_expert_grades_name_the_row_and_column(log_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "experts.jsonl"
    export_for_experts(str(log_dir), out, per_task=1)
    row = json.loads(out.read_text().splitlines()[0])
    out.write_text(json.dumps({**row, "expert_1_end_to_end": "11"}) + "\n")
    with pytest.raises(DataError, match=r"row 1: column 'expert_1_end_to_end'.*got '11'"):
        read_pairs(out, key_path(out))
    out.write_text(json.dumps({**row, "export_id": "nope"}) + "\n")
    with pytest.raises(DataError, match="export_id 'nope' is not in"):
        read_pairs(out, key_path(out))


def test_agreement_hand_worked() -> None:
    auto, expert = [6.0, 6.0, 7.0, 5.0], [4, 6, 8, 3]
    pairs = [
        GradePair(str(i), "t", "1", a, e) for i, (a, e) in enumerate(zip(auto, expert, strict=True))
    ]
    result = agreement(pairs)
    assert (result.downgraded, result.upgraded, result.equal) == (0.5, 0.25, 0.25)
    assert result.mean_diff == -0.75 and result.mean_abs_diff == 1.25
    assert result.exact == 0.25 and result.within_one == 0.5
    # ranks auto (2.5, 2.5, 4, 1), expert (2, 3, 4, 1): rho = 4.5 / sqrt(4.5 * 5) = 3 / sqrt(10)
    assert result.spearman == pytest.approx(3 / math.sqrt(10))
    # p_o = 1/4; p_e = P(auto=6) P(expert=6) = 0.5 * 0.25; kappa = (0.25 - 0.125) / 0.875 = 1/7
    assert result.kappa == pytest.approx(1 / 7)
    assert math.isnan(result.expert_vs_expert_spearman)
    assert math.isnan(agreement([]).downgraded)
