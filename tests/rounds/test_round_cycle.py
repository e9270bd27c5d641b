"""Issue 59, done-when: ten weeks of nightly ``round cycle`` runs on a clocked fake venue (no
sleeping): rounds open on days 0, 14, 28, 42, 56; each is judged by ``sweeps/rounds.yaml``'s
models within its window, resolved as labels arrive, scored and published; a second run on the
same day makes no request."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from cycle_venue import CADENCE, DECISION, FIRST_REVIEW, SECOND_REVIEW, day, growing_venue
from fake_openreview import serving
from inspect_ai.log import list_eval_logs, read_eval_log

from research_taste.cli import cycle_run as cycle
from research_taste.cli.cycle_run import run_cycle
from research_taste.rounds.cycle_config import load_cycle_config
from research_taste.rounds.score import scored_parts

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SWEEP = REPO / "sweeps" / "rounds.yaml"
DAYS = 70  # nights 0..69
OPEN_DAYS = [0, 14, 28, 42, 56]


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def write_config(root: Path, **changes: Any) -> Path:
    config = {
        "sweep": str(SWEEP),
        "rounds_dir": str(root / "rounds"),
        "log_dir": str(root / "logs"),
        "report_dir": str(root / "reports"),
        "publish_dir": str(root / "published"),
        "report_viewer": False,
        "sources": [
            {"name": "fake", "kind": "openreview", "venue": "", "pdfs": False, "judge_days": 7}
        ],
        **changes,
    }
    path = root / "cycle.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def _judgments(logs: Path) -> list[Any]:
    return [
        read_eval_log(info, header_only=True)
        for info in list_eval_logs(str(logs))
        if scored_parts(info.name.rpartition("/")[2]) is None
    ]


def test_ten_weeks_of_nightly_cycles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(day(0))
    venue = growing_venue(clock, batches=len(OPEN_DAYS))
    published: list[tuple[int, list[str]]] = []
    original = cycle.publish

    def publish(round_dirs: list[Path], log_dir: str, out: Path, now: dt.datetime) -> None:
        assert now == day(night)
        published.append((night, [folder.name for folder in round_dirs]))
        original(round_dirs, log_dir, out, now)
        assert out.is_dir()

    monkeypatch.setattr(cycle, "publish", publish)
    with serving(venue):
        source = {"name": "fake", "kind": "openreview", "venue": venue.venue, "pdfs": False}
        source |= {"judge_days": 7, "api_base": venue.base_url}
        config = load_cycle_config(write_config(tmp_path, sources=[source]))
        lines: dict[int, str] = {}
        for night in range(DAYS):
            clock.now = day(night)
            run = run_cycle(config, clock.now, min_interval=0, display="none", say=lambda _: None)
            assert not run.failed, run.text()
            lines[night] = run.text()
            asked = len(venue.requests)
            again = run_cycle(config, clock.now, min_interval=0, display="none", say=lambda _: None)
            assert len(venue.requests) == asked, f"night {night}: the second run asked again"
            assert "opened" not in again.text() and "resolved labels" not in again.text()
            assert "judged:" not in again.text() and "scored" not in again.text()

    rounds = sorted((tmp_path / "rounds").iterdir())
    assert [folder.name for folder in rounds] == [f"fake-{day(d).date()}" for d in OPEN_DAYS]
    # judged by the sweep's models, on the night the round opened (within judge_by)
    models = set(yaml.safe_load(SWEEP.read_text())["models"])
    judgments = _judgments(tmp_path / "logs")
    for folder, opened in zip(rounds, OPEN_DAYS, strict=True):
        manifest = json.loads((folder / "round.json").read_text())
        assert manifest["items"] == 4
        mine = [
            log
            for log in judgments
            if log.eval.metadata["round"]["round_id"] == manifest["round_id"]
        ]
        assert {log.eval.model for log in mine} == models and len(mine) == len(models)
        assert f"{folder}: opened (4 items, 2 pairs); judged: 2 of 2 runs complete" in lines[opened]
        judge_by = dt.datetime.fromisoformat(manifest["judge_by"])
        assert day(opened) < judge_by <= day(opened + 7)
        # resolved nightly from the night after open; labels as they arrive; settled after
        # the decisions (no resolve after), or still resolving at the end
        versions = manifest["label_versions"]
        dates = [entry["version"] for entry in versions]
        last = min(opened + DECISION, DAYS - 1)
        assert dates == [str(day(n).date()) for n in range(opened + 1, last + 1)]
        shares = {entry["version"]: entry["labelled_share"] for entry in versions}
        if opened + FIRST_REVIEW < DAYS:
            assert shares[str(day(opened + FIRST_REVIEW).date())] == 1.0
            assert shares[str(day(opened + FIRST_REVIEW - 1).date())] == 0.0
        # scored with the versions that changed a label: the first reviews, the second ones
        changed = [n for n in (FIRST_REVIEW, SECOND_REVIEW) if opened + n < DAYS]
        scored = sorted(
            parts[1]
            for info in list_eval_logs(str(tmp_path / "logs"))
            if (parts := scored_parts(info.name.rpartition("/")[2]))
            and any(parts[0] in log.location for log in mine)
        )
        assert scored == sorted(str(day(opened + n).date()) for n in changed for _ in models)
    # published each time something changed, with every round opened so far, into publish_dir
    assert (tmp_path / "published" / "publication.json").is_file()
    assert published and published[-1][1] == [folder.name for folder in rounds]
    assert {night for night, _ in published} >= set(OPEN_DAYS)
    for night, names in published:
        assert names == [f"fake-{day(d).date()}" for d in OPEN_DAYS if d <= night]
    board = (tmp_path / "reports" / "rounds_leaderboard.csv").read_text()
    assert all(model in board for model in models)
    # every run ends with one line per round: what is due when
    assert f"next open {day(70).date()}" in lines[DAYS - 1]
    assert f"judge by {judge_by.isoformat()}" in lines[56]
    assert f"fake-{day(0).date()}: not resolved: settled" in lines[DAYS - 1]
    assert CADENCE == 14
