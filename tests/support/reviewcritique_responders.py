"""Scripted ReviewCritique answers for the tests: read the review from the prompt, answer gold."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from inspect_ai.model import ChatMessage, ChatMessageUser

from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.reviewcritique.prompts import REVIEW_HEADER
from research_taste_evals.reviewcritique.reviewcritique import review_critique

Responder = Callable[[list[ChatMessage]], str]


def listing(text: str) -> str:
    return text.partition(REVIEW_HEADER)[2].strip("\n").split("\n\n")[0]


def prompt_of(messages: list[ChatMessage]) -> str:
    return next(m.text for m in reversed(messages) if isinstance(m, ChatMessageUser))


def is_select(messages: list[ChatMessage]) -> bool:
    return '"deficient_segments"' in prompt_of(messages)


def gold_responder(data_path: Path) -> Responder:
    """Answers both prompts with the gold labels and explanations of the review asked about."""
    task = review_critique(data_path=str(data_path), bertscore_model=OFFLINE_MODEL)
    gold = {listing(str(s.input)): (s.metadata or {})["segments"] for s in task.dataset}

    def respond(messages: list[ChatMessage]) -> str:
        segments = gold[listing(prompt_of(messages))]
        if is_select(messages):
            chosen = [s for s in segments if s["deficient"]]
            return json.dumps(
                {
                    "deficient_segments": [
                        {"id": s["id"], "explanation": s["explanation"]} for s in chosen
                    ]
                }
            )
        return json.dumps(
            {
                "segments": [
                    {
                        "id": s["id"],
                        "reliability": "No" if s["deficient"] else "Yes",
                        "explanation": s["explanation"] or "",
                    }
                    for s in segments
                ]
            }
        )

    return respond
