"""Every report command the package prints or documents runs as printed: the demo's last line
(run after a demo, placeholders none) and each ``research-taste report`` command of README.md
and docs/ parse with the CLI's own parser (``--out`` is required). The README's rounds command
is run on a folder of round logs in tests/rounds/test_rounds_only_report.py."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from research_taste.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "import sys; from research_taste.cli import main; sys.exit(main())"]
# A command in a code span or block: "research-taste report <folder> ..." up to the span's end.
COMMAND = re.compile(r"research-taste report [^`\n(]+")


def documented_commands() -> list[tuple[str, str]]:
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            for match in COMMAND.finditer(line):
                found.append((path.name, match.group(0).strip().rstrip(",")))
    return found


def test_the_docs_name_report_commands() -> None:
    names = {name for name, _ in documented_commands()}
    assert {"README.md", "sweeps-and-reports.md"} <= names


@pytest.mark.parametrize("where, command", documented_commands())
def test_every_documented_report_command_parses(where: str, command: str) -> None:
    words = shlex.split(command.split(" && ")[0])
    args = build_parser("report").parse_args(words[1:])  # argparse exits 2 without --out
    assert args.command == "report" and args.out, (where, command)


def _env() -> dict[str, str]:
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.slow
def test_the_demos_printed_report_command_runs(tmp_path: Path) -> None:
    demo = [*CLI, "demo", "--task", "scijudge"]
    done = subprocess.run(
        [*demo, "--log-dir", "logs"], cwd=tmp_path, env=_env(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    hint = re.search(r"every figure: (research-taste report [^;]+);", done.stdout)
    assert hint, done.stdout
    words = shlex.split(hint.group(1))
    command = [*CLI, *words[1:]]
    report = subprocess.run(command, cwd=tmp_path, env=_env(), capture_output=True, text=True)
    assert report.returncode == 0, report.stderr[-2000:]
    assert (tmp_path / "reports" / "demo" / "index.html").is_file()
