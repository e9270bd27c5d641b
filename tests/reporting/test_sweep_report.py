"""The demo sweep end to end (offline): sweep, rerun (nothing new), report, CLI errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from inspect_ai.log import list_eval_logs

from research_taste.cli import main
from research_taste.cli.demo import DEMO_RUNS
from research_taste.cli.sweep import plan, run_sweep
from research_taste.cli.sweep_load import load_sweep
from research_taste.reporting.families import task_specs
from research_taste.reporting.report import write_report
from research_taste.reporting.runs import read_runs
from research_taste_evals.core.data import DataError
from research_taste_evals.core.families import task_specs as core_specs

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

DEMO_SWEEP = Path(__file__).resolve().parents[2] / "sweeps" / "demo.yaml"
# The round tasks: a round judgment is reported once scored, in the Rounds section.
ROUND_TASKS = {name for name, spec in core_specs().items() if spec.rounds is not None}
DEMO_LIMIT = 4  # as in conftest.py


def test_demo_sweep_covers_every_task_and_its_rows_two_models() -> None:
    runs = plan(load_sweep(DEMO_SWEEP))
    assert {run.task for run in runs} == set(task_specs())  # demo_runs: the rows are optional
    listed = {entry["task"] for entry in yaml.safe_load(DEMO_SWEEP.read_text())["tasks"]}
    for task in listed:
        assert len({run.model for run in runs if run.task == task}) >= 2


def test_demo_runs_add_every_task_the_file_does_not_list(tmp_path: Path) -> None:
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {tmp_path / 'logs'}\ndemo_runs: true\ntasks:\n  - task: eqinfer\n"
        "    args: {data_path: demo}\n    models: [baseline/tastybench-first]\n",
        encoding="utf-8",
    )
    runs = plan(load_sweep(sweep))
    assert {run.task for run in runs} == {run.name for run in DEMO_RUNS}
    # a listed task runs as listed; the others as their family's demo run has them
    assert [run.model for run in runs if run.task == "eqinfer"] == ["baseline/tastybench-first"]
    for demo in DEMO_RUNS:
        if demo.name != "eqinfer":
            (run,) = [run for run in runs if run.task == demo.name]
            assert run.model == demo.model


def test_rerun_adds_no_logs_and_rewrites_none(demo_logs: Path) -> None:
    before = {info.name: info.mtime for info in list_eval_logs(str(demo_logs))}
    config = load_sweep(DEMO_SWEEP).model_copy(
        update={"log_dir": str(demo_logs), "limit": DEMO_LIMIT}
    )
    assert run_sweep(config, display="none")
    after = {info.name: info.mtime for info in list_eval_logs(str(demo_logs))}
    assert after == before
    assert len(before) == len(plan(config))


def test_report_writes_markdown_csv_html_and_plots(demo_logs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert main(["report", str(demo_logs), "--out", str(out), "--eval-report"]) == 0
    report = (out / "report.md").read_text()
    for task, spec in task_specs().items():
        if task in ROUND_TASKS:  # a round judgment is reported once scored (docs/rounds.md)
            continue
        assert f"## {task}: " in report
        for metric in spec.headline_metrics:  # one plot per metric
            assert (out / f"{task}-{metric}.png").stat().st_size > 1000
        assert not (out / f"{task}_trend.png").exists()  # one sweep date: no trend plot
        assert all(metric in report for metric in spec.headline_metrics)
    # excluded: the demo's round judgments alone, not scored yet, each with the command
    excluded = report.split("## Excluded logs", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in excluded.splitlines() if line.startswith("| ")][1:]
    assert {row.split(" | ")[1] for row in rows} == ROUND_TASKS  # their two models each
    assert all("research-taste round score" in row for row in rows)
    header = (out / "metrics.csv").read_text().splitlines()[0]
    assert "score_eqinfer_binary_scorer_decision_f1" in header and "task_version" in header
    html = (out / "index.html").read_text()
    assert html.count("<section class='benchmark'") == len(set(task_specs()) - ROUND_TASKS)
    assert "viewer/index.html#/logs/" in html
    assert (out / "viewer" / "index.html").is_file()
    evaluation = (out / "evaluation_report.md").read_text()
    assert "inspect eval research_taste_evals/eqinfer --model baseline/all-positive" in evaluation
    # The demo runs' commands say demo (they said -T data_path=<local>/..., not runnable).
    eqinfer_line = next(line for line in evaluation.splitlines() if "/eqinfer --model" in line)
    assert "-T data_path=demo" in eqinfer_line and "<local>" not in eqinfer_line
    assert "Paper's numbers (Lou et al. 2024" in evaluation
    assert "Paper's numbers: none. AISI released no rubrics" in evaluation
    # Every paper figure is shown, not only the headline ones (ReviewCritique's P and R).
    assert '| Claude Opus (Either "No") |  | 21.99 | 16.94 | 42.12 |' in evaluation


def test_all_positive_row_has_paper_baseline_numbers(demo_logs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    write_report(str(demo_logs), out, metrics=["decision_f1", "unparsed_rate"], bundle=False)
    line = next(
        row for row in (out / "report.md").read_text().splitlines() if "all-positive" in row
    )
    # 4 decisions of one equation: one correct -> P 0.25, R 1, F1 0.4 (the paper's baseline).
    assert "| 0.400 |" in line and "| 4/4 |" in line


def test_unknown_metric_is_one_short_line_naming_the_closest(
    demo_logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: ``report --metric bt_spearmn`` printed an 11,050-character line, no hint."""
    for typo, close in (("bt_spearmn", "did you mean bt_spearman"), ("f1_typo", "")):
        argv = ["report", str(demo_logs), "--out", str(tmp_path / "r"), "--metric", typo]
        assert main(argv) == 2
        error = capsys.readouterr().err.strip()
        assert len(error.splitlines()) == 1 and len(error) < 200, error
        assert error.startswith(f"research-taste report: error: --metric {typo}: no run"), error
        assert close in error
    assert not (tmp_path / "r").exists()
    assert main(["leaderboard", "--log-dir", str(demo_logs), "--metric", "f1_typo"]) == 2


