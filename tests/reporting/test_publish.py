"""``report --out`` never deletes what it did not write; links and files are safe to publish."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from research_taste.cli import main
from research_taste.reporting.publish import MARKER
from research_taste.reporting.report import write_report
from research_taste.reporting.runs import Run, relative_location
from research_taste.reporting.viewer import transcript_link
from research_taste_evals.core.data import DataError


@pytest.fixture
def logs(demo_logs: Path, tmp_path: Path) -> Path:
    """The demo sweep's two EqInfer logs in a folder of their own (a quick report)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for log in demo_logs.glob("*_eqinfer_*.eval"):
        shutil.copy2(log, folder / log.name)
    return folder


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _one_sentence(error: str) -> str:
    line = error.strip()
    assert "\n" not in line and line.count(". ") == 0, f"not one sentence: {line!r}"
    return line


def test_a_folder_holding_a_user_file_is_refused_and_left_untouched(
    logs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "my_notes.txt").write_text("keep")
    before = _tree(tmp_path)
    assert main(["report", str(logs), "--out", str(site), "--no-viewer"]) == 2
    error = _one_sentence(capsys.readouterr().err)
    assert str(site) in error and "--force" in error
    assert _tree(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["logs", "site"])  # no scratch


def test_force_adds_the_report_and_keeps_the_user_files(logs: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "notes").mkdir(parents=True)
    (site / "my_notes.txt").write_text("keep")
    (site / "notes" / "a.md").write_text("keep too")
    write_report(str(logs), site, bundle=False, force=True)
    assert (site / "my_notes.txt").read_text() == "keep"
    assert (site / "notes" / "a.md").read_text() == "keep too"
    assert (site / "index.html").is_file() and (site / MARKER).is_file()


def test_a_previous_report_is_replaced_but_files_added_to_it_stay(
    logs: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    write_report(str(logs), site, bundle=False)
    (site / "README.txt").write_text("a user's file inside the report folder")
    (site / "eqinfer-decision_f1.png").write_bytes(b"stale")
    outside = tmp_path / "sibling.txt"
    outside.write_text("untouched")
    write_report(str(logs), site, bundle=False)
    assert (site / "README.txt").read_text() == "a user's file inside the report folder"
    assert (site / "eqinfer-decision_f1.png").read_bytes() != b"stale"
    assert outside.read_text() == "untouched"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site-")]  # scratch removed


def test_the_current_folder_is_refused(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here = tmp_path / "checkout"
    here.mkdir()
    (here / "file.py").write_text("x")
    monkeypatch.chdir(here)
    before = _tree(tmp_path)
    for out in (".", str(here), ".."):
        assert main(["report", str(logs), "--out", out, "--no-viewer", "--force"]) == 2
        error = _one_sentence(capsys.readouterr().err)
        assert f"--out {out}:" in error and "current folder" in error
    assert _tree(tmp_path) == before


def test_a_repository_and_the_log_folder_are_refused(logs: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    before = _tree(tmp_path)
    with pytest.raises(DataError, match=r"holds a \.git"):
        write_report(str(logs), repo, bundle=False, force=True)
    for out in (logs, tmp_path, logs / "report"):  # the log folder, its parent, inside it
        with pytest.raises(DataError, match="log folder"):
            write_report(str(logs), out, bundle=False, force=True)
    assert _tree(tmp_path) == before


def test_links_from_a_relative_log_folder_are_relative_and_name_no_local_path(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    shutil.copytree(logs, work / "logs" / "sweep-demo")
    monkeypatch.chdir(work)
    write_report("logs/sweep-demo", "reports/demo", bundle=False)
    page = (work / "reports" / "demo" / "index.html").read_text()
    links = [part.split("'")[0] for part in page.split("href='")[1:] if ".eval" in part]
    assert links and all(link.startswith("../../logs/sweep-demo/") for link in links)
    for link in links:
        assert (work / "reports" / "demo" / link).resolve().is_file()
    for name, data in _tree(work / "reports" / "demo").items():
        assert str(tmp_path).encode() not in data, f"{name} names a local absolute path"


def test_links_for_bundles_and_remote_log_folders() -> None:
    run = Run(
        task="eqinfer", model="m", roles={}, config={}, metrics={}, total_samples=1,
        completed_samples=1, tokens=0, cost=None, created="", started="", completed="",
        version="", log="s3://bucket/logs/day 2/x.eval", relpath="day 2/x.eval",
    )  # fmt: skip
    assert relative_location("s3://bucket/logs", run.log) == "day 2/x.eval"
    assert relative_location("/abs/logs", "file:///abs/logs/a/b.eval") == "a/b.eval"
    assert transcript_link(run, "s3://bucket/logs", Path("site"), bundled=True) == (
        "viewer/index.html#/logs/day%202/x.eval"
    )
    assert transcript_link(run, "s3://bucket/logs/", Path("site"), bundled=False) == (
        "s3://bucket/logs/day%202/x.eval"
    )


def test_published_tree_is_world_readable_under_umask_022(logs: Path, tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        write_report(str(logs), tmp_path / "site")  # with the bundled viewer
    finally:
        os.umask(previous)
    site = tmp_path / "site"
    assert stat.S_IMODE(site.stat().st_mode) == 0o755
    modes = {stat.S_IMODE(p.stat().st_mode) for p in site.rglob("*") if p.is_file()}
    folders = {stat.S_IMODE(p.stat().st_mode) for p in site.rglob("*") if p.is_dir()}
    assert modes == {0o644} and folders == {0o755}
    assert (site / "viewer" / "index.html").is_file()
    viewer_page = (site / "viewer" / "index.html").read_text()
    assert str(tmp_path) not in viewer_page and "abs_log_dir" not in viewer_page
