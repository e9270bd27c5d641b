"""Issue "Rounds", done-when: an OpenReview round opened at t0, judged, resolved at t1 and t2,
scored, with a log judged after t1 reported apart."""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
from pathlib import Path

import pytest
from fake_openreview import serving
from fake_openreview_clock import clocked_venue
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
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

from research_taste.reporting.rounds import round_rows, rounds_markdown
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.core.data import DataError
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


def _judge(folder: Path, log_dir: Path, model: object) -> EvalLog:
    [log] = inspect_eval(
        tastybench_round(round=str(folder)), model=model, log_dir=str(log_dir), display="none"
    )
    return log


def _shift_to_after(log: EvalLog, moment: dt.datetime) -> None:
    """Make ``log`` a judgment made at ``moment`` (its model events' times)."""
    for sample in log.samples or []:
        for event in sample.events:
            if event.event == "model":
                event.timestamp = moment
                event.completed = moment
    write_eval_log(log, log.location)


def test_openreview_round_open_judge_resolve_score(tmp_path: Path) -> None:
    clock = Clock(T0)
    venue = clocked_venue(clock)
    venue.papers = papers()
    folder, logs = tmp_path / "rounds" / "iclr-test", tmp_path / "logs"
    with serving(venue):
        manifest = open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=clock, judge_days=JUDGE_DAYS
        )
        assert manifest["items"] == 8
        assert manifest["counts"]["left_out"] == {"label_exists": 1, "withdrawn": 1}
        assert manifest["opened_at"] == "2025-10-01T12:00:00Z"
        assert manifest["label_plan"]["prompt"] == "reviews"
        pairs = _pairs(folder)
        assert len(pairs) == 4 and len({i for p in pairs for i in p}) == 8  # disjoint

        judged = [_judge(folder, logs, m) for m in ("baseline/tastybench-first", "baseline/random")]
        scripted = _judge(folder, logs, quality_judge())
        for log in [*judged, scripted]:
            values = metrics_of(log)
            assert math.isnan(values["pairwise_accuracy"])
            assert values["pending_items"] == 8
            assert len(log.samples or []) == 8  # every pick of both orders is logged
        late = _judge(folder, logs / "late", quality_judge())
        _shift_to_after(late, T1 + dt.timedelta(days=2))

        clock.now = T1 + dt.timedelta(days=1)
        first = resolve_openreview(folder, now=clock)
        assert first["version"] == "2100-01-11" and first["labelled_share"] == 1.0
        scored = {Path(s.judgment): s for s in score_round(folder, logs)}
        assert len(scored) == 4

        labels = {
            paper_id: first_posted_label(paper_id) for paper_id in [f"p{i}" for i in range(1, 9)]
        }
        expected = hand_count(pairs, labels)
        scripted_scored = read_eval_log(str(scored[Path(scripted.location)].scored))
        values = metrics_of(scripted_scored)
        assert values["pairwise_accuracy"] == pytest.approx(expected)
        assert values["prospective_share"] == 1.0 and values["pending_items"] == 0
        assert scripted_scored.eval.model == scripted.eval.model
        assert read_eval_log(scripted.location).results == scripted.results  # unmodified

        late_scored = metrics_of(read_eval_log(str(scored[Path(late.location)].scored)))
        assert late_scored["prospective_share"] == 0.0
        assert math.isnan(late_scored["pairwise_accuracy"])
        assert late_scored["pairwise_accuracy_after_label"] == pytest.approx(expected)

        table = rounds_markdown(str(logs))
        assert "| mockllm/model | iclr-test |" in table
        pooled_figures = pooled(round_rows(str(logs)))
        # the late log's decisions are not prospective: the pooled figure is the scripted one's
        assert pooled_figures["mockllm/model"]["pairwise_accuracy"] == pytest.approx(expected)
        assert pooled_figures["mockllm/model"]["pairs"] == values["pairs"]

        first_file = folder / "labels" / "2100-01-11.csv"
        before = first_file.read_bytes()
        clock.now = T2
        second = resolve_openreview(folder, now=clock)
        third = resolve_openreview(folder, now=clock)
        assert (second["version"], third["version"]) == ("2100-02-01", "2100-02-01.2")
        assert first_file.read_bytes() == before
        with (folder / "labels" / "2100-02-01.csv").open(encoding="utf-8") as handle:
            rows = {row["item_id"]: row for row in csv.DictReader(handle)}
        assert float(rows["p2"]["label"]) == first_posted_label("p2")  # edits public
        assert rows["p2"]["rating_source"] == "first_posted"
        assert float(rows["p5"]["label"]) == (9 + 4) / 2  # edits hidden: as fetched
        assert rows["p5"]["rating_source"] == "as_fetched+first_posted"
        assert rows["p1"]["label_time"] == "2100-01-10T12:00:00Z"
        # PaperWeakness's references: the weaknesses as first posted where the edits are public
        references = json.loads((folder / "labels" / "2100-02-01.weaknesses.json").read_text())
        posted, edited = ["The evaluation is small."], ["The rebuttal answered every point."]
        assert references["p2"] == [posted, posted]
        assert references["p5"] == [edited, posted]  # p5-r0's edits are hidden: as fetched
        assert second["weaknesses"].startswith("as first posted where")


def test_changed_item_file_is_refused(tmp_path: Path) -> None:
    clock = Clock(T0)
    venue = clocked_venue(clock)
    venue.papers = papers()
    folder = tmp_path / "r"
    with serving(venue):
        open_openreview(venue.venue, folder, base_url=venue.base_url, now=clock)
    items = folder / "items.csv"
    items.write_text(items.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="sha256 no longer matches"):
        tastybench_round(round=str(folder))
