"""The same data makes one leaderboard row, whatever the argument's text (issue 42: the sweep
demo's ``data_path=demo`` and ``data_path=<folder>/equation.demo.json`` were two rows tied at
rank 1; TastyBench's ``demo`` and ``<folder>/tastybench`` too), and ``report`` prints no
matplotlib warning and no local path."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste.cli import main
from research_taste.reporting.runs import newest_per_row, read_runs

pytestmark = pytest.mark.slow  # runs whole tasks

CASES = [
    ("eqinfer", "baseline/all-positive", "equation.demo.json"),
    ("tastybench", "baseline/tastybench-first", "tastybench"),
]


def _loaded(logs: Path) -> Path:
    """The local file the demo run loaded (its provenance data_source)."""
    [run] = read_runs(str(logs))[0]
    from inspect_ai.log import read_eval_log

    source = read_eval_log(run.log, header_only=True).eval.metadata["provenance"]["data_source"]
    return Path(source.removeprefix("local:").split(" ", 1)[0])


@pytest.mark.parametrize(("task", "model", "name"), CASES, ids=[case[0] for case in CASES])
def test_demo_and_the_same_data_by_path_are_one_row(
    task: str, model: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    run = {"model": model, "log_dir": str(logs), "display": "none", "limit": 2}
    assert inspect_eval(f"research_taste_evals/{task}", task_args={"data_path": "demo"}, **run)
    loaded = _loaded(logs)
    # The same data under another folder, named as a user names it: the file, or for
    # TastyBench the folder that holds upstream's layout.
    source = loaded if task == "eqinfer" else loaded.parents[2]
    copy = tmp_path / "mine" / name
    if source.is_dir():
        shutil.copytree(source, copy)
    else:
        copy.parent.mkdir()
        shutil.copy(source, copy)
    assert inspect_eval(f"research_taste_evals/{task}", task_args={"data_path": str(copy)}, **run)
    runs = read_runs(str(logs))[0]
    assert len(runs) == 2 and len(newest_per_row(runs)) == 1
    out = tmp_path / "report"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["report", str(logs), "--out", str(out), "--no-viewer"]) == 0
    printed = capsys.readouterr()
    assert not [w for w in caught if "layout" in str(w.message).lower()]
    assert "Tight layout" not in printed.out + printed.err
    report = (out / "report.md").read_text(encoding="utf-8")
    assert sum(line.startswith("| 1 |") for line in report.splitlines()) == 1, report
    assert str(tmp_path) not in report + printed.err
