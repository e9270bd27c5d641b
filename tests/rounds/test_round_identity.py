"""Issue 52, item 2: a round has an identity. Two rounds opened on the same venue with the same
items (so the same sha256) are told apart by ``round_id``: scoring one leaves the other's
scored logs byte for byte; a second ``round score`` skips what it scored, saying so; a
judgment logged before rounds had an id (by ``tastybench -T data_path=<round>``) is still
scored, matched by the items' sha256, and the command says so."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from research_taste.rounds.manifest import write_round
from research_taste.rounds.score import score_round
from research_taste_evals.core.data import sha256_of
from research_taste_evals.core.rounds import ROUND_FILE, RoundItem
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow  # whole (small) task runs
OPENED = dt.datetime(2025, 10, 1, tzinfo=dt.UTC)


def _open(folder: Path) -> str:
    items = [RoundItem(f"x{i}", "t", f"2025-09-0{i + 1}", f"Abstract {i}.", "") for i in range(4)]
    write_round(
        folder,
        items,
        opened_at=OPENED,
        source="openreview",
        query={"venue": "V"},
        label_plan={"prompt": "reviews"},
        counts={},
    )
    return str(json.loads((folder / ROUND_FILE).read_text())["round_id"])


def _resolve(folder: Path, version: str = "2025-12-01") -> None:
    """A labels version written by hand (as `round resolve` writes it): every item labelled."""
    labels = folder / "labels" / f"{version}.csv"
    labels.parent.mkdir(exist_ok=True)
    rows = "".join(f"x{i},{i},2025-11-01T00:00:00Z,\n" for i in range(4))
    labels.write_text("item_id,label,label_time,dropped\n" + rows, encoding="utf-8")
    manifest = json.loads((folder / ROUND_FILE).read_text())
    manifest["label_versions"].append(
        {"version": version, "file": f"labels/{version}.csv", "labels_sha256": sha256_of(labels)}
    )
    (folder / ROUND_FILE).write_text(json.dumps(manifest), encoding="utf-8")


def _judge(folder: Path, logs: Path) -> EvalLog:
    task = tastybench_round(round=str(folder))
    [log] = inspect_eval(task, model="baseline/random", log_dir=str(logs), display="none")
    return log


def test_two_rounds_with_the_same_items_are_scored_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, logs = tmp_path / "a", tmp_path / "b", tmp_path / "logs"
    ids = _open(first), _open(second)
    assert ids[0] != ids[1]
    assert (first / "items.csv").read_bytes() == (second / "items.csv").read_bytes()
    judged = [_judge(first, logs), _judge(second, logs)]
    assert [log.eval.metadata["round"]["round_id"] for log in judged] == list(ids)
    for folder in (first, second):
        _resolve(folder)
    [b_scored] = score_round(second, logs)
    assert b_scored.judgment == judged[1].location
    b_bytes = Path(b_scored.scored).read_bytes()
    [a_scored] = score_round(first, logs)
    assert a_scored.judgment == judged[0].location
    assert Path(b_scored.scored).read_bytes() == b_bytes  # the other round's log untouched
    assert read_eval_log(a_scored.scored).eval.metadata["round"]["round_id"] == ids[0]

    capsys.readouterr()
    a_bytes = Path(a_scored.scored).read_bytes()
    assert score_round(first, logs) == []  # already scored with this labels version
    said = capsys.readouterr().out.splitlines()
    assert said == [
        f"{judged[0].location}: already scored with labels version 2025-12-01 "
        f"({a_scored.scored}); skipped"
    ]
    assert Path(a_scored.scored).read_bytes() == a_bytes


def test_a_judgment_made_before_round_ids_is_matched_by_sha256_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, logs = tmp_path / "r", tmp_path / "logs"
    _open(folder)
    log = _judge(folder, logs)
    # as `tastybench -T data_path=<round>` logged it before the round task and ids existed
    log.eval.task = "research_taste_evals/tastybench"
    assert log.eval.metadata is not None
    del log.eval.metadata["round"]["round_id"]
    write_eval_log(log, log.location)
    _resolve(folder)
    capsys.readouterr()
    [scored] = score_round(folder, logs)
    assert scored.task == "tastybench" and scored.judgment == log.location
    out = capsys.readouterr().out
    assert "1 judgment log(s) have no round id" in out and "matched by the items' sha256" in out
    values = read_eval_log(scored.scored).results
    assert values is not None and values.scores[0].metrics["pending_items"].value == 0
