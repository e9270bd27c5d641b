"""Every bad-input corpus case, run as ``inspect eval --display none`` runs it, ends in its
sentence on stderr (once) and a non-zero exit: the package's excepthook (core.errors, installed
when Inspect loads ``_registry``) prints what Inspect's own hook would print through its
display, which ``--display none`` silences."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bad_input_case import Case
from bad_input_corpus import TASK_CASES
from inspect_ai import eval as inspect_eval

from research_taste_evals.core.errors import UserError, stderr_hook


@pytest.mark.parametrize("case", TASK_CASES, ids=lambda case: case.name)
def test_bad_input_sentence_reaches_stderr_under_display_none(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task_args = case.build(tmp_path / "data")
    with pytest.raises(UserError) as raised:
        inspect_eval(
            f"research_taste_evals/{case.task}",
            task_args=task_args,
            model=case.model,
            model_roles=case.model_roles or None,  # type: ignore[arg-type]
            log_dir=str(tmp_path / "logs"),
            display="none",  # rich's console is quiet from here on
        )
    capsys.readouterr()
    error = raised.value
    with pytest.raises(SystemExit) as exited:
        stderr_hook(sys.__excepthook__)(type(error), error, error.__traceback__)
    assert exited.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count(str(error)) == 1
    for fragment in case.expected:
        assert fragment in captured.err


def test_one_corpus_case_through_the_real_command_line(tmp_path: Path) -> None:
    executable = shutil.which("inspect", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip(f"inspect is not installed beside {sys.executable}")
    case = TASK_CASES[0]
    task_args = case.build(tmp_path / "data")
    args = [arg for name, value in task_args.items() for arg in ("-T", f"{name}={value}")]
    roles = [a for r, m in case.model_roles.items() for a in ("--model-role", f"{r}={m}")]
    result = subprocess.run(
        [executable, "eval", f"research_taste_evals/{case.task}", *args, *roles]
        + ["--model", case.model, "--display", "none", "--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode != 0
    assert all(fragment in result.stderr for fragment in case.expected), result.stderr
    assert len([line for line in result.stderr.splitlines() if line.strip()]) == 1
