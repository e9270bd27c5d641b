"""A sweep entry naming a round glob (``round: rounds/*``) judges every matching round still
within its judging window: one entry per open round, its ``round`` argument that folder."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from research_taste.cli.sweep_load import expand_round_globs
from research_taste_evals.core.data import DataError

NOW = dt.datetime(2027, 3, 1, tzinfo=dt.UTC)


def _round(root: Path, name: str, judge_by: str) -> Path:
    folder = root / "rounds" / name
    folder.mkdir(parents=True)
    manifest = {  # the fields every round.json holds (core/round_manifest.py checks them)
        "name": name,
        "opened_at": "2027-01-01T00:00:00+00:00",
        "judge_by": judge_by,
        "items_sha256": "0" * 64,
        "pairs_sha256": "0" * 64,
        "label_plan": {"kind": "citation_velocity", "prompt": "goodhart"},
    }
    (folder / "round.json").write_text(json.dumps(manifest))
    return folder


def _sweep(glob: str) -> dict[str, object]:
    entry = {"task": "tastybench_round", "round": glob, "models": ["baseline/random"]}
    return {"log_dir": "logs", "tasks": [entry, {"task": "tastybench"}]}


def test_a_round_glob_judges_every_open_round_in_its_window(tmp_path: Path) -> None:
    spring = _round(tmp_path, "2027-w08", "2027-03-05T00:00:00+00:00")
    summer = _round(tmp_path, "2027-w09", "2027-03-12T00:00:00+00:00")
    _round(tmp_path, "2027-w02", "2027-01-20T00:00:00+00:00")  # closed: not judged
    (tmp_path / "rounds" / "notes").mkdir()  # not a round
    out = expand_round_globs(Path("s.yaml"), _sweep("rounds/*"), now=NOW, root=tmp_path)
    tasks = out["tasks"]
    assert [entry.get("args", {}).get("round") for entry in tasks] == [
        str(spring),
        str(summer),
        None,
    ]
    assert all("round" not in entry for entry in tasks)
    assert tasks[0]["models"] == ["baseline/random"]


def test_a_glob_with_no_open_round_is_one_sentence_naming_the_field(tmp_path: Path) -> None:
    _round(tmp_path, "2027-w02", "2027-01-20T00:00:00+00:00")
    with pytest.raises(DataError, match=r"^s\.yaml: field 'tasks\.0\.round': no round matching"):
        expand_round_globs(Path("s.yaml"), _sweep("rounds/*"), now=NOW, root=tmp_path)


def test_a_glob_on_a_task_that_judges_no_round_names_the_round_tasks(tmp_path: Path) -> None:
    _round(tmp_path, "2027-w08", "2027-03-05T00:00:00+00:00")
    sweep = _sweep("rounds/*")
    sweep["tasks"][0]["task"] = "tastybench"  # type: ignore[index]
    with pytest.raises(DataError, match=r"judges no round; a round glob needs a round task \("):
        expand_round_globs(Path("s.yaml"), sweep, now=NOW, root=tmp_path)


def test_an_absolute_glob_judges_its_rounds_by_their_absolute_folders(tmp_path: Path) -> None:
    # Usual in CI; it was a NotImplementedError traceback from pathlib.
    spring = _round(tmp_path, "2027-w08", "2027-03-05T00:00:00+00:00")
    out = expand_round_globs(Path("s.yaml"), _sweep(f"{tmp_path}/rounds/*"), now=NOW)
    assert out["tasks"][0]["args"]["round"] == str(spring)


@pytest.mark.parametrize("glob", ["", "  ", None, ["rounds/*"], 7])
def test_a_glob_that_is_not_a_non_empty_text_is_one_sentence(tmp_path: Path, glob: object) -> None:
    # '' was a ValueError traceback from pathlib; None and a list were globbed as their text.
    _round(tmp_path, "2027-w08", "2027-03-05T00:00:00+00:00")
    sweep = _sweep("x")
    sweep["tasks"][0]["round"] = glob  # type: ignore[index]
    with pytest.raises(DataError, match=r"^s\.yaml: field 'tasks\.0\.round': the round glob must"):
        expand_round_globs(Path("s.yaml"), sweep, now=NOW, root=tmp_path)


def test_a_glob_under_args_says_it_belongs_in_the_round_key(tmp_path: Path) -> None:
    sweep = {
        "log_dir": "logs",
        "tasks": [{"task": "tastybench_round", "args": {"round": "rounds/*"}}],
    }
    with pytest.raises(DataError) as error:
        expand_round_globs(Path("s.yaml"), sweep, now=NOW, root=tmp_path)
    assert str(error.value).startswith("s.yaml: field 'tasks.0.args.round': 'rounds/*' is a glob")
    assert "'round:' key" in str(error.value)


def test_a_round_whose_every_paired_item_is_labelled_is_not_judged_again(tmp_path: Path) -> None:
    done = _round(tmp_path, "2027-w08", "2027-03-05T00:00:00+00:00")
    waiting = _round(tmp_path, "2027-w09", "2027-03-12T00:00:00+00:00")
    for folder, pending in ((done, 0), (waiting, 3)):
        manifest = json.loads((folder / "round.json").read_text())
        version = {"version": "2027-02-01", "file": "labels/2027-02-01.csv"}
        manifest["label_versions"] = [{**version, "pending_items": pending}]
        (folder / "round.json").write_text(json.dumps(manifest))
    out = expand_round_globs(Path("s.yaml"), _sweep("rounds/*"), now=NOW, root=tmp_path)
    assert [entry.get("args", {}).get("round") for entry in out["tasks"]] == [str(waiting), None]
    with pytest.raises(DataError, match=r"1 with every paired item labelled"):
        expand_round_globs(Path("s.yaml"), _sweep("rounds/*w08"), now=NOW, root=tmp_path)
