"""Partial runs are marked and never replace complete ones; unreadable logs never sink a report."""

from __future__ import annotations

import csv
import io
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from research_taste.cli import main
from research_taste.reporting.report import write_report
from research_taste.reporting.runs import newest_per_row, read_runs

COMPLETE_MODEL = "baseline/all-positive"


def _eqinfer_logs(demo_logs: Path) -> list[Path]:
    return sorted(demo_logs.glob("*_eqinfer_*.eval"))


def _partial_copy(source: Path, target: Path, lost: int, **changes: Any) -> None:
    """``source`` as a run that lost ``lost`` samples (status success, as with no fail_on_error)."""
    log = read_eval_log(str(source))
    assert log.results is not None
    log.results.completed_samples = log.results.total_samples - lost
    for key, value in changes.items():
        setattr(log.eval, key, value)
    write_eval_log(log, str(target))


@pytest.fixture
def partial_logs(demo_logs: Path, tmp_path: Path) -> Path:
    """EqInfer: a complete all-positive run and a newer partial one of the same configuration;
    the other model's only run is partial."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for log in _eqinfer_logs(demo_logs):
        header = read_eval_log(str(log), header_only=True)
        if header.eval.model == COMPLETE_MODEL:
            shutil.copy2(log, folder / log.name)
            newer = "2099-01-01T00:00:00+00:00"
            _partial_copy(log, folder / "newer-partial.eval", lost=1, created=newer)
        else:
            _partial_copy(log, folder / log.name, lost=2)
    return folder


def test_partial_never_replaces_complete_and_is_marked_in_the_report(
    partial_logs: Path, tmp_path: Path
) -> None:
    runs, excluded = read_runs(str(partial_logs))
    assert not excluded and sorted(run.partial for run in runs) == [False, True, True]
    rows = newest_per_row(runs)
    shown = {run.model: run for run in rows}
    assert not shown[COMPLETE_MODEL].partial  # the newer partial run does not replace it
    assert shown[COMPLETE_MODEL].completed_samples == shown[COMPLETE_MODEL].total_samples

    write_report(str(partial_logs), tmp_path / "site", bundle=False)
    report = (tmp_path / "site" / "report.md").read_text()
    table = [line for line in report.splitlines() if line.startswith("| ")]
    (complete,) = [line for line in table if COMPLETE_MODEL in line]
    (partial,) = [line for line in table if "tastybench-first" in line]
    assert complete.startswith("| 1 |") and "| 4/4 |" in complete
    assert partial.startswith("| – |") and "| 2/4 partial |" in partial
    assert "not ranked (--include-partial ranks them): baseline/tastybench-first (2/4)" in report
    page = (tmp_path / "site" / "index.html").read_text()
    assert page.count("<span class='badge'>partial</span>") == 1 and "3/4" not in page

    write_report(str(partial_logs), tmp_path / "ranked", bundle=False, include_partial=True)
    ranked = (tmp_path / "ranked" / "report.md").read_text()
    (line,) = [line for line in ranked.splitlines() if "| baseline/tastybench-first" in line]
    assert line.startswith("| 2 |") and "2/4 partial" in line


def test_partial_is_marked_in_the_leaderboard(
    partial_logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", "--log-dir", str(partial_logs)]) == 0
    out = capsys.readouterr().out
    (complete,) = [line for line in out.splitlines() if COMPLETE_MODEL in line and "| " in line]
    assert "| 4/4 |" in complete and complete.startswith("| 1 |")
    (partial,) = [line for line in out.splitlines() if "tastybench-first" in line and "| " in line]
    assert partial.startswith("| – |") and "2/4 partial" in partial
    assert main(["leaderboard", "--log-dir", str(partial_logs), "--include-partial"]) == 0
    ranked = capsys.readouterr().out
    assert any(
        line.startswith("| 2 |") and "tastybench-first" in line for line in ranked.split("\n")
    )


def test_the_leaderboard_takes_its_folder_as_report_does(
    partial_logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `research-taste leaderboard logs/rounds` was refused ("unrecognized arguments").
    assert main(["leaderboard", "--log-dir", str(partial_logs)]) == 0
    named = capsys.readouterr().out
    assert main(["leaderboard", str(partial_logs)]) == 0
    assert capsys.readouterr().out == named
    assert main(["leaderboard", str(partial_logs), "--log-dir", str(partial_logs.parent)]) == 2
    err = capsys.readouterr().err
    assert "given twice" in err and str(partial_logs) in err and len(err.splitlines()) == 1


def _headerless(good: Path) -> bytes:
    """A zip with the log's samples but no header.json or journal."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(buffer, "w") as copy:
        for name in source.namelist():
            if name.startswith("samples/"):
                copy.writestr(name, source.read(name))
    return buffer.getvalue()


def test_unreadable_logs_are_excluded_from_bundle_and_tables_and_the_rest_published(
    demo_logs: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    good = _eqinfer_logs(demo_logs)
    for log in good:
        shutil.copy2(log, folder / log.name)
    data = good[0].read_bytes()
    bad = {
        "corrupt.eval": b"\x00\x13 not a zip at all " * 50,
        "truncated.eval": data[: len(data) // 2],
        "zero-byte.eval": b"",
        "headerless.eval": _headerless(good[0]),
    }
    for name, content in bad.items():
        (folder / name).write_bytes(content)
    site = tmp_path / "site"
    write_report(str(folder), site)  # with the bundled viewer
    bundled = {p.name for p in (site / "viewer" / "logs").rglob("*.eval")}
    assert bundled == {log.name for log in good}
    with (site / "excluded.csv").open() as handle:
        reasons = {Path(row["log"]).name: row["reason"] for row in csv.DictReader(handle)}
    assert set(reasons) == set(bad)
    assert all(reason.startswith("unreadable log: ") for reason in reasons.values())
    page = (site / "index.html").read_text()
    assert all(name in page.split("id='excluded'")[1] for name in bad)
    assert page.count("viewer/index.html#/logs/") == 2 * len(good)  # "open" + the details row


def test_trend_plot_only_with_two_sweep_dates(demo_logs: Path, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (first, second) = _eqinfer_logs(demo_logs)
    shutil.copy2(first, folder / first.name)
    shutil.copy2(second, folder / second.name)
    write_report(str(folder), tmp_path / "one-date", bundle=False)
    assert not (tmp_path / "one-date" / "eqinfer_trend.png").exists()
    older = read_eval_log(str(first))
    older.eval.created = "2025-01-02T00:00:00+00:00"
    write_eval_log(older, str(folder / "older.eval"))
    write_report(str(folder), tmp_path / "two-dates", bundle=False)
    assert (tmp_path / "two-dates" / "eqinfer_trend.png").stat().st_size > 1000
    assert "eqinfer_trend.png" in (tmp_path / "two-dates" / "index.html").read_text()
