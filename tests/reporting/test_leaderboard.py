from __future__ import annotations

from pathlib import Path

import pytest

from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.cli import main
from research_taste_evals.cli.sweep import load_sweep, run_sweep
from research_taste_evals.core.data import DataError
from research_taste_evals.reporting.leaderboard import collect_rows, to_csv, to_markdown


@pytest.fixture(scope="module")
def swept_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two offline sweeps over the same folder: the second is skipped as already complete."""
    root = tmp_path_factory.mktemp("sweep")
    data = write_demo_eqinfer(root / "data")
    config = root / "sweep.yaml"
    config.write_text(
        f"log_dir: {root / 'logs'}\n"
        "models: [baseline/all-positive]\n"
        "tasks:\n"
        f"  - task: eqinfer\n    args: {{data_path: '{data}'}}\n"
        f"  - task: eqinfer\n    args: {{data_path: '{data}', context_words: 500}}\n"
    )
    assert main(["sweep", str(config)]) == 0
    assert run_sweep(load_sweep(config))  # resumable: nothing left to run
    return root / "logs"


def test_leaderboard_has_one_row_per_task_model_and_arguments(swept_logs: Path) -> None:
    rows = collect_rows(swept_logs)
    assert len(rows) == 2
    assert {row.task_args.get("context_words") for row in rows} == {1000, 500}
    for row in rows:
        assert row.model == "baseline/all-positive"
        assert row.metrics["decision_f1"] == pytest.approx(0.4)
    markdown = to_markdown(rows, ["decision_f1"])
    assert "### eqinfer" in markdown and "context_words=500" in markdown
    assert "| baseline/all-positive | context_words=1000 | 24 | 0.4 |" in markdown
    csv_lines = to_csv(rows).splitlines()
    assert csv_lines[0].startswith("task,model,args,samples,metric,value")
    assert '""context_words"": 500' in to_csv(rows)
    assert len(csv_lines) == 1 + 2 * len(rows[0].metrics)


def test_leaderboard_command_writes_table_and_plots(swept_logs: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.md"
    plots = tmp_path / "plots"
    args = ["leaderboard", "--log-dir", str(swept_logs), "--metric", "decision_f1"]
    assert main([*args, "--out", str(out), "--plot-dir", str(plots)]) == 0
    assert "decision_f1" in out.read_text()
    (png,) = plots.glob("*.png")
    assert png.name == "eqinfer_decision_f1.png" and png.stat().st_size > 1000


def test_leaderboard_on_empty_folder_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", "--log-dir", str(tmp_path)]) == 1
    assert "no successful logs" in capsys.readouterr().err


def test_bad_sweep_file_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("log_dir: x\nmodels: []\ntasks: [{task: eqinfer}]\n")
    with pytest.raises(DataError, match=r"bad.yaml: field 'models'"):
        load_sweep(bad)
    bad.write_text("log_dir: x\nmodels: [m]\ntasks: [{task: nope}]\n")
    with pytest.raises(DataError, match=r"bad.yaml: field 'tasks.0.task': unknown task 'nope'"):
        load_sweep(bad)
