"""The README's two set-up commands are the ones CI runs (keep them from drifting)."""

from __future__ import annotations

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
CI_SCRIPT = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _setup_commands() -> list[str]:
    setup = README.split("\n## ", 2)[1]
    return re.findall(r"```(?:bash|sh)\n(.*?)\n```", setup, flags=re.S)


def test_readme_starts_with_exactly_two_setup_commands() -> None:
    commands = _setup_commands()
    assert len(commands) == 2, commands
    assert "research-taste demo" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test_command = _setup_commands()[1].strip()
    assert test_command in CI_SCRIPT.splitlines()


PACKAGE_DIR = REPO_ROOT / "src" / "research_taste_evals"


def _task_table() -> dict[str, list[str]]:
    """The Development section's task table: task name -> every path its row names."""
    development = README.split("\n## Development\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in development.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0].startswith("`") and cells[0] != "`@task`":
            paths = re.findall(r"`([\w/.*]+\.(?:py|yaml))`", " ".join(cells[1:]))
            rows[cells[0].strip("`")] = [path for path in paths if "/" in path]
    return rows


def test_the_development_table_names_every_task() -> None:
    from research_taste_evals._registry import TASKS

    assert {task.__name__ for task in TASKS} <= set(_task_table())


def test_every_file_the_development_table_names_exists() -> None:
    missing = []
    for task, paths in _task_table().items():
        assert paths, f"the README row of {task} names no file"
        for path in paths:
            family = PACKAGE_DIR / path.split("/")[0]
            if not family.is_dir():
                continue  # a family still being built elsewhere (its row is reserved)
            if not list(PACKAGE_DIR.glob(path)):
                missing.append(f"{task}: {path}")
    assert not missing, "README Development table names files that do not exist:\n" + "\n".join(
        missing
    )
