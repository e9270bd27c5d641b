"""A sweep into a log folder that holds other logs (docs/rounds.md's ``logs/rounds``, beside
hand-run judgments): Inspect refuses it and names ``--log-dir-allow-dirty``, which the sweep
takes (it did not: the hint could not be followed), as the sweep file's field does."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from research_taste.cli import main
from research_taste.cli.sweep_load import load_sweep
from research_taste_evals.aaar import eqinfer

pytestmark = pytest.mark.slow


def _sweep_file(tmp_path: Path, logs: Path, extra: str = "") -> Path:
    path = tmp_path / "sweep.yaml"
    path.write_text(
        f"log_dir: {logs}\n{extra}tasks:\n  - task: eqinfer\n    args: {{data_path: demo}}\n"
        "    models: [baseline/all-positive]\n",
        encoding="utf-8",
    )
    return path


def test_a_sweep_into_a_folder_with_other_logs_runs_with_the_option_it_is_told_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs" / "rounds"
    inspect_eval(eqinfer(data_path="demo"), model="baseline/tastybench-first", log_dir=str(logs))
    sweep = _sweep_file(tmp_path, logs)
    capsys.readouterr()
    assert main(["sweep", str(sweep), "--display", "none"]) == 2
    error = capsys.readouterr().err
    assert "--log-dir-allow-dirty" in error and len(error.strip().splitlines()) == 1
    assert main(["sweep", str(sweep), "--display", "none", "--log-dir-allow-dirty"]) == 0
    out = capsys.readouterr().out
    assert "eqinfer" in out and "success" in out
    assert len(list(logs.glob("*.eval"))) == 2  # the other log is kept, the sweep's beside it


def test_the_sweep_file_allows_a_dirty_folder_too(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    config = load_sweep(_sweep_file(tmp_path, logs, "log_dir_allow_dirty: true\n"))
    assert config.log_dir_allow_dirty is True
    assert load_sweep(_sweep_file(tmp_path, logs)).log_dir_allow_dirty is False
