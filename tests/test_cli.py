from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from inspect_ai.log import read_eval_log

import research_taste_evals
from research_taste.cli import main
from research_taste.cli.demo import (
    DEMO_DATA_FOLDER,
    DEMO_FAMILIES,
    DEMO_RUNS,
    demo_runs,
    run_demo,
)
from research_taste_evals._registry import TASKS
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.core.demo import DemoRun

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


def test_every_family_with_a_demo_module_is_collected() -> None:
    root = research_taste_evals.__path__
    families = {
        info.name
        for info in pkgutil.iter_modules(root)
        if info.ispkg
        and any(m.name == "demo" for m in pkgutil.iter_modules([f"{root[0]}/{info.name}"]))
    }
    families -= {"core", "cli", "reporting"}
    collected = {module.__name__.split(".")[-2] for module in DEMO_FAMILIES}
    assert families and families == collected


def test_a_task_name_defined_by_two_families_is_refused() -> None:
    run = DemoRun(name="same", build=lambda data_dir: None, model="baseline/x")  # type: ignore[arg-type,return-value]
    family = SimpleNamespace(DEMO_RUNS=(run,))
    with pytest.raises(ValueError, match="defined twice: \\['same'\\]"):
        demo_runs((family, family))  # type: ignore[arg-type]


def test_eqinfer_demo_writes_a_successful_log_with_the_same_args_every_run(tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    first = run_demo(log_dir=str(log_dir), only=["eqinfer"])
    again = run_demo(log_dir=str(log_dir), only=["eqinfer"])
    assert [log.status for log in first + again] == ["success", "success"]
    written = list(log_dir.glob("*.eval"))
    assert len(written) == 2
    assert read_eval_log(str(written[0])).eval.task.endswith("eqinfer")
    # The demo data sits in a stable folder under the log dir, so two runs of the demo have
    # identical task arguments and merge into one leaderboard row.
    assert first[0].eval.task_args == again[0].eval.task_args
    assert str(first[0].eval.task_args["data_path"]).startswith(str(log_dir / DEMO_DATA_FOLDER))


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
