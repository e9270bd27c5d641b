"""Every bad-input corpus case, run as ``inspect eval --display none`` runs it, ends in its
sentence on stderr (once) and a non-zero exit: the package's excepthook (core.errors, installed
when Inspect loads ``_registry``) prints what Inspect's own hook would print through its
display, which ``--display none`` silences. A role or panel error refuses the task as Inspect's
loader builds it (core/roles.py); in a task built by hand it stops the first solver step: one
sentence as the log's error and on stderr, before any model call (``HAND_BUILT_CASES``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bad_input_case import Case
from bad_input_corpus import TASK_CASES
from bad_input_corpus_setup import EMPTY_FILE_CASES, SETUP_CASES
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.core.errors import UserError, stderr_hook
from research_taste_evals.lft.lft import lft

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it


# Role errors; built by hand, such a task is checked only in its first solver step.
HAND_BUILT_CASES = ("lft-quorum-above-the-panel", "lft-without-a-grader")


def _stopped_before_any_call(log: EvalLog, *fragments: str) -> None:
    assert log.status == "error" and log.error is not None
    lines = log.error.message.splitlines()
    assert len(lines) == 1 and all(fragment in lines[0] for fragment in fragments), lines
    assert not [e for s in log.samples or [] for e in s.events if e.event == "model"]


@pytest.mark.parametrize("case", [*TASK_CASES, *SETUP_CASES], ids=lambda case: case.name)
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
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())
    with pytest.raises(SystemExit) as exited:
        stderr_hook(sys.__excepthook__)(type(error), error, error.__traceback__)
    assert exited.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count(str(error)) == 1
    for fragment in case.expected:
        assert fragment in captured.err


@pytest.mark.parametrize("name", HAND_BUILT_CASES)
def test_a_role_error_in_a_task_built_by_hand_is_the_logs_error(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (case,) = [case for case in SETUP_CASES if case.name == name]
    assert case.task == "lft"
    (log,) = inspect_eval(
        lft(**case.build(tmp_path / "data")),
        model=case.model,
        model_roles=case.model_roles or None,  # type: ignore[arg-type]
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    _stopped_before_any_call(log, *case.expected)
    assert log.error is not None  # and, as Inspect's none display shows no task error:
    assert capsys.readouterr().err.splitlines() == [f"error: {log.error.message}"]


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


def _one_sentence(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Exit non-zero; stderr is one line holding every fragment, with no traceback."""
    assert result.returncode != 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr[-3000:]
    assert all(fragment in lines[0] for fragment in fragments), lines[0]
    assert "Traceback" not in result.stdout + result.stderr


def _inspect_eval(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("inspect", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip(f"inspect is not installed beside {sys.executable}")
    return subprocess.run(
        [executable, "eval", *args, "--display", "none", "--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_misspelt_baseline_is_one_sentence_under_display_none(tmp_path: Path) -> None:
    """It was a 223-line traceback: the model is built inside Inspect's task group, so the
    error reaches the hook inside an exception group."""
    data = write_demo_eqinfer(tmp_path / "data")
    result = _inspect_eval(
        tmp_path,
        "research_taste_evals/eqinfer",
        "--model",
        "baseline/allpositive",
        "-T",
        f"data_path={data}",
    )
    _one_sentence(result, "error: unknown baseline model 'baseline/allpositive'", "all-positive")


def test_empty_review_critique_file_is_one_sentence_under_display_none(tmp_path: Path) -> None:
    """It was Inspect's "dataset is empty" inside a ~270-line exception group."""
    (tmp_path / "reviews.jsonl").write_text("\n\n", encoding="utf-8")
    result = _inspect_eval(
        tmp_path,
        "research_taste_evals/review_critique",
        "--model",
        "baseline/flag-all",
        "-T",
        f"data_path={tmp_path / 'reviews.jsonl'}",
        "-T",
        "bertscore_model=offline-minilm",
    )
    _one_sentence(result, "reviews.jsonl: no papers with reviews")


def test_misspelt_demo_task_is_one_sentence(tmp_path: Path) -> None:
    """The demo runs Inspect with display none; a misspelt --task was a 13-line traceback."""
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from research_taste.cli import main; sys.exit(main())"]
        + ["demo", "--task", "eqinfr", "--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    _one_sentence(result, "--task eqinfr: no such demo task", "eqinfer")
    assert not (tmp_path / "logs").exists()


@pytest.mark.parametrize("case", EMPTY_FILE_CASES, ids=lambda case: case.name)
def test_empty_file_cases_are_in_the_corpus(case: Case) -> None:
    assert case in TASK_CASES
