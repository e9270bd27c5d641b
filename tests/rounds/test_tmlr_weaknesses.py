"""Issue 59, item 5: PaperWeakness on a TMLR round. TMLR's review form has no weaknesses field;
the references are read from ``strengths_and_weaknesses`` (from its weaknesses header on) and
``requested_changes`` (rounds/journal.py), so a round judged before the reviews is scored once
they are public: never pending with nothing to wait for."""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from fake_openreview import make_pdf, serving
from fake_tmlr import VENUE, fake_tmlr
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage
from log_metrics import metrics_of
from mock_models import scripted_model
from tmlr_round import JUDGE_DAYS, T0, T2, papers

from research_taste.rounds.journal import review_weaknesses
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.aaar.paper_weakness_round import paper_weakness_round
from research_taste_evals.core.embeddings import OFFLINE_MODEL

BOTH = "Strengths:\n- The writing is clear.\n\nWeaknesses:\n- The evaluation is small."
REQUESTED = "1. Add a second benchmark."


def _form(both: str, requested: str) -> dict[str, dict[str, str]]:
    return {
        "strengths_and_weaknesses": {"value": both},
        "requested_changes": {"value": requested},
    }


@pytest.mark.parametrize(
    ("both", "requested", "expected"),
    [
        (BOTH, REQUESTED, ["The evaluation is small.", "Add a second benchmark."]),
        ("- The evaluation is small.", "None.", ["The evaluation is small."]),
        (
            "**Strengths** Clear. **Weaknesses**: the proofs are loose.",
            "N/A",
            ["the proofs are loose."],
        ),
        (
            "Clear. Weaknesses: the proofs are loose.",
            "No changes requested.",
            ["the proofs are loose."],
        ),
        # no weaknesses header: the strengths cannot be told apart, so the field is kept whole
        ("The paper is clear but small.", "", ["The paper is clear but small."]),
    ],
)
def test_a_tmlr_review_s_weaknesses_come_from_its_two_fields(
    both: str, requested: str, expected: list[str]
) -> None:
    assert review_weaknesses(_form(both, requested)) == expected


def test_a_conference_form_is_read_as_before() -> None:
    assert review_weaknesses({"weaknesses": {"value": "- a\n- b"}}) == ["a", "b"]


def _answer(messages: list[ChatMessage]) -> str:
    return "1. The evaluation is limited to one benchmark.\n2. A second benchmark is needed."


@pytest.mark.slow
def test_paper_weakness_on_a_tmlr_round_is_scored_once_reviews_are_public(tmp_path: Path) -> None:
    now = [T0]
    journal_papers = papers()
    for paper in journal_papers:
        paper.reviews = [
            replace(r, weaknesses=BOTH, requested_changes=REQUESTED) for r in paper.reviews
        ]
    journal = fake_tmlr(lambda: now[0], journal_papers)
    journal.pdfs = {p.paper_id: make_pdf([p.title, p.abstract]) for p in journal_papers}
    folder, logs = tmp_path / "rounds" / "tmlr-pw", tmp_path / "logs"
    with serving(journal):
        manifest = open_openreview(
            VENUE, folder, base_url=journal.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        assert manifest["weakness_items"] == 8
        task = paper_weakness_round(
            round=str(folder), embedding_model=OFFLINE_MODEL, itf_idf_model=OFFLINE_MODEL
        )
        [judged] = inspect_eval(
            task, model=scripted_model(_answer), log_dir=str(logs), display="none"
        )
        assert metrics_of(judged)["pending_items"] == 8
        now[0] = T2 + dt.timedelta(hours=1)  # every review public, seven decisions
        entry = resolve_openreview(folder, now=lambda: now[0])
    references = json.loads((folder / "labels" / f"{entry['version']}.weaknesses.json").read_text())
    assert len(references) == 8
    for lists in references.values():
        assert lists == [["The evaluation is small.", "Add a second benchmark."]] * 3
    [scored] = score_round(folder, logs)
    after = metrics_of(read_eval_log(str(scored.scored)))
    assert after["pending_items"] == 0 and after["prospective_share"] == 1.0
    assert math.isfinite(after["s_f1"]) and after["s_f1"] > 0
