"""``research-taste round cycle CONFIG``: a bad field of the cycle file (or of the sweep it
names) is one sentence naming the file and the field, exit 2, before any request; the shipped
cycle file and sweep load; one run from the command line ends with a line per round."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from cycle_venue import day, growing_venue
from fake_openreview import serving

from research_taste.cli import main
from research_taste.rounds.cycle_config import load_cycle_config

REPO = Path(__file__).resolve().parents[2]


def _config(root: Path, api_base: str = "http://127.0.0.1:9", **changes: Any) -> Path:
    source = {"name": "fake", "kind": "openreview", "venue": "Fake.cc/2026/Conference"}
    config = {
        "sweep": str(REPO / "sweeps" / "rounds.yaml"),
        "rounds_dir": str(root / "rounds"),
        "log_dir": str(root / "logs"),
        "report_dir": str(root / "reports"),
        "publish_dir": str(root / "published"),
        "report_viewer": False,
        "sources": [{**source, "pdfs": False, "api_base": api_base}],
    }
    for key, value in changes.items():
        if value is None:
            config.pop(key)
        else:
            config[key] = value
    path = root / "cycle.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def _sweep(root: Path, tasks: list[dict[str, Any]]) -> str:
    path = root / "sweep.yaml"
    path.write_text(yaml.safe_dump({"log_dir": "x", "models": ["baseline/random"], "tasks": tasks}))
    return str(path)


def _source(**changes: Any) -> list[dict[str, Any]]:
    return [{"name": "fake", "kind": "openreview", "venue": "V", **changes}]


BAD = {
    "zero cadence": ({"cadence_days": 0}, r"field 'cadence_days': Input should be greater"),
    "a typo": ({"cadense_days": 14}, r"field 'cadense_days': Extra inputs are not permitted"),
    "no sources": ({"sources": None}, r"field 'sources': Field required"),
    "no source kind": ({"sources": [{"name": "x", "venue": "V"}]}, r"field 'sources\[0\]':"),
    "a kind unknown": (
        {"sources": _source(kind="bluesky")},
        r"field 'sources\[0\]': Input tag 'bluesky' found using 'kind' does not match",
    ),
    "an arXiv source with a venue": (
        {"sources": [{"name": "a", "kind": "arxiv", "category": "cs.LG", "venue": "V"}]},
        r"field 'sources\[0\]\.arxiv\.venue': Extra inputs are not permitted",
    ),
    "a bad name": (
        {"sources": _source(name="My Venue")},
        r"field 'sources\[0\]\.openreview\.name'",
    ),
    "a name twice": (
        {"sources": [*_source(), *_source()]},
        r"field 'sources': source name 'fake' given twice \(it names round folders\)",
    ),
    "judge days": (
        {"sources": _source(judge_days=0)},
        r"field 'sources\[0\]\.openreview\.judge_days': Input should be greater",
    ),
    "a remote log folder": (
        {"log_dir": "s3://bucket/logs"},
        r"field 'log_dir': s3://bucket/logs is remote; the cycle keeps its state in local",
    ),
    "no sweep file": ({"sweep": "nowhere/rounds.yaml"}, r"field 'sweep': nowhere/rounds\.yaml"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_cycle_field_is_one_sentence_before_any_request(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    venue = growing_venue(lambda: day(0), batches=1)
    changes, expected = BAD[case]
    with serving(venue):
        path = _config(tmp_path, venue.base_url, **changes)
        assert main(["round", "cycle", str(path), "--now", "2100-01-04T02:17Z"]) == 2
    assert venue.requests == []
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"research-taste round: error: {path}: field '"), err
    assert re.search(expected, err), err
    assert not (tmp_path / "rounds").exists()


def test_a_sweep_that_cannot_judge_rounds_is_named_by_its_field(tmp_path: Path) -> None:
    from research_taste_evals.core.data import DataError

    plain = _sweep(tmp_path, [{"task": "tastybench", "args": {"data_path": "demo"}}])
    with pytest.raises(DataError, match=r"sweep\.yaml: field 'tasks\.0\.round': the cycle's"):
        load_cycle_config(_config(tmp_path, sweep=plain))
    not_a_round_task = _sweep(tmp_path, [{"task": "tastybench", "round": "rounds/*"}])
    with pytest.raises(DataError, match=r"field 'tasks\.0\.task': 'tastybench' judges no round"):
        load_cycle_config(_config(tmp_path, sweep=not_a_round_task))
    given = _sweep(tmp_path, [{"task": "tastybench_round", "round": "r/*", "args": {"round": "r"}}])
    with pytest.raises(DataError, match=r"field 'tasks\.0\.args\.round': the cycle gives"):
        load_cycle_config(_config(tmp_path, sweep=given))
    typo = _sweep(tmp_path, [{"task": "tastybench_round", "round": "r/*"}])
    Path(typo).write_text(Path(typo).read_text().replace("baseline/random", "baseline/randm"))
    with pytest.raises(DataError, match=r"sweep\.yaml: field 'models\.0'"):
        load_cycle_config(_config(tmp_path, sweep=typo))


def test_a_bad_now_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["round", "cycle", str(_config(tmp_path)), "--now", "tomorrow"])
    assert stopped.value.code == 2
    assert "--now tomorrow: not an ISO time" in capsys.readouterr().err


def test_the_shipped_cycle_file_and_sweep_load() -> None:
    config = load_cycle_config(REPO / "sweeps" / "cycle.yaml")
    assert config.sweep == "sweeps/rounds.yaml" and config.cadence_days == 14
    models = yaml.safe_load((REPO / "sweeps" / "rounds.yaml").read_text())["models"]
    assert "baseline/tastybench-longer" in models  # the floor


@pytest.mark.slow
def test_one_cycle_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    now = dt.datetime(2100, 1, 4, 2, 17, tzinfo=dt.UTC)
    venue = growing_venue(lambda: now, batches=1)
    with serving(venue):
        path = _config(tmp_path, venue.base_url)
        text = path.read_text().replace("Fake.cc/2026/Conference", venue.venue)
        path.write_text(text)
        argv = ["round", "cycle", str(path), "--now", "2100-01-04T02:17", "--display", "none"]
        assert main(argv) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    folder = tmp_path / "rounds" / "fake-2100-01-04"
    assert last == (
        f"{folder}: opened (4 items, 2 pairs); judged: 2 of 2 runs complete (2 run now) | due: "
        "judge by 2100-01-11T02:17:00+00:00, next resolve 2100-01-05, next open 2100-01-18"
    )
