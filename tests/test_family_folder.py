"""A family is one folder: a copied folder is found by Inspect, the CLI, the demo and the sweep.

The throwaway family (tests/throwaway_family: ``__init__.py``, a task module, ``demo.py`` with
its data file, ``eval.yaml``) is copied as ``research_taste_evals/throwaway`` into a copy of the
package; nothing else is edited (no registry line). Each tool then runs in a subprocess whose
PYTHONPATH puts the copy first, as an installed package with the new folder would be.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

REPO_ROOT = Path(__file__).resolve().parents[1]
SRC = REPO_ROOT / "src"
BIN = Path(sys.executable).parent
TASK = "throwaway_task"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("package")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(SRC / "research_taste_evals", root / "research_taste_evals", ignore=ignore)
    family = root / "research_taste_evals" / "throwaway"
    shutil.copytree(REPO_ROOT / "tests" / "throwaway_family", family, ignore=ignore)
    registry = (root / "research_taste_evals" / "_registry.py").read_text(encoding="utf-8")
    assert "throwaway" not in registry  # the folder alone, no registry line
    return root


def _run(package: Path, cwd: Path, *command: str) -> str:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(package), str(SRC)]),
        "RESEARCH_TASTE_CACHE_DIR": str(cwd / "cache"),
        "HF_HUB_OFFLINE": "1",
    }
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def test_inspect_lists_and_runs_the_copied_family(package: Path, tmp_path: Path) -> None:
    # Inspect lists the task files under a path relative to the working directory.
    listed = _run(package, package, str(BIN / "inspect"), "list", "tasks", "research_taste_evals")
    assert f"research_taste_evals/throwaway/throwaway.py@{TASK}" in listed
    # By registry name: only the package's registry (its entry point) can make this resolve.
    _run(
        package,
        tmp_path,
        str(BIN / "inspect"),
        "eval",
        f"research_taste_evals/{TASK}",
        "--model",
        "baseline/copy-input",
        "-T",
        "data_path=demo",
        "--log-dir",
        str(tmp_path / "logs"),
        "--display",
        "none",
    )
    assert len(list((tmp_path / "logs").glob("*.eval"))) == 1


def test_research_taste_lists_and_demos_the_copied_family(package: Path, tmp_path: Path) -> None:
    assert TASK in _run(package, tmp_path, str(BIN / "research-taste"), "list")
    logs = tmp_path / "demo-logs"
    printed = _run(
        package,
        tmp_path,
        str(BIN / "research-taste"),
        "demo",
        "--task",
        TASK,
        "--log-dir",
        str(logs),
    )
    assert TASK in printed
    assert len(list(logs.glob("*.eval"))) == 1


def test_the_sweep_runs_the_copied_family_on_its_demo_data(package: Path, tmp_path: Path) -> None:
    sweep = tmp_path / "sweep.yaml"
    logs = tmp_path / "sweep-logs"
    sweep.write_text(
        f"log_dir: {logs}\ntasks:\n  - task: {TASK}\n    args: {{data_path: demo}}\n"
        "    models: [baseline/copy-input]\n",
        encoding="utf-8",
    )
    _run(package, tmp_path, str(BIN / "research-taste"), "sweep", str(sweep))
    assert len(list(logs.glob("*.eval"))) == 1
    # The demo data was written where `inspect eval -T data_path=demo` writes it (one place).
    assert (tmp_path / "cache" / "demo-data" / TASK / "demo.jsonl").is_file()


# A second task, added to the copied family by writing files in its folder only: its module
# (the first task's, renamed), and a line more in __init__.py, specs.py, eval.yaml and demo.py.
SECOND = "throwaway_second"


def add_second_task(family: Path) -> None:
    """Add ``SECOND`` to the throwaway family folder, touching nothing outside it."""
    module = (family / "throwaway.py").read_text(encoding="utf-8")
    (family / "second.py").write_text(module.replace(TASK, SECOND), encoding="utf-8")
    init = (family / "__init__.py").read_text(encoding="utf-8")
    init = init.replace(f'__all__ = ["{TASK}"]', f'__all__ = ["{TASK}", "{SECOND}"]')
    init += f"from research_taste_evals.throwaway.second import {SECOND}  # noqa: E402\n"
    (family / "__init__.py").write_text(init, encoding="utf-8")
    with (family / "specs.py").open("a", encoding="utf-8") as specs:
        specs.write(
            "\nimport dataclasses  # noqa: E402\n\n"
            f'SPECS = (*SPECS, dataclasses.replace(THROWAWAY_TASK, task="{SECOND}"))\n'
        )
    register = yaml.safe_load((family / "eval.yaml").read_text(encoding="utf-8"))
    register["tasks"].append({**register["tasks"][0], "name": SECOND})
    extras = register["metadata"]["extras"]["tasks"]
    extras[SECOND] = extras[TASK]
    (family / "eval.yaml").write_text(yaml.safe_dump(register, sort_keys=False), encoding="utf-8")
    with (family / "demo.py").open("a", encoding="utf-8") as demo:
        demo.write(
            "\nimport dataclasses  # noqa: E402\n\n"
            f"from research_taste_evals.throwaway.second import {SECOND}  # noqa: E402\n\n"
            "DEMO_RUNS = (\n    *DEMO_RUNS,\n    dataclasses.replace(\n        DEMO_RUNS[0],\n"
            f'        name="{SECOND}",\n'
            f"        build=lambda data_dir: {SECOND}(\n"
            f'            data_path=str(write_demo(data_dir / "{SECOND}"))\n        ),\n'
            "    ),\n)\n"
        )


@pytest.fixture(scope="module")
def package_with_second_task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("package-second")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(SRC / "research_taste_evals", root / "research_taste_evals", ignore=ignore)
    family = root / "research_taste_evals" / "throwaway"
    shutil.copytree(REPO_ROOT / "tests" / "throwaway_family", family, ignore=ignore)
    before = {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}
    add_second_task(family)
    changed = {
        path.relative_to(family).as_posix()
        for path in root.rglob("*")
        if path.is_file() and before.get(path) != path.read_bytes()
    }
    # Only the family folder's files changed (the new module, then a line more in four).
    assert changed == {"second.py", "__init__.py", "specs.py", "eval.yaml", "demo.py"}
    return root


def test_a_second_task_added_in_the_folder_runs_and_is_listed_demoed_and_reported(
    package_with_second_task: Path, tmp_path: Path
) -> None:
    package = package_with_second_task
    logs = tmp_path / "logs"
    inspect = str(BIN / "inspect")
    task = f"research_taste_evals/{SECOND}"
    _run(package, tmp_path, inspect, "eval", task, "--model", "baseline/copy-input", "-T",
         "data_path=demo", "--log-dir", str(logs / "inspect"), "--display", "none")  # fmt: skip
    assert len(list((logs / "inspect").glob("*.eval"))) == 1
    listed = _run(package, tmp_path, str(BIN / "research-taste"), "list")
    assert TASK in listed and SECOND in listed
    demo_logs = logs / "demo"
    printed = _run(package, tmp_path, str(BIN / "research-taste"), "demo", "--task", TASK,
                   "--task", SECOND, "--log-dir", str(demo_logs))  # fmt: skip
    assert SECOND in printed and TASK in printed
    assert len(list(demo_logs.glob("*.eval"))) == 2
    out = tmp_path / "report"
    _run(package, tmp_path, str(BIN / "research-taste"), "report", str(demo_logs), "--out",
         str(out))  # fmt: skip
    shown = [path for path in out.rglob("*.md") if SECOND in path.read_text(encoding="utf-8")]
    assert shown, f"{SECOND} is in no page of the report: {sorted(out.rglob('*'))}"
