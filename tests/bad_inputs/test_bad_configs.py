"""Bad config and grade files given to ``research-taste``: one line on stderr naming the file
and the field, a non-zero exit, and no log folder or output written."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_taste.cli import USAGE_ERROR_EXIT, main

NOT_UTF8 = b"\xff\xfe not utf-8"
GOOD_SWEEP = "log_dir: {logs}\nmodels: [baseline/all-positive]\ntasks: [{{task: eqinfer}}]\n"

SWEEPS = [
    ("empty-file", "", ("sweep.yaml", "empty")),
    ("not-utf8", NOT_UTF8, ("sweep.yaml", "cannot read")),
    ("bad-yaml", "log_dir: [x\n", ("sweep.yaml", "invalid YAML at line")),
    (
        "no-models",
        "log_dir: {logs}\nmodels: []\ntasks: [{{task: eqinfer}}]\n",
        ("sweep.yaml", "field 'tasks.0.models'", "no models for task 'eqinfer'"),
    ),
    (
        "unknown-task-model-provider",
        "log_dir: {logs}\ntasks: [{{task: eqinfer, models: [nosuchapi/model]}}]\n",
        ("sweep.yaml", "field 'tasks.0.models.0'", "nosuchapi"),
    ),
    (
        "unknown-panel-member-provider",
        "log_dir: {logs}\nmodels: [baseline/all-positive]\n"
        "tasks: [{{task: lft, model_roles: {{grader: [baseline/all-positive, nosuchapi/j]}}}}]\n",
        ("sweep.yaml", "field 'tasks.0.model_roles.grader.1'", "nosuchapi"),
    ),
    (
        "demo-data-for-unknown-argument",
        "log_dir: {logs}\nmodels: [baseline/all-positive]\n"
        "tasks: [{{task: eqinfer, args: {{dataset: demo}}}}]\n",
        ("sweep.yaml", "field 'tasks.0.args'", "no argument(s) ['dataset']"),
    ),
    (
        "unknown-task",
        "log_dir: {logs}\nmodels: [baseline/all-positive]\ntasks: [{{task: nope}}]\n",
        ("sweep.yaml", "field 'tasks.0.task'", "unknown task 'nope'"),
    ),
    (
        "unknown-task-argument",
        "log_dir: {logs}\nmodels: [baseline/all-positive]\n"
        "tasks: [{{task: eqinfer}}, {{task: eqinfer, args: {{temprature: 1}}}}]\n",
        ("sweep.yaml", "field 'tasks.1.args'", "no argument(s) ['temprature']"),
    ),
    (
        "unknown-provider",
        "log_dir: {logs}\nmodels: [baseline/all-positive, nosuchapi/model]\n"
        "tasks: [{{task: eqinfer}}]\n",
        ("sweep.yaml", "field 'models.1'", "nosuchapi"),
    ),
    (
        "unknown-role-provider",
        GOOD_SWEEP + "model_roles: {{grader: nosuchapi/judge}}\n",
        ("sweep.yaml", "field 'model_roles.grader'", "nosuchapi"),
    ),
    (
        "bad-data-path",
        "log_dir: {logs}\nmodels: [baseline/all-positive]\n"
        "tasks: [{{task: eqinfer, args: {{data_path: {missing}}}}}]\n",
        ("missing.json", "data_path does not exist", "field 'tasks.0.args' (eqinfer)"),
    ),
    (
        # Bounds are checked when the task is built: the error names the entry too.
        "argument-out-of-range",
        "log_dir: {logs}\nmodels: [baseline/longer]\n"
        "tasks: [{{task: idea_pairs, args: {{pairs_file: demo}}}}, "
        "{{task: idea_pairs, args: {{pairs_file: demo, bootstrap_resamples: 0}}}}]\n",
        ("sweep.yaml", "field 'tasks.1.args' (idea_pairs)", "'bootstrap_resamples' got 0"),
    ),
    (
        "tier-out-of-range",
        "log_dir: {logs}\nmodels: [baseline/longer]\n"
        "tasks: [{{task: idea_pairs, args: {{pairs_file: demo, tiers: 4}}}}]\n",
        ("sweep.yaml", "field 'tasks.0.args' (idea_pairs)", "'tiers' got 4"),
    ),
]


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize(
    ("content", "expected"), [s[1:] for s in SWEEPS], ids=[s[0] for s in SWEEPS]
)
def test_bad_sweep_file_exits_non_zero_with_one_line(
    content: str | bytes,
    expected: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    logs = tmp_path / "logs"
    sweep = tmp_path / "sweep.yaml"
    if isinstance(content, bytes):
        sweep.write_bytes(content)
    else:
        sweep.write_text(content.format(logs=logs, missing=tmp_path / "missing.json"))
    assert main(["sweep", str(sweep)]) == USAGE_ERROR_EXIT
    err = _one_line_error(capsys)
    assert err.startswith("research-taste sweep: error: ")
    for fragment in expected:
        assert fragment in err, err
    assert not logs.exists(), "a failed sweep wrote its log folder"


GRADES_HEADER = "export_id,task_id,solution,expert_1_end_to_end\n"
KEY_HEADER = "export_id,task_id,autograder_end_to_end\n"
GRADES = [
    ("grades-not-utf8", NOT_UTF8, KEY_HEADER + "a1,t,5\n", ("grades.csv", "cannot read CSV")),
    (
        "grade-out-of-range",
        GRADES_HEADER + "a1,t,x,11\n",
        KEY_HEADER + "a1,t,5\n",
        ("grades.csv", "row 1", "column 'expert_1_end_to_end'", "got '11'"),
    ),
    (
        "unknown-export-id",
        GRADES_HEADER + "zz,t,x,4\n",
        KEY_HEADER + "a1,t,5\n",
        ("grades.csv", "row 1", "export_id 'zz'"),
    ),
    (
        "key-without-grade-column",
        GRADES_HEADER + "a1,t,x,4\n",
        "export_id,task_id\na1,t\n",
        ("grades_key.csv", "row 1", "'autograder_end_to_end'"),
    ),
    (
        "key-grade-not-a-number",
        GRADES_HEADER + "a1,t,x,4\n",
        KEY_HEADER + "a1,t,high\n",
        ("grades_key.csv", "row 1", "'autograder_end_to_end'", "not a number"),
    ),
]


@pytest.mark.parametrize(
    ("grades", "key", "expected"), [g[1:] for g in GRADES], ids=[g[0] for g in GRADES]
)
def test_bad_expert_grade_file_exits_non_zero_with_one_line(
    grades: str | bytes,
    key: str,
    expected: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    grades_path, key_path = tmp_path / "grades.csv", tmp_path / "grades_key.csv"
    if isinstance(grades, bytes):
        grades_path.write_bytes(grades)
    else:
        grades_path.write_text(grades)
    key_path.write_text(key)
    assert main(["lft-agreement", str(grades_path), "--key", str(key_path)]) == USAGE_ERROR_EXIT
    err = _one_line_error(capsys)
    for fragment in expected:
        assert fragment in err, err


def test_sweep_provider_check_needs_no_api_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the provider name is checked: a dry run works before any key is set."""
    from research_taste.cli.sweep_load import load_sweep

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {tmp_path / 'logs'}\nmodels: [openai/gpt-4o]\n"
        "model_roles: {grader: [openai/gpt-4o, baseline/all-positive]}\n"
        "tasks: [{task: expdesign}]\n"
    )
    assert load_sweep(sweep).models == ["openai/gpt-4o"]
