"""Issue 51, item 1: a TMLR round opened at t0 on the clocked fake journal, judged, resolved at
t2 and t3 and scored; the headline equals the hand count from the decision ordinals."""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
from pathlib import Path

import pytest
from fake_openreview import serving
from fake_tmlr import VENUE, fake_tmlr
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from log_metrics import metrics_of
from openreview_round import quality_judge
from tmlr_round import (
    AT_T2,
    AT_T3,
    JUDGE_DAYS,
    REVIEWED_BEFORE_OPEN,
    T0,
    T1,
    T2,
    T3,
    hand_count,
    papers,
)

from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round, scored_location
from research_taste_evals.core.data import DataError
from research_taste_evals.tastybench.prompts import JUDGE_JOURNAL
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def _pairs(folder: Path) -> list[tuple[str, str]]:
    with (folder / "pairs.csv").open(encoding="utf-8") as handle:
        return [(row["item_1"], row["item_2"]) for row in csv.DictReader(handle)]


def _rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return {row["item_id"]: row for row in csv.DictReader(handle)}


def _judged_at(log: EvalLog, moment: dt.datetime) -> None:
    """Make ``log`` a judgment made at ``moment`` (its model events' times)."""
    for sample in log.samples or []:
        for event in sample.events:
            if event.event == "model":
                event.timestamp = moment
                event.completed = moment
    write_eval_log(log, log.location)


def _scored(folder: Path, logs: Path, judgment: EvalLog) -> dict[str, float]:
    """The judgment scored with the newest labels version (scored once: a second call of
    `round score` on the same version skips what it scored)."""
    score_round(folder, logs)
    version = json.loads((folder / "round.json").read_text())["label_versions"][-1]["version"]
    return metrics_of(read_eval_log(scored_location(judgment.location, version)))


def test_tmlr_round_open_judge_resolve_score(tmp_path: Path) -> None:
    clock = Clock(T0)
    journal = fake_tmlr(clock, papers())
    folder, logs = tmp_path / "rounds" / "tmlr-test", tmp_path / "logs"
    with serving(journal):
        manifest = open_openreview(
            VENUE, folder, base_url=journal.base_url, now=clock, pdfs=False, judge_days=JUDGE_DAYS
        )
        judge_by = T0 + dt.timedelta(days=JUDGE_DAYS)
        assert manifest["judge_by"] == judge_by.isoformat().replace("+00:00", "Z")
        assert manifest["items"] == 8
        assert manifest["counts"]["left_out"] == {"label_exists": 1, "desk_rejected": 1}
        plan = manifest["label_plan"]
        assert (plan["kind"], plan["prompt"], plan["forms"]) == ("decision", "journal", "read")
        assert (plan["review_form"], plan["decision_field"]) == ("Review", "recommendation")
        pairs = _pairs(folder)
        assert len(pairs) == 4

        [judgment] = inspect_eval(
            tastybench_round(round=str(folder)),
            model=quality_judge(),
            log_dir=str(logs),
            display="none",
        )
        # a judgment after the judging window (and before any review was public)
        [late] = inspect_eval(
            tastybench_round(round=str(folder)),
            model=quality_judge(),
            log_dir=str(logs / "late"),
            display="none",
        )
        _judged_at(late, judge_by + dt.timedelta(hours=1))
        first = (judgment.samples or [])[0].input
        assert isinstance(first, str) and "the journal is more likely to accept" in first
        assert JUDGE_JOURNAL.split("{project_1}")[0] in first

        clock.now = T1 + dt.timedelta(days=1)  # reviews public, no decision yet
        reviewed = resolve_openreview(folder, now=clock)
        assert reviewed["labelled_share"] == 0.0
        rows = _rows(folder / reviewed["file"])
        # written before open, released at t1: the label time is the release
        assert rows[REVIEWED_BEFORE_OPEN]["label_time"] == "2100-01-10T12:00:00Z"
        assert rows["q1"]["audience"] == "Yes No No" and rows["q1"]["status"] == "reviewed"

        clock.now = T2 + dt.timedelta(days=1)
        at_t2 = resolve_openreview(folder, now=clock)
        t2_file = folder / at_t2["file"]
        rows = _rows(t2_file)
        assert {i: float(r["label"]) for i, r in rows.items() if r["label"]} == AT_T2
        assert rows["q1"]["certifications"] == "Featured Certification"
        assert rows["q8"]["status"] == "reviewed" and rows["q8"]["label"] == ""
        values = _scored(folder, logs, judgment)
        expected, counted, ties = hand_count(pairs, AT_T2)
        assert values["pairwise_accuracy"] == pytest.approx(expected)
        assert (values["pairs"], values["tied_pairs"]) == (counted, ties)
        assert values["prospective_share"] == 1.0  # judged before the reviews were public
        assert values["pending_items"] == 1
        late_values = _scored(folder, logs, late)
        assert late_values["prospective_share"] == 0.0
        assert math.isnan(late_values["pairwise_accuracy"])
        assert late_values["pairwise_accuracy_after_label"] == pytest.approx(expected)
        before = t2_file.read_bytes()

        clock.now = T3 + dt.timedelta(days=1)
        at_t3 = resolve_openreview(folder, now=clock)
        rows = _rows(folder / at_t3["file"])
        assert {i: float(r["label"]) for i, r in rows.items()} == AT_T3
        assert rows["q7"]["certifications"] == "Outstanding Certification"  # added later
        assert t2_file.read_bytes() == before
        values = _scored(folder, logs, judgment)
        expected, counted, ties = hand_count(pairs, AT_T3)
        assert values["pairwise_accuracy"] == pytest.approx(expected)
        assert (values["pairs"], values["tied_pairs"]) == (counted, ties)
        assert values["pending_items"] == 0 and at_t3["horizon_reached_share"] == 1.0


def test_forms_without_rating_or_decision_are_refused(tmp_path: Path) -> None:
    journal = fake_tmlr(lambda: T0, papers())
    journal.forms = {"Review": ("summary_of_contributions", "requested_changes")}
    with serving(journal), pytest.raises(DataError) as refused:
        open_openreview(VENUE, tmp_path / "r", base_url=journal.base_url, now=lambda: T0)
    message = str(refused.value)
    assert "TMLR/-/Review: requested_changes, summary_of_contributions" in message
    assert "neither a numeric rating" in message and "\n" not in message
    assert not (tmp_path / "r" / "round.json").exists()


def test_unreadable_forms_give_the_journal_plan_by_its_venue_ids(tmp_path: Path) -> None:
    journal = fake_tmlr(lambda: T0, papers())
    journal.forms_public = False  # openreview-py's readers: the venue alone
    with serving(journal):
        manifest = open_openreview(
            VENUE, tmp_path / "r", base_url=journal.base_url, now=lambda: T0, pdfs=False
        )
    assert manifest["label_plan"]["kind"] == "decision"
    assert manifest["label_plan"]["forms"].startswith("not readable")
    assert manifest["judge_by"] == "2025-10-08T12:00:00Z"  # seven days from open by default
