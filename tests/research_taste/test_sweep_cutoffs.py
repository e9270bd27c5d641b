"""A sweep file gives a knowledge cutoff next to a model: every dated task it runs gets it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from inspect_ai.log import list_eval_logs, read_eval_log

from research_taste.cli import main
from research_taste.cli.sweep import plan
from research_taste.cli.sweep_load import load_sweep
from research_taste_evals.core.data import DataError


def _sweep(tmp_path: Path, **extra: object) -> Path:
    body = {
        "log_dir": str(tmp_path / "logs"),
        "models": ["baseline/tastybench-first", "baseline/all-positive"],
        "tasks": [
            {"task": "tastybench", "args": {"data_path": "demo"}},
            {"task": "tastybench", "args": {"data_path": "demo", "knowledge_cutoff": "2023-01-01"}},
            {"task": "eqinfer", "args": {"data_path": "demo"}},
        ],
        **extra,
    }
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump(body), encoding="utf-8")
    return path


def test_the_cutoff_reaches_the_dated_tasks_of_its_model_only(tmp_path: Path) -> None:
    config = load_sweep(
        _sweep(tmp_path, knowledge_cutoffs={"baseline/tastybench-first": "2024-06-01"})
    )
    args = {(run.entry, run.model): run.args for run in plan(config)}
    assert args[(0, "baseline/tastybench-first")]["knowledge_cutoff"] == "2024-06-01"
    assert "knowledge_cutoff" not in args[(0, "baseline/all-positive")]  # no cutoff given
    # The task entry's own argument wins; a task without item dates takes none.
    assert args[(1, "baseline/tastybench-first")]["knowledge_cutoff"] == "2023-01-01"
    assert "knowledge_cutoff" not in args[(2, "baseline/tastybench-first")]


@pytest.mark.parametrize(
    ("cutoffs", "expected"),
    [
        (
            {"baseline/tastybench-first": "2024-13-01"},
            "knowledge_cutoffs.baseline/tastybench-first",
        ),
        ({"openai/gpt-4o": "2024-06-01"}, "no task of the sweep evaluates 'openai/gpt-4o'"),
    ],
)
def test_a_bad_cutoff_entry_is_one_sentence_naming_it(
    tmp_path: Path, cutoffs: dict[str, str], expected: str
) -> None:
    with pytest.raises(DataError) as raised:
        load_sweep(_sweep(tmp_path, knowledge_cutoffs=cutoffs))
    assert expected in str(raised.value) and "sweep.yaml" in str(raised.value)


@pytest.mark.parametrize(
    ("text", "field", "says"),
    [
        (
            "knowledge_cutoffs: {baseline/first: 2025-13-01}",
            "knowledge_cutoffs.baseline/first",
            "not a real date",
        ),
        (
            "knowledge_cutoffs: {baseline/first: 1900-01-01}",
            "knowledge_cutoffs.baseline/first",
            "before 1990",
        ),
        (
            "knowledge_cutoffs: {baseline/first: 2999-01}",
            "knowledge_cutoffs.baseline/first",
            "after today",
        ),
        ("tasks.0.args: 2025-02-30", "tasks.0.args.knowledge_cutoff", "not a real date"),
    ],
)
def test_an_unquoted_bad_date_is_one_sentence_naming_its_field(
    tmp_path: Path, text: str, field: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unquoted dates are read as text, so even an impossible one is named by its field."""
    cutoff = text.split(": ", 1)[1] if text.startswith("tasks") else "2024-06"
    lines = [
        f"log_dir: {tmp_path / 'logs'}",
        "models: [baseline/first]",
        "tasks:",
        f"  - {{task: idea_pairs, args: {{pairs_file: demo, knowledge_cutoff: {cutoff}}}}}",
    ]
    if not text.startswith("tasks"):
        lines[3] = "  - {task: idea_pairs, args: {pairs_file: demo}}"
        lines.append(text)
    path = tmp_path / "sweep.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["sweep", str(path)]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"sweep.yaml: field '{field}': argument 'knowledge_cutoff' got" in err and says in err


def test_a_sweep_with_an_unquoted_date_runs_and_its_finished_run_is_recognised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34: an unquoted YAML date reached the log as 'date'; the re-run said 'not started'."""
    logs = tmp_path / "logs"
    path = tmp_path / "sweep.yaml"
    path.write_text(
        f"log_dir: {logs}\nlimit: 3\nmodels: [baseline/first]\n"
        "knowledge_cutoffs: {baseline/first: 2014-12}\n"
        "tasks:\n"
        "  - {task: idea_pairs, args: {pairs_file: demo, split: all, bootstrap_resamples: 20}}\n"
        "  - task: idea_pairs\n"
        "    args: {pairs_file: demo, split: all, bootstrap_resamples: 20, "
        "knowledge_cutoff: 2015-01-31}\n",
        encoding="utf-8",
    )
    assert main(["sweep", str(path), "--display", "none"]) == 0
    logged = sorted(
        read_eval_log(info, header_only=True).eval.task_args["knowledge_cutoff"]
        for info in list_eval_logs(str(logs))
    )
    assert logged == ["2014-12", "2015-01-31"]  # strings: never 'date'
    capsys.readouterr()
    before = sorted(info.name for info in list_eval_logs(str(logs)))
    assert main(["sweep", str(path), "--display", "none"]) == 0  # finished: nothing runs again
    assert sorted(info.name for info in list_eval_logs(str(logs))) == before
    assert "not started" not in capsys.readouterr().out


def test_a_model_named_twice_in_knowledge_cutoffs_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: YAML keeps the last of two equal keys, so the first cutoff was silently lost."""
    logs, path = tmp_path / "logs", tmp_path / "sweep.yaml"
    path.write_text(
        f"log_dir: {logs}\nmodels: [baseline/first]\n"
        "tasks: [{task: idea_pairs, args: {pairs_file: demo}}]\n"
        "knowledge_cutoffs:\n  baseline/first: 2023-01\n  baseline/first: 2024-06\n",
        encoding="utf-8",
    )
    assert main(["sweep", str(path), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    field = "field 'knowledge_cutoffs.baseline/first'"
    assert f"sweep.yaml: {field}: given twice (lines 5 and 6)" in err, err
    assert not logs.exists()


@pytest.mark.slow
def test_a_round_task_beside_knowledge_cutoffs_runs_and_gets_no_cutoff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round needs no cutoff (it is judged before its labels exist): the task takes none, so
    the sweep's ``knowledge_cutoffs`` reach the dated tasks of one file and not the round's."""
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "sweep.yaml"
    body = {
        "log_dir": str(tmp_path / "logs"),
        "models": ["baseline/tastybench-first"],
        "tasks": [
            {"task": "tastybench", "args": {"data_path": "demo"}},
            {"task": "tastybench_round", "args": {"round": "demo"}},
        ],
        "knowledge_cutoffs": {"baseline/tastybench-first": "2024-06-01"},
    }
    path.write_text(yaml.safe_dump(body), encoding="utf-8")
    args = [run.args for run in plan(load_sweep(path))]
    assert args[0]["knowledge_cutoff"] == "2024-06-01" and "knowledge_cutoff" not in args[1]
    assert main(["sweep", str(path), "--display", "none"]) == 0
    tasks = {
        read_eval_log(info, header_only=True).eval.task.rsplit("/", 1)[-1]
        for info in list_eval_logs(str(tmp_path / "logs"))
    }
    assert tasks == {"tastybench", "tastybench_round"}
