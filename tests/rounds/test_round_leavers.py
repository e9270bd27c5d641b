"""Issue 51, item 4: items that leave a round after open. One withdrawn after its reviews keeps
its label; one that leaves with no label is dropped with its reason and count (not pending), and
a round whose other items all have labels is resolved."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest
from fake_openreview import serving
from fake_openreview_clock import clocked_venue
from fake_tmlr import VENUE as TMLR
from fake_tmlr import TmlrPaper, TmlrReview, fake_tmlr
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from log_metrics import metrics_of
from openreview_round import (
    JUDGE_DAYS,
    T0,
    T1,
    T2,
    first_posted_label,
    hand_count,
    papers,
    quality_judge,
)
from round_pooling import pooled
from tmlr_round import AT_T3, T3
from tmlr_round import papers as tmlr_papers

from research_taste.reporting.rounds import round_rows
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow


def _rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return {row["item_id"]: row for row in csv.DictReader(handle)}


def _pairs(folder: Path) -> list[tuple[str, str]]:
    with (folder / "pairs.csv").open(encoding="utf-8") as handle:
        return [(row["item_1"], row["item_2"]) for row in csv.DictReader(handle)]


def test_conference_leavers_keep_their_label_or_are_dropped(tmp_path: Path) -> None:
    now = [T0]
    venue = clocked_venue(lambda: now[0])
    venue.papers = papers()
    kept, gone = venue.papers[3], venue.papers[5]  # p4 and p6
    kept.withdrawn_at = T1 + dt.timedelta(days=2)  # after its reviews
    gone.withdrawn_at = T0 + dt.timedelta(days=1)  # before any review
    gone.reviews = []
    folder, logs = tmp_path / "rounds" / "leavers", tmp_path / "logs"
    with serving(venue):
        open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        [judgment] = inspect_eval(
            tastybench_round(round=str(folder)), model=quality_judge(), log_dir=str(logs)
        )
        now[0] = T2
        entry = resolve_openreview(folder, now=lambda: now[0])
    rows = _rows(folder / entry["file"])
    assert float(rows["p4"]["label"]) == first_posted_label("p4")  # withdrawn after review
    assert (rows["p4"]["status"], rows["p4"]["dropped"]) == ("withdrawn", "")
    assert (rows["p6"]["label"], rows["p6"]["dropped"]) == ("", "withdrawn")
    assert entry["dropped"] == {"withdrawn": 1} and entry["resolved"] is True

    [scored] = score_round(folder, logs)
    values = metrics_of(read_eval_log(scored.scored))
    assert values["pending_items"] == 0 and values["dropped_items"] == 1
    pairs = [pair for pair in _pairs(folder) if gone.paper_id not in pair]
    labels = {i: first_posted_label(i) for pair in pairs for i in pair}
    assert values["pairwise_accuracy"] == pytest.approx(hand_count(pairs, labels))
    assert judgment.eval.model in pooled(round_rows(str(logs)))  # a resolved round is pooled


def test_journal_submission_withdrawn_before_its_decision_is_dropped(tmp_path: Path) -> None:
    now = [T0]
    withdrawn = TmlrPaper(
        "q9",
        11,
        "Withdrawn after review",
        "Withdrawn before its decision. Its quality 5 is stated here.",
        dt.datetime(2025, 9, 20, tzinfo=dt.UTC),
        reviews=[TmlrReview(f"q9-r{k}", T1 - dt.timedelta(hours=k)) for k in range(3)],
        released=T1,
        withdrawn=T1 + dt.timedelta(days=5),
    )
    journal = fake_tmlr(lambda: now[0], [*tmlr_papers(), withdrawn])
    folder = tmp_path / "tmlr"
    with serving(journal):
        manifest = open_openreview(
            TMLR, folder, base_url=journal.base_url, now=lambda: T0, pdfs=False
        )
        assert manifest["items"] == 9
        now[0] = T3 + dt.timedelta(days=1)
        entry = resolve_openreview(folder, now=lambda: now[0])
    rows = _rows(folder / entry["file"])
    assert (rows["q9"]["label"], rows["q9"]["dropped"], rows["q9"]["status"]) == (
        "",
        "withdrawn",
        "withdrawn",
    )
    assert {i: float(r["label"]) for i, r in rows.items() if r["label"]} == AT_T3
    assert entry["dropped"] == {"withdrawn": 1} and entry["resolved"] is True
    # over the paired items (core.rounds.ItemCounts): q9 is in no pair
    assert (entry["labelled_share"], entry["paired_items"], entry["pending_items"]) == (1.0, 8, 0)
