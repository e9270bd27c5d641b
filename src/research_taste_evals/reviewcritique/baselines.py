"""Offline ReviewCritique baselines: flag every segment deficient, or none.

They answer both prompts in the JSON format the task asks for, reading the segment ids from the
prompt, so the task runs end to end with no API key. ``flag-all`` has recall 1 and precision
equal to the share of deficient segments (the base rate every model must beat); ``flag-none``
has recall 0 and undefined precision.
"""

from __future__ import annotations

import json
import re

from inspect_ai.model import ChatMessage, ChatMessageUser

from research_taste_evals.core.baselines import register_baseline
from research_taste_evals.reviewcritique.prompts import REVIEW_HEADER

_SEGMENT_ID = re.compile(r"^\[(\d+)\] ")
BASELINE_EXPLANATION = "Flagged by the flag-all baseline, which marks every segment deficient."
SELECT_DEFICIENT_KEY = "deficient_segments"


def segment_ids(messages: list[ChatMessage]) -> list[int]:
    """The segment ids listed after the review header of the last user message."""
    prompt = next((m.text for m in reversed(messages) if isinstance(m, ChatMessageUser)), "")
    # The last header: the paper text comes before the review and could quote the phrase.
    _, _, listing = prompt.rpartition(REVIEW_HEADER)
    ids = []
    for line in listing.strip("\n").splitlines():
        match = _SEGMENT_ID.match(line)
        if not match:
            break  # the segment list ends where the instructions begin
        ids.append(int(match.group(1)))
    return ids


def _asks_select_deficient(messages: list[ChatMessage]) -> bool:
    return any(f'"{SELECT_DEFICIENT_KEY}"' in m.text for m in messages if m.role == "user")


def answer(messages: list[ChatMessage], deficient: bool) -> str:
    """The JSON answer of a constant baseline to either prompt."""
    ids = segment_ids(messages)
    if _asks_select_deficient(messages):
        entries = [{"id": i, "explanation": BASELINE_EXPLANATION} for i in ids] if deficient else []
        return json.dumps({SELECT_DEFICIENT_KEY: entries})
    label = "No" if deficient else "Yes"
    explanation = BASELINE_EXPLANATION if deficient else ""
    return json.dumps(
        {"segments": [{"id": i, "reliability": label, "explanation": explanation} for i in ids]}
    )


@register_baseline("flag-all", "ReviewCritique: every review segment is deficient")
def flag_all(messages: list[ChatMessage]) -> str:
    return answer(messages, deficient=True)


@register_baseline("flag-none", "ReviewCritique: no review segment is deficient")
def flag_none(messages: list[ChatMessage]) -> str:
    return answer(messages, deficient=False)
