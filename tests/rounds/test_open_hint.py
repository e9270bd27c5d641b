"""Issue 52, item 1: ``round open`` prints the round tasks' judging commands, with ``--model``
and ``--log-dir`` placeholders; each printed command, its placeholders filled, runs and exits 0
(the PaperWeakness one only where the round froze the papers' texts)."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from research_taste.cli import rounds as round_cli
from research_taste_evals.aaar.demo import write_demo_weakness_round
from research_taste_evals.tastybench.demo import write_demo_round

pytestmark = pytest.mark.slow  # runs `inspect eval` in fresh interpreters
FILLED = {"<model>": "baseline/random", "<embedding model>": "offline-minilm"}


def _printed(folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    manifest = json.loads((folder / "round.json").read_text())
    manifest["counts"] = {"left_out": {}}
    monkeypatch.setattr(round_cli, "_open", lambda args: manifest)
    assert round_cli._cmd_open(argparse.Namespace(out=str(folder))) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("judge it with:")
    return [line.strip() for line in out[1:]]


@pytest.mark.parametrize(
    ("write", "tasks"),
    [
        (write_demo_round, ["tastybench_round"]),
        (write_demo_weakness_round, ["paper_weakness_round", "tastybench_round"]),
    ],
)
def test_each_printed_judging_command_runs_once_its_placeholders_are_filled(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    write: object,
    tasks: list[str],
) -> None:
    folder = write(tmp_path / "round")  # type: ignore[operator]
    commands = _printed(folder, monkeypatch, capsys)
    assert [shlex.split(c)[2].rsplit("/", 1)[1] for c in commands] == tasks
    for index, command in enumerate(commands):
        assert "--model <model>" in command and "--log-dir <log dir>" in command
        assert f"-T round={folder}" in command
        log_dir = tmp_path / f"logs-{index}"
        filled = command.replace("<log dir>", str(log_dir))
        for placeholder, value in FILLED.items():
            filled = filled.replace(placeholder, value)
        assert "<" not in filled, filled
        argv = shlex.split(filled)
        inspect = Path(sys.executable).with_name(argv[0])
        env = {**os.environ, "INSPECT_LOG_DIR": str(tmp_path / "unused")}
        done = subprocess.run(
            [str(inspect), *argv[1:], "--display", "none"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert list(log_dir.glob("*.eval")), done.stderr[-2000:]
        assert not (tmp_path / "logs").exists()  # nothing written to ./logs
