"""Issue "Rounds", done-when: PaperWeakness on an open round, scored after resolve, equals
scoring the same answers with the references given up front."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import pytest
from fake_openreview import serving
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage
from log_metrics import metrics_of
from mock_models import scripted_model
from openreview_round import JUDGE_DAYS, T0, T1, venue_with_pdfs

from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.aaar.paper_weakness_round import paper_weakness_round
from research_taste_evals.core.embeddings import OFFLINE_MODEL

pytestmark = pytest.mark.slow

WEAKNESSES = {
    "p1": "- The evaluation uses one small benchmark.\n- No ablation of the reward model.",
    "p2": "1. The baselines are outdated.\n2. The proofs skip a step.",
}


def _answer(messages: list[ChatMessage]) -> str:
    return "1. The evaluation is limited to one benchmark.\n2. Baselines are missing."


def _run(data: str, log_dir: Path, on_a_round: bool = False) -> dict[str, float]:
    task = (
        paper_weakness_round(round=data, embedding_model=OFFLINE_MODEL, itf_idf_model=OFFLINE_MODEL)
        if on_a_round
        else paper_weakness(
            data_path=data, embedding_model=OFFLINE_MODEL, itf_idf_model=OFFLINE_MODEL
        )
    )
    [log] = inspect_eval(task, model=scripted_model(_answer), log_dir=str(log_dir), display="none")
    return metrics_of(log)


def _judging_notes(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("round pw:")]


def test_weakness_round_scored_after_resolve_equals_references_up_front(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    now = [T0]
    venue = venue_with_pdfs(lambda: now[0])
    for paper in venue.papers:
        for review in paper.reviews:
            review.weaknesses = WEAKNESSES.get(paper.paper_id, "- The writing is unclear.")
    folder, logs = tmp_path / "rounds" / "pw", tmp_path / "logs"
    with serving(venue):
        manifest = open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        assert manifest["weakness_items"] == 8
        with caplog.at_level("WARNING"):
            judged = _run(str(folder), logs, on_a_round=True)
        assert judged["pending_items"] == 8 and math.isnan(judged["s_f1"])
        # the judging warning counts the papers as the scorer's pending_items does
        assert "no labels yet, 8 of its 8 papers pending" in _judging_notes(caplog)[-1]
        now[0] = T1 + dt.timedelta(days=1)
        entry = resolve_openreview(folder, now=lambda: now[0])
    caplog.clear()
    with caplog.at_level("WARNING"):
        paper_weakness_round(
            round=str(folder), embedding_model=OFFLINE_MODEL, itf_idf_model=OFFLINE_MODEL
        )
    (note,) = _judging_notes(caplog)
    assert f"labels version {entry['version']}: labelled share 1 (8 of 8 papers), 0 pending" in note
    assert "not prospective" in note and "no labels yet" not in note
    [scored] = score_round(folder, logs)
    after = metrics_of(read_eval_log(str(scored.scored)))
    assert after["pending_items"] == 0 and after["prospective_share"] == 1.0

    references = json.loads((folder / "labels" / f"{entry['version']}.weaknesses.json").read_text())
    upfront = tmp_path / "upfront"
    for line in (folder / "weakness_items.jsonl").read_text().splitlines():
        record = json.loads(line)
        record["output"] = references[record["ID"]]
        (upfront / record["ID"]).mkdir(parents=True)
        (upfront / record["ID"] / "data_text.json").write_text(json.dumps(record))
    given = _run(str(upfront), tmp_path / "upfront-logs")
    for key in ("s_f1", "s_precision", "s_recall"):
        assert after[key] == pytest.approx(given[key], abs=1e-6)