def test_dry_run_prints_grid_and_calls(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(DEMO_SWEEP), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert (
        "baseline/all-positive" in out
        and "eqinfer" in out
        and "samples=24 " in out
        and "~in_tokens=" in out
    )
    assert "grader=baseline/lft-grader+baseline/lft-grader" in out
    assert out.strip().splitlines()[-1].startswith(f"{len(plan(load_sweep(DEMO_SWEEP)))} runs")


def test_report_on_empty_folder_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "logs").mkdir()
    assert main(["report", str(tmp_path / "logs"), "--out", str(tmp_path / "r")]) == 2
    assert "no successful current-version logs" in capsys.readouterr().err


def test_bad_sweep_file_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("log_dir: x\nmodels: []\ntasks: [{task: eqinfer}]\n")
    with pytest.raises(DataError, match=r"bad.yaml: field 'tasks.0.models'"):
        load_sweep(bad)
    bad.write_text("log_dir: x\nmodels: [m]\ntasks: [{task: nope}]\n")
    with pytest.raises(DataError, match=r"bad.yaml: field 'tasks.0.task': unknown task 'nope'"):
        load_sweep(bad)
    bad.write_text("log_dir: x\nmodels: [m]\ntasks: [{task: lft, args: {rubric_dir: demo}}]\n")
    with pytest.raises(
        DataError, match=r"bad.yaml: field 'tasks.0.args': lft: -T rubric_dir=demo: this argument"
    ):
        load_sweep(bad)
    bad.write_text(
        "log_dir: x\nmodels: [m]\ntasks: [{task: eqinfer, args: {parse_mode: strict}}]\n"
    )
    with pytest.raises(
        DataError, match=r"'tasks.0.args': eqinfer has no argument\(s\) \['parse_mode'\]"
    ):
        load_sweep(bad)
    bad.write_text("log_dir: x\nmodels: [m]\nepochs: 0\ntasks: [{task: lft}]\n")
    with pytest.raises(DataError, match=r"bad.yaml: field 'epochs'"):
        load_sweep(bad)


def test_declared_metrics_are_in_every_log_of_their_task(demo_logs: Path) -> None:
    runs, excluded = read_runs(str(demo_logs))
    assert {e.task for e in excluded} == ROUND_TASKS  # unscored round judgments
    assert {run.task for run in runs} == set(task_specs()) - ROUND_TASKS
    for run in runs:
        spec = task_specs()[run.task]
        declared = [*spec.headline_metrics, *spec.failure_metrics]
        declared += [key for row in spec.paper.results for key in row if key != "model"]
        missing = [name for name in declared if name not in run.metrics]
        assert not missing, f"{run.task} ({run.model}): eval.yaml names {missing}, not in its log"


def test_readme_report_excerpt_has_the_report_columns(demo_logs: Path, tmp_path: Path) -> None:
    # The excerpt is copied from a full demo sweep (24 samples); this one runs a few samples, so
    # only the header can match exactly. It must be the eqinfer header the report writes now.
    readme = (DEMO_SWEEP.parents[1] / "docs" / "sweeps-and-reports.md").read_text()
    header = next(line for line in readme.splitlines() if line.startswith("| rank | model |"))
    write_report(str(demo_logs), tmp_path / "report", bundle=False)
    assert header in (tmp_path / "report" / "report.md").read_text().splitlines()


# cycle.yaml is a round cycle's configuration and rounds.yaml judges the open rounds of a
# glob (both load in tests/rounds/test_round_cycle_config.py, the latter with rounds open).
ROUND_FILES = ("cycle.yaml", "rounds.yaml")
SWEEP_FILES = sorted(p for p in DEMO_SWEEP.parent.glob("*.yaml") if p.name not in ROUND_FILES)


@pytest.mark.parametrize("sweep", SWEEP_FILES, ids=lambda p: p.name)
def test_every_shipped_sweep_file_loads(sweep: Path) -> None:
    assert plan(load_sweep(sweep))  # tasks, arguments and 'demo' data all known
