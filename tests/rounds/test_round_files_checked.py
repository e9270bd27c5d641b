"""Issue 61: every file a round's figures depend on is checked by every reader, and the round's
own fields and resolves refuse what cannot be right, in one sentence.

A labels version whose ``labels_sha256`` was deleted is refused (its file could have been edited
since resolve), by ``round score`` and by the scorer alike; a resolve that finds none of the
round's items, or a label plan of an unknown kind (or ratings for a journal), records nothing;
``judge_by`` at (or before) ``opened_at`` is refused; judging a round whose window closed warns
on stderr under ``--display none`` and in the log, and none of its decisions is prospective."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import pytest
from arxiv_round_fakes import OPENED, arxiv_listing
from fake_openreview import serving
from fake_openreview_clock import clocked_venue
from inspect_ai import eval as inspect_eval
from openreview_round import JUDGE_DAYS, T0, T1, papers, quality_judge

from research_taste.rounds.arxiv import open_arxiv
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import labels_file
from research_taste_evals.core.data import DataError
from research_taste_evals.core.rounds import ROUND_FILE, read_labels, read_manifest
from research_taste_evals.tastybench.tastybench import tastybench_round


def _edit(folder: Path, edit: object) -> None:
    manifest = json.loads((folder / ROUND_FILE).read_text())
    edit(manifest)  # type: ignore[operator]
    (folder / ROUND_FILE).write_text(json.dumps(manifest))


def _venue_round(folder: Path, resolve: bool) -> Path:
    now = [T0]
    venue = clocked_venue(lambda: now[0])
    venue.papers = papers()
    with serving(venue):
        open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        if resolve:
            now[0] = T1 + dt.timedelta(days=1)
            resolve_openreview(folder, now=lambda: now[0])
    return folder


def test_a_labels_version_without_its_sha256_is_refused_by_every_reader(tmp_path: Path) -> None:
    folder = _venue_round(tmp_path / "r", resolve=True)
    [entry] = read_manifest(folder)["label_versions"]
    path = folder / entry["file"]
    assert read_labels(path).version == entry["version"]  # as resolve wrote it: read
    text = path.read_text()
    path.write_text(text.replace(",6.0,", ",1.0,", 1) if ",6.0," in text else text + "\n")
    _edit(folder, lambda m: m["label_versions"][0].pop("labels_sha256"))
    for read in (lambda: labels_file(folder, None), lambda: read_labels(path)):
        with pytest.raises(DataError) as raised:
            read()
        message = str(raised.value)
        assert path.name in message
        assert "has no 'labels_sha256'" in message and "resolve again" in message
        assert len(message.splitlines()) == 1


def test_a_resolve_that_finds_none_of_the_items_records_nothing(tmp_path: Path) -> None:
    folder = _venue_round(tmp_path / "r", resolve=False)
    elsewhere = clocked_venue(lambda: T1 + dt.timedelta(days=1))  # lists none of them
    with serving(elsewhere), pytest.raises(DataError) as raised:
        resolve_openreview(
            folder, base_url=elsewhere.base_url, now=lambda: T1 + dt.timedelta(days=1)
        )
    message = str(raised.value)
    assert "found none of the round's" in message and "no labels version recorded" in message
    assert len(message.splitlines()) == 1
    assert read_manifest(folder)["label_versions"] == []
    assert not (folder / "labels").exists() or not list((folder / "labels").iterdir())


@pytest.mark.parametrize(
    ("plan", "named"),
    [
        ({"kind": "banana"}, "field 'label_plan.kind' must be one of rating, decision"),
        ({"kind": "rating", "venue": "TMLR"}, "is 'rating', but 'TMLR' is a journal"),
    ],
)
def test_a_label_plan_resolve_cannot_follow_is_refused_before_any_request(
    tmp_path: Path, plan: dict[str, str], named: str
) -> None:
    folder = _venue_round(tmp_path / "r", resolve=False)

    def edit(manifest: dict[str, object]) -> None:
        manifest["label_plan"]["kind"] = plan["kind"]  # type: ignore[index]
        if "venue" in plan:
            manifest["query"]["venue"] = plan["venue"]  # type: ignore[index]

    _edit(folder, edit)
    with pytest.raises(DataError) as raised:  # no venue served: a request would fail otherwise
        resolve_openreview(folder, base_url="http://127.0.0.1:9", now=lambda: T1)
    assert named in str(raised.value) and str(folder.resolve() / ROUND_FILE) in str(raised.value)
    assert read_manifest(folder)["label_versions"] == []


def _arxiv_round(folder: Path) -> Path:
    with arxiv_listing() as base:
        open_arxiv("cs.LG", 7, folder, window_months=3, base_url=base, now=lambda: OPENED)
    return folder


def test_an_empty_judging_window_is_refused(tmp_path: Path) -> None:
    folder = _arxiv_round(tmp_path / "r")
    _edit(folder, lambda m: m.update(judge_by=m["opened_at"]))
    with pytest.raises(DataError, match="field 'judge_by' must be after opened_at"):
        read_manifest(folder)


def test_judging_after_the_window_closed_warns_and_is_not_prospective(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = _arxiv_round(tmp_path / "r")
    _edit(
        folder,
        lambda m: m.update(opened_at="2019-12-01T00:00:00Z", judge_by="2020-01-01T00:00:00Z"),
    )
    [log] = inspect_eval(
        tastybench_round(round=str(folder)),
        model=quality_judge(),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert "its judging window closed at 2020-01-01T00:00:00Z" in capfd.readouterr().err
    [warning] = log.eval.metadata["round"]["warnings"]  # type: ignore[index]
    assert "not prospective" in warning
    assert log.results is not None
    share = log.results.scores[0].metrics["prospective_share"].value
    assert share == 0.0 and not math.isnan(share)
