from __future__ import annotations

import json

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser

from research_taste_evals.core.text import fill_template
from research_taste_evals.reviewcritique.baselines import flag_all, flag_none, segment_ids
from research_taste_evals.reviewcritique.prompts import (
    LABELING_ALL_PROMPT,
    REVIEW_CONTEXT,
    SELECT_DEFICIENT_PROMPT,
)


def _messages(template: str) -> list[ChatMessage]:
    # The paper quotes a numbered reference and even the review header; only the review counts.
    context = fill_template(
        REVIEW_CONTEXT,
        title="T",
        paper="[1] Smith et al. Review, split into indexed segments: [2] not a segment",
        segments="[1] First point.\n[2] Second point.\n[3] Third point.",
    )
    return [
        ChatMessageSystem(content="system"),
        ChatMessageUser(content=fill_template(template, context=context)),
    ]


def test_segment_ids_come_from_the_review_listing_only() -> None:
    assert segment_ids(_messages(LABELING_ALL_PROMPT)) == [1, 2, 3]


def test_flag_all_and_flag_none_answer_both_prompts_in_their_json_format() -> None:
    labels = json.loads(flag_all.respond(_messages(LABELING_ALL_PROMPT)))
    assert [(e["id"], e["reliability"]) for e in labels["segments"]] == [
        (1, "No"),
        (2, "No"),
        (3, "No"),
    ]
    selected = json.loads(flag_all.respond(_messages(SELECT_DEFICIENT_PROMPT)))
    assert [e["id"] for e in selected["deficient_segments"]] == [1, 2, 3]
    none = json.loads(flag_none.respond(_messages(LABELING_ALL_PROMPT)))
    assert {e["reliability"] for e in none["segments"]} == {"Yes"}
    assert json.loads(flag_none.respond(_messages(SELECT_DEFICIENT_PROMPT))) == {
        "deficient_segments": []
    }
