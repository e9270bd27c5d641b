"""Idea-pair baselines for the offline ``baseline/<name>`` provider.

None of them forecasts anything; they show what the metrics say about known behaviour:

- ``baseline/first`` always answers Idea A: never consistent, so 0% consistency-aware accuracy
  (and 50% single-order accuracy) -- the position bias the metric is built to expose.
- ``baseline/longer`` picks the idea with the longer description (ties: A): a length prior.
- ``baseline/newer`` picks the idea published later (ties: A): the recency prior of appendix
  B.7.5. Years are not in the prompt, so it reads them from the running sample's store
  (``solvers.YEARS_STORE_KEY``, written by ``judge_both_orders``) --
  a deliberate peek that only an offline baseline may take.

Each states a confidence of 0.5 (no knowledge), so their calibration figures are a floor.
"""

from __future__ import annotations

import re

from inspect_ai.model import ChatMessage
from inspect_ai.util import store

from research_taste_evals.core.baselines import register_baseline
from research_taste_evals.ideapairs.solvers import YEARS_STORE_KEY

_IDEAS = re.compile(r"\nIdea A:\n(.*?)\n\nIdea B:\n(.*?)\n\nReason about", re.DOTALL)
NOT_A_FORECAST = "I can only answer idea-pair forecasting prompts."
NO_KNOWLEDGE = 0.5


def idea_texts(messages: list[ChatMessage]) -> tuple[str, str] | None:
    """The two idea descriptions of an idea-pair prompt, or None."""
    match = _IDEAS.search(messages[-1].text) if messages else None
    return (match.group(1), match.group(2)) if match else None


def answer(letter: str) -> str:
    return f"Answer: {letter}\nConfidence: {NO_KNOWLEDGE}"


@register_baseline(
    "first", "Idea pairs: always answers Idea A (position bias; 0% consistency-aware)"
)
def always_first(messages: list[ChatMessage]) -> str:
    return answer("A") if idea_texts(messages) else NOT_A_FORECAST


@register_baseline(
    "longer", "Idea pairs: picks the idea with the longer description (length prior)"
)
def longer_idea(messages: list[ChatMessage]) -> str:
    texts = idea_texts(messages)
    if texts is None:
        return NOT_A_FORECAST
    first, second = (len(text.split()) for text in texts)
    return answer("B" if second > first else "A")


def _year_of(text: str) -> int | None:
    years: dict[str, int] = store().get(YEARS_STORE_KEY) or {}
    return years.get(text)


@register_baseline(
    "newer", "Idea pairs: picks the idea published later (recency prior; reads years)"
)
def newer_idea(messages: list[ChatMessage]) -> str:
    texts = idea_texts(messages)
    if texts is None:
        return NOT_A_FORECAST
    first, second = (_year_of(text) for text in texts)
    if first is None or second is None:
        return NOT_A_FORECAST
    return answer("B" if second > first else "A")
