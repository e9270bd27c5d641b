"""Issue 37's "long or vague errors": each is one sentence naming the file, entry, field or
flag and the fix, with a non-zero exit (``--display none`` where Inspect runs)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log

from research_taste.cli import USAGE_ERROR_EXIT, main
from research_taste.cli.reporting import check_metric_names
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.demo import demo_leaderboards
from research_taste_evals.ideapairs.ideapairs import idea_pairs
from research_taste_evals.tastybench.built_set import REPORT_FILE, build_provenance
from research_taste_evals.tastybench.tastybench_extract import tastybench_extract


def _cli_error(argv: list[str], capsys: pytest.CaptureFixture[str], *fragments: str) -> str:
    """``research-taste`` exits 2 with one ``error:`` line holding every fragment."""
    assert main(argv) == USAGE_ERROR_EXIT
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert f"research-taste {argv[0]}: error: " in lines[0]
    assert all(fragment in lines[0] for fragment in fragments), lines[0]
    return lines[0]


def _one_line(error: BaseException, *fragments: str) -> None:
    text = str(error)
    assert len(text.splitlines()) == 1, text
    assert all(fragment in text for fragment in fragments), text


def test_extraction_from_an_empty_sources_folder_names_the_folder(tmp_path: Path) -> None:
    """It was Inspect's "dataset is empty" in a 269-line exception group."""
    (tmp_path / "ideas").mkdir()
    with pytest.raises(DataError) as info:
        tastybench_extract(data_path="demo", kind="summary", sources_path=str(tmp_path / "ideas"))
    _one_line(info.value, str(tmp_path / "ideas"), "no summary source", "-T sources_path=")


def test_sweep_lft_entry_without_a_grader_names_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It ran and failed every sample (159 warning lines and a traceback)."""
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {tmp_path / 'logs'}\nmodels: [baseline/lft-generic-protocol]\n"
        "tasks: [{task: lft}]\n"
    )
    _cli_error(["sweep", str(sweep)], capsys, "sweep.yaml: field 'tasks.0' (lft)", "grader")
    assert not (tmp_path / "logs").exists()


def test_built_set_report_that_is_not_json_names_the_file(tmp_path: Path) -> None:
    """It was a 283-line traceback from json.loads."""
    (tmp_path / "papers.csv").write_text("paper_id\n")
    (tmp_path / REPORT_FILE).write_text("{not json")
    with pytest.raises(DataError) as info:
        build_provenance(tmp_path, tmp_path / "papers.csv")
    _one_line(info.value, REPORT_FILE, "line 1 column 2", "research-taste tastybench build")


def test_sweep_with_a_misspelt_model_names_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        f"log_dir: {tmp_path / 'logs'}\nmodels: [baseline/all-positve]\n"
        "tasks: [{task: eqinfer, args: {data_path: demo}}]\n"
    )
    line = _cli_error(
        ["sweep", str(sweep)], capsys, "sweep.yaml: field 'models.0'", "baseline/all-positve"
    )
    assert "did you mean baseline/all-positive?" in line and len(line) < 300


ROLE_MISTAKES = {  # --model-role arguments: what the one sentence names
    "misspelt": (["--model-role", "grder=baseline/lft-grader"], "did you mean 'grader'?"),
    "missing": ([], "--model-role grader=<provider/model>"),
}


@pytest.mark.slow  # a fresh inspect eval process per case
@pytest.mark.parametrize("mistake", sorted(ROLE_MISTAKES))
def test_a_role_mistake_is_one_sentence_as_the_logs_error(mistake: str, tmp_path: Path) -> None:
    """A missing or misspelt role stops the task's first solver step, before any model call:
    the log's error is its one sentence (Inspect's display and exit code show it)."""
    executable = shutil.which("inspect", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip(f"inspect is not installed beside {sys.executable}")
    roles, fragment = ROLE_MISTAKES[mistake]
    result = subprocess.run(
        [
            *(executable, "eval", "research_taste_evals/lft"),
            *("--model", "baseline/lft-generic-protocol", *roles),
            *("--display", "plain", "--log-dir", str(tmp_path / "logs")),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    (log_info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(log_info)
    assert log.status == "error" and log.error is not None, result.stderr[-3000:]
    lines = log.error.message.splitlines()
    assert len(lines) == 1 and fragment in lines[0], lines
    assert not [e for s in log.samples or [] for e in s.events if e.event == "model"]


def test_report_on_a_misspelt_folder_says_no_such_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sweep-demo").mkdir()
    _cli_error(
        ["report", str(tmp_path / "sweep-dmeo"), "--out", str(tmp_path / "out")],
        capsys,
        "sweep-dmeo: no such folder",
        "did you mean",
        "sweep-demo",
    )
    assert not (tmp_path / "out").exists()


def test_leaderboard_on_a_missing_folder_exits_2_with_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It exited 1 with no ``error:`` (the README says 2)."""
    _cli_error(["leaderboard", "--log-dir", str(tmp_path / "nope")], capsys, "no such folder")


def test_unknown_metric_is_a_short_sentence_with_close_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was one 9,948-character line listing every metric of every run."""
    known = ["bt_spearman", "bt_spearman_brown", "elo_spearman", *(f"m{i}" for i in range(900))]
    with pytest.raises(DataError) as info:
        check_metric_names(["bt_spearmann"], known)
    _one_line(info.value, "--metric bt_spearmann", "did you mean bt_spearman")
    assert len(str(info.value)) < 150
    # Through the command, on a real log.
    data = write_demo_eqinfer(tmp_path / "data")
    from research_taste_evals.aaar.eqinfer import eqinfer

    logs = str(tmp_path / "logs")
    inspect_eval(eqinfer(data_path=str(data)), model="baseline/all-positive", log_dir=logs)
    argv = ["leaderboard", "--log-dir", logs, "--metric", "decision_f11"]
    line = _cli_error(argv, capsys, "--metric decision_f11", "did you mean decision_f1")
    assert len(line) < 200


def test_ideapairs_build_with_an_empty_test_split_suggests_a_command_that_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It suggested the default split (test), which then failed: "no pairs with split=test"."""
    boards, out = tmp_path / "boards.json", tmp_path / "pairs.jsonl"
    boards.write_text(json.dumps(demo_leaderboards()))
    argv = ["ideapairs", "build", str(boards), "--no-extract", "--test-after", "2019"]
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "--test-after 2019" in printed and "test split" in printed
    command = printed.strip().splitlines()[-1]
    assert command.endswith(f"-T pairs_file={out} -T split=all"), command
    [log] = inspect_eval(
        idea_pairs(pairs_file=str(out), split="all"),
        model="baseline/longer",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success"
