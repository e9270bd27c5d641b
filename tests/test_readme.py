"""The README stays a page a newcomer reads, and every command in it works.

Its two set-up commands are the ones CI runs; every other command in its code blocks is checked
here: a ``research-taste`` command parses with the CLI's own parser, an ``inspect eval`` names a
task of the package and only arguments that task takes. The table of where each task's pieces
are (CONTRIBUTING.md) names every task and only files that exist.
"""

from __future__ import annotations

import inspect
import re
import shlex
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
CONTRIBUTING = (REPO_ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
CI_SCRIPT = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
MAX_README_LINES = 250


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


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= MAX_README_LINES


def _readme_commands() -> list[str]:
    """Every shell command of the README's bash blocks: continuation lines joined, comments
    dropped, ``a && b`` split."""
    commands = []
    for block in re.findall(r"```(?:bash|sh)\n(.*?)\n```", README, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            code = shlex.split(line, comments=True)
            command: list[str] = []
            for word in [*code, "&&"]:
                if word == "&&":
                    if command:
                        commands.append(shlex.join(command))
                    command = []
                else:
                    command.append(word)
    return commands


def test_the_readme_command_reader_sees_commands() -> None:
    commands = _readme_commands()
    assert "research-taste sweep sweeps/demo.yaml --dry-run" in commands
    assert "inspect view" in commands


@pytest.mark.parametrize(
    "command", [c for c in _readme_commands() if c.startswith("research-taste ")]
)
def test_every_research_taste_command_of_the_readme_parses(command: str) -> None:
    from research_taste.cli import build_parser

    build_parser("*").parse_args(shlex.split(command)[1:])  # exits 2 on an unknown option


@pytest.mark.parametrize(
    "command", [c for c in _readme_commands() if c.startswith("inspect eval ")]
)
def test_every_inspect_eval_of_the_readme_names_a_task_and_its_arguments(command: str) -> None:
    from research_taste_evals._registry import TASKS

    words = shlex.split(command)
    name = words[2].removeprefix("research_taste_evals/")
    tasks = {fn.__name__: fn for fn in TASKS}
    assert name in tasks, command
    parameters = inspect.signature(inspect.unwrap(tasks[name])).parameters
    given = [words[i + 1].split("=", 1)[0] for i, word in enumerate(words) if word == "-T"]
    assert set(given) <= set(parameters), (command, sorted(set(given) - set(parameters)))


PACKAGE_DIR = REPO_ROOT / "src" / "research_taste_evals"


def _task_table() -> dict[str, list[str]]:
    """CONTRIBUTING's "Where each task's pieces are" table: task name -> every path its row
    names."""
    section = CONTRIBUTING.split("\n## Where each task's pieces are\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0].startswith("`") and cells[0] != "`@task`":
            paths = re.findall(r"`([\w/.*]+\.(?:py|yaml))`", " ".join(cells[1:]))
            rows[cells[0].strip("`")] = [path for path in paths if "/" in path]
    return rows


def test_the_pieces_table_names_every_task() -> None:
    from research_taste_evals._registry import TASKS

    assert {task.__name__ for task in TASKS} <= set(_task_table())


def test_every_file_the_pieces_table_names_exists() -> None:
    missing = []
    for task, paths in _task_table().items():
        assert paths, f"the CONTRIBUTING row of {task} names no file"
        for path in paths:
            family = PACKAGE_DIR / path.split("/")[0]
            if not family.is_dir():
                continue  # a family still being built elsewhere (its row is reserved)
            if not list(PACKAGE_DIR.glob(path)):
                missing.append(f"{task}: {path}")
    assert not missing, "CONTRIBUTING's pieces table names files that do not exist:\n" + "\n".join(
        missing
    )


def test_every_relative_link_of_the_readme_and_docs_exists() -> None:
    pages = [REPO_ROOT / "README.md", REPO_ROOT / "CONTRIBUTING.md"]
    pages += sorted((REPO_ROOT / "docs").glob("*.md"))
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(REPO_ROOT)}: {target}")
    assert not broken, broken
