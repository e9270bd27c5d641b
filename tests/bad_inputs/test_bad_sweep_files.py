"""Sweep files that are valid YAML and schema but cannot run as meant: a role the task does not
read, a run listed twice, a ``log_dir`` that is a file, a provider without its API key. Each
exits 2 with one plain sentence naming the sweep file and the entry, and writes no log."""

from __future__ import annotations

import contextvars
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.event import ModelEvent

from research_taste.cli import USAGE_ERROR_EXIT, main
from research_taste.cli.sweep_checks import task_roles
from research_taste.reporting.families import task_specs
from research_taste_evals._registry import TASKS
from research_taste_evals.core.demo import family_demo_run
from research_taste_evals.core.embeddings import OFFLINE_MODEL

HEAD = "log_dir: {logs}\nmodels: [baseline/all-positive]\n"
SWEEPS = [
    (
        "role-name-typo",
        HEAD + "tasks: [{{task: lft, model_roles: {{grder: baseline/lft-grader}}}}]\n",
        (
            "field 'tasks.0.model_roles.grder'",
            "reads no model role 'grder'",
            "'grader', 'critic'",
        ),
    ),
    (
        "grader-for-a-task-without-graders",
        HEAD + "tasks: [{{task: eqinfer, model_roles: {{grader: baseline/lft-grader}}}}]\n",
        ("field 'tasks.0.model_roles.grader'", "eqinfer reads no model role", "none"),
    ),
    (
        "top-level-role-no-task-reads",
        HEAD + "model_roles: {{grader: baseline/lft-grader}}\n"
        "tasks: [{{task: eqinfer}}, {{task: idea_pairs}}]\n",
        ("field 'model_roles.grader'", "eqinfer, idea_pairs", "reads a model role 'grader'"),
    ),
    (
        "lft-without-graders",
        HEAD + "tasks: [{{task: lft}}]\n",
        ("field 'tasks.0' (lft)", "no 'grader' model role"),
    ),
    (
        "quorum-beyond-the-panel",
        HEAD + "tasks: [{{task: lft, model_roles: {{grader: [baseline/lft-grader]}}, "
        "args: {{quorum: 3, grader_repeats: 2}}}}]\n",
        ("field 'tasks.0.args.quorum'", "1 grader model(s) x grader_repeats 2", "1..2"),
    ),
    (
        "duplicate-task-entries",
        HEAD + "tasks: [{{task: eqinfer}}, {{task: idea_pairs}}, {{task: eqinfer}}]\n",
        ("task eqinfer", "'tasks.0' and 'tasks.2'", "listed twice"),
    ),
    (
        "model-listed-twice",
        "log_dir: {logs}\nmodels: [baseline/all-positive, baseline/all-positive]\n"
        "tasks: [{{task: eqinfer}}]\n",
        ("field 'models'", "listed twice"),
    ),
    (
        "cutoff-named-twice",  # issue 42: YAML kept the last of the two silently
        HEAD + "tasks: [{{task: eqinfer}}]\n"
        "knowledge_cutoffs: {{baseline/all-positive: 2023-01, baseline/all-positive: 2024-06}}\n",
        ("field 'knowledge_cutoffs.baseline/all-positive'", "given twice (line 4)"),
    ),
    (
        "log-dir-is-a-file",
        "log_dir: {file}\nmodels: [baseline/all-positive]\ntasks: [{{task: eqinfer}}]\n",
        ("field 'log_dir'", "a-file", "is a file, not a folder"),
    ),
]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == USAGE_ERROR_EXIT
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("research-taste sweep: error: "), err
    assert "[bold]" not in err and "[/" not in err, f"rich markup printed raw: {err}"
    return err


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry-run"])
@pytest.mark.parametrize(
    ("content", "expected"), [s[1:] for s in SWEEPS], ids=[s[0] for s in SWEEPS]
)
def test_sweep_that_cannot_run_as_meant_names_file_and_entry(
    content: str,
    expected: tuple[str, ...],
    dry_run: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    logs, file = tmp_path / "logs", tmp_path / "a-file"
    file.write_text("not a folder")
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(content.format(logs=logs, file=file))
    err = _run(["sweep", str(sweep), *(["--dry-run"] if dry_run else [])], capsys)
    for fragment in ("sweep.yaml", *expected):
        assert fragment in err, err
    assert not logs.exists(), "a failed sweep wrote its log folder"
    assert file.read_text() == "not a folder"


def test_log_dir_override_that_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep, file = tmp_path / "sweep.yaml", tmp_path / "a-file"
    file.write_text("x")
    sweep.write_text(HEAD.format(logs=tmp_path / "logs") + "tasks: [{task: eqinfer}]\n")
    err = _run(["sweep", str(sweep), "--log-dir", str(file)], capsys)
    assert "--log-dir" in err and "is a file" in err


def test_missing_api_key_names_the_entry_in_plain_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked before any run (the dry run needs no key: test_bad_configs)."""
    for variable in ("OPENAI_API_KEY", "AZUREAI_OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(variable, raising=False)
    logs, sweep = tmp_path / "logs", tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {logs}\nmodels: [baseline/all-positive]\n"
        "tasks: [{task: eqinfer}, {task: expdesign, model_roles: {grader: openai/gpt-4o}}]\n"
    )
    err = _run(["sweep", str(sweep)], capsys)
    assert "sweep.yaml: field 'tasks.1.model_roles.grader': openai/gpt-4o" in err, err
    assert "OPENAI_API_KEY" in err
    assert not logs.exists()


def test_task_roles_cover_every_task_and_its_declared_calls() -> None:
    """The roles the sweep checks against (each task's declaration) cover every role whose
    calls the family's eval.yaml counts."""
    for name, spec in task_specs().items():
        declared = set(spec.model_calls_per_sample) - {"model"}
        assert declared <= set(task_roles(name)), name


# Arguments that make a task call every role it reads (on its demo data where it has some).
ROLE_CALLING_ARGS: dict[str, dict[str, object]] = {
    "expdesign": {"embedding_model": OFFLINE_MODEL},
    "lft": {"followup": "critique", "runs": 1, "grader_repeats": 1},
    "tastybench": {"choice_method": "extractor", "embedding_model": OFFLINE_MODEL},
    "tastybench_round": {"choice_method": "extractor"},
}


@pytest.mark.parametrize(
    "task_fn", [fn for fn in TASKS if task_roles(fn.__name__)], ids=lambda fn: fn.__name__
)
def test_every_role_the_sweep_accepts_is_called_by_its_task(
    task_fn: Callable[..., Task], tmp_path: Path
) -> None:
    """Each role in the sweep's table is really played: one sample run with the role bound
    records a model call in that role (a role listed for a task that never reads it fails)."""
    name = task_fn.__name__
    run = family_demo_run(task_fn.__module__, name)
    assert run is not None, name
    arguments = dict(ROLE_CALLING_ARGS.get(name, {}))
    if run.data_arg:
        arguments[run.data_arg] = "demo"
    accepted = [p for p in inspect.signature(task_fn).parameters if p in arguments]
    roles = task_roles(name)
    # Built in an empty context, as the sweep builds it: a model an earlier test's eval left
    # active in this process would make the task check its roles before they are bound.
    task = contextvars.Context().run(task_fn, **{k: arguments[k] for k in accepted})
    [log] = eval(
        task,
        model=run.model,
        # The demo's offline player of the role, else the demo's model: any answer will do.
        model_roles={role: run.model_roles.get(role, run.model) for role in roles},
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    played = {
        event.role
        for sample in log.samples or []
        for event in sample.events
        if isinstance(event, ModelEvent)
    }
    assert set(roles) <= played, f"{name}: roles called {played}, table {roles}"
