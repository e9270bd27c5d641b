from __future__ import annotations

import json
import os
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
from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.errors import ConfigError

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
    with pytest.raises(ValueError, match="eqinfr: no such demo task; give one of eqinfer"):
        run_demo(log_dir=str(tmp_path), only=["eqinfr"])


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_inspect_resolves_the_task_from_any_directory(tmp_path: Path) -> None:
    """The Inspect entry point makes `research_taste_evals/eqinfer` resolve outside the repo,
    and `-T data_path=demo` runs it on the demo data (the README's command)."""
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
            "data_path=demo",
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


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import sys; from research_taste.cli import main; sys.exit(main())"]
        + list(args),
        capture_output=True,
        text=True,
        timeout=900,
        cwd=cwd,
        check=False,
    )


# One screen of a terminal: the demo's whole output must fit.
SCREEN_LINES = 24


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_demo_output_fits_one_screen_and_names_the_model_on_each_line(tmp_path: Path) -> None:
    """No weight-loading bars, each warning once, one line per task with its model."""
    result = _cli("demo", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = (result.stdout + result.stderr).splitlines()
    assert len(lines) <= SCREEN_LINES, "\n".join(lines)
    assert "Loading weights" not in result.stdout + result.stderr
    for run in DEMO_RUNS:
        line = next(line for line in lines if line.startswith(f"{run.name} "))
        assert run.model in line.split(), line
    warnings = [line for line in lines if "WARNING" in line]
    assert len(warnings) == len(set(warnings)), warnings


def test_sweep_ends_with_a_table_and_a_rerun_says_nothing_to_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {tmp_path / 'logs'}\n"
        "tasks: [{task: eqinfer, args: {data_path: demo}, "
        "models: [baseline/all-positive, baseline/tastybench-first]}]\n"
    )
    assert main(["sweep", str(sweep), "--display", "none"]) == 0
    out = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(out) if line.startswith("run "))
    assert out[header].split() == ["run", "model", "status", "samples", "headline"]
    rows = [line.split() for line in out[header + 1 :]]
    assert rows == [
        ["eqinfer", "baseline/all-positive", "success", "24/24", "decision_f1=0.400"],
        ["eqinfer", "baseline/tastybench-first", "success", "24/24", "decision_f1=nan"],
    ]
    logs = sorted((tmp_path / "logs").glob("*.eval"))
    assert main(["sweep", str(sweep)]) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[0] == f"nothing to run: 2 runs complete in {tmp_path / 'logs'}"
    assert [line.split() for line in again[2:]] == rows
    assert sorted((tmp_path / "logs").glob("*.eval")) == logs


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_demo_data_under_plain_inspect_eval(tmp_path: Path) -> None:
    """-T data_path=demo: the family's demo data, written on first use into the package cache,
    without the tooling package (research_taste.cli); the tasks import from their family packages
    (``lft`` shares its package's name) or the package."""
    script = (
        "import sys\n"
        "from inspect_ai import eval\n"
        "from research_taste_evals import eqinfer\n"
        "from research_taste_evals.lft import lft\n"
        f"log = eval(eqinfer(data_path='demo'), model='baseline/all-positive', "
        f"log_dir={str(tmp_path / 'a')!r}, display='none')[0]\n"
        f"again = eval('research_taste_evals/tastybench', task_args={{'data_path': 'demo'}}, "
        f"model='baseline/tastybench-longer', log_dir={str(tmp_path / 'b')!r}, "
        "display='none', limit=3)[0]\n"
        "print(log.status, again.status, len(lft(task_ids='petunia-plastid').dataset))\n"
        "print(sorted(m for m in sys.modules if m.startswith('research_taste.cli')))\n"
    )
    env = {**os.environ, "RESEARCH_TASTE_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines()[-2:] == ["success success 1", "[]"]
    assert (tmp_path / "cache" / "demo-data" / "eqinfer").is_dir()


def test_demo_value_for_an_argument_without_demo_data_is_one_sentence() -> None:
    from research_taste_evals.lft import lft

    with pytest.raises(ConfigError, match=r"lft: -T rubric_dir=demo: this argument has no demo"):
        lft(rubric_dir="demo")


def test_building_a_task_configures_no_logging_handler() -> None:
    """rouge_score left to pick its tokenizer logs through absl, which calls basicConfig(): a
    second (plain) handler printed every warning twice beside Inspect's."""
    import logging

    from research_taste_evals import expdesign

    before = list(logging.getLogger().handlers)
    expdesign(data_path="demo", embedding_model="offline-minilm")  # roles are read at run time
    assert logging.getLogger().handlers == before
