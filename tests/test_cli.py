from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from research_taste_evals._registry import TASKS
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.cli import main
from research_taste_evals.cli.demo import DEMO_RUNS, run_demo

BIN = Path(sys.executable).parent


def test_list_prints_every_task_with_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for task_fn in TASKS:
        line = next(line for line in out.splitlines() if line.strip().startswith(task_fn.__name__))
        assert len(line.split(maxsplit=1)) == 2, f"{task_fn.__name__} has no description"
    assert "all-positive" in out


def test_every_task_has_a_demo_run() -> None:
    assert {fn.__name__ for fn in TASKS} <= {run.name for run in DEMO_RUNS}


def test_eqinfer_demo_writes_a_successful_log(tmp_path: Path) -> None:
    logs = run_demo(log_dir=str(tmp_path / "logs"), only=["eqinfer"])
    assert [log.status for log in logs] == ["success"]
    written = list((tmp_path / "logs").glob("*.eval"))
    assert len(written) == 1
    assert read_eval_log(str(written[0])).eval.task.endswith("eqinfer")


def test_demo_rejects_unknown_task(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown demo task"):
        run_demo(log_dir=str(tmp_path), only=["nope"])


def test_inspect_resolves_the_task_from_any_directory(tmp_path: Path) -> None:
    """The Inspect entry point makes `research_taste_evals/eqinfer` resolve outside the repo."""
    data = write_demo_eqinfer(tmp_path / "data")
    work = tmp_path / "elsewhere"
    work.mkdir()
    result = subprocess.run(
        [
            str(BIN / "inspect"),
            "eval",
            "research_taste_evals/eqinfer",
            "--model",
            "baseline/all-positive",
            "-T",
            f"data_path={data}",
            "--log-dir",
            str(work / "logs"),
            "--log-format",
            "json",
            "--display",
            "none",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (log_file,) = (work / "logs").glob("*.json")
    log = json.loads(log_file.read_text())
    assert log["status"] == "success"
    metrics = {
        name: metric["value"]
        for score in log["results"]["scores"]
        for name, metric in score["metrics"].items()
    }
    assert metrics["decision_f1"] == pytest.approx(0.4, abs=1e-12)
