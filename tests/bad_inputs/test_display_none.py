"""Every bad-input corpus case, run as ``inspect eval --display none`` runs it: a build-time
mistake raises the package's one-sentence error, which Inspect shows as it shows any error (its
display, its exit code: under ``--display none`` Python's traceback, the sentence its last
line); the package installs no hook. A role or panel error stops the first solver step, by name
or built by hand: one sentence as the log's error (and, as Inspect's none display shows no task
error, once on stderr), before any model call (``ROLE_CASES``). ``research-taste`` commands
print one sentence and exit 1."""

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
from research_taste_evals.core.errors import UserError
from research_taste_evals.lft.lft import lft

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it


# Role errors: checked in the task's first solver step, however the task is built.
ROLE_CASES = ("lft-quorum-above-the-panel", "lft-without-a-grader")


def _stopped_before_any_call(log: EvalLog, *fragments: str) -> None:
    assert log.status == "error" and log.error is not None
    lines = log.error.message.splitlines()
    assert len(lines) == 1 and all(fragment in lines[0] for fragment in fragments), lines
    assert not [e for s in log.samples or [] for e in s.events if e.event == "model"]


BUILD_CASES = [case for case in [*TASK_CASES, *SETUP_CASES] if case.name not in ROLE_CASES]


@pytest.mark.parametrize("case", BUILD_CASES, ids=lambda case: case.name)
def test_a_build_time_mistake_is_one_sentence_raised_before_any_log(
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
    assert len(str(error).splitlines()) == 1, str(error)
    for fragment in case.expected:
        assert fragment in str(error)


@pytest.mark.parametrize("by_name", [True, False], ids=["by-name", "by-hand"])
@pytest.mark.parametrize("name", ROLE_CASES)
def test_a_role_error_is_the_logs_error(
    name: str, by_name: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (case,) = [case for case in SETUP_CASES if case.name == name]
    assert case.task == "lft"
    args = case.build(tmp_path / "data")
    (log,) = inspect_eval(
        "research_taste_evals/lft" if by_name else lft(**args),
        task_args=args if by_name else {},
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
    _ends_in_the_sentence(result, *case.expected)


def _ends_in_the_sentence(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """``inspect eval``: exit non-zero, the last line of stderr the sentence (Inspect's display
    of an error raised while it builds the task or its model)."""
    assert result.returncode != 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines and all(fragment in lines[-1] for fragment in fragments), result.stderr[-3000:]


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


def test_misspelt_baseline_ends_in_one_sentence_under_display_none(tmp_path: Path) -> None:
    """The model is built inside Inspect's task group: the error is Inspect's to show, its last
    line the sentence naming the known baselines."""
    data = write_demo_eqinfer(tmp_path / "data")
    result = _inspect_eval(
        tmp_path,
        "research_taste_evals/eqinfer",
        "--model",
        "baseline/allpositive",
        "-T",
        f"data_path={data}",
    )
    _ends_in_the_sentence(result, "unknown baseline model 'baseline/allpositive'", "all-positive")


def test_empty_review_critique_file_ends_in_one_sentence_under_display_none(tmp_path: Path) -> None:
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
    _ends_in_the_sentence(result, "reviews.jsonl: no papers with reviews")


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
