"""Idea-pair baselines for the offline ``baseline/<name>`` provider.

None of them forecasts anything; they show what the metrics say about known behaviour:

- ``baseline/first`` always answers Idea A: never consistent, so 0% consistency-aware accuracy
  (and 50% single-order accuracy) -- the position bias the metric is built to expose.
- ``baseline/longer`` picks the idea with the longer description (ties: A): a length prior.
- ``baseline/newer`` picks the idea published later (ties: A): the recency prior of appendix
  B.7.5. Years are not in the prompt, so it reads them from the running sample's store
  (``solvers.FACTS_STORE_KEY``, written by ``judge_both_orders``) --
  a deliberate peek that only an offline baseline may take.

- ``baseline/idea-oracle`` picks the idea with the higher unified score, read from the sample's
  store like the years (a ceiling: 100% accuracy; in ``mode=ranking`` Top-1 1.0 and rank RMSE 0).

Each answers in the prompt's format: the 0/1 label (``prompt=paper``), or "Answer:" with a
confidence of 0.5 (no knowledge) under ``prompt=reasoning``, so calibration figures are a floor.
"""

from __future__ import annotations

import re

from inspect_ai.model import ChatMessage
from inspect_ai.util import store

from research_taste_evals.core.baselines import register_baseline
from research_taste_evals.ideapairs.solvers import FACTS_STORE_KEY

_IDEAS = re.compile(
    r"\nIdea A:\n(.*?)\n\nIdea B:\n(.*?)\n\n(?:Reason about|Answer with the label)", re.DOTALL
)
_PAPER_PROMPT = "Answer with the label only"
NOT_A_FORECAST = "I can only answer idea-pair forecasting prompts."
NO_KNOWLEDGE = 0.5


def idea_texts(messages: list[ChatMessage]) -> tuple[str, str] | None:
    """The two idea descriptions of an idea-pair prompt, or None."""
    match = _IDEAS.search(messages[-1].text) if messages else None
    return (match.group(1), match.group(2)) if match else None


def _reply(letter: str, messages: list[ChatMessage]) -> str:
    """The answer in the asked prompt's format: a 0/1 label, or "Answer:" and a confidence."""
    if _PAPER_PROMPT in messages[-1].text:
        return "0" if letter == "A" else "1"
    return f"Answer: {letter}\nConfidence: {NO_KNOWLEDGE}"


@register_baseline(
    "first", "Idea pairs: always answers Idea A (position bias; 0% consistency-aware)"
)
def always_first(messages: list[ChatMessage]) -> str:
    return _reply("A", messages) if idea_texts(messages) else NOT_A_FORECAST


@register_baseline(
    "longer", "Idea pairs: picks the idea with the longer description (length prior)"
)
def longer_idea(messages: list[ChatMessage]) -> str:
    texts = idea_texts(messages)
    if texts is None:
        return NOT_A_FORECAST
    first, second = (len(text.split()) for text in texts)
    return _reply("B" if second > first else "A", messages)


def _fact_of(text: str, fact: str) -> float | None:
    facts: dict[str, dict[str, float]] = store().get(FACTS_STORE_KEY) or {}
    return facts.get(text, {}).get(fact)


@register_baseline(
    "newer", "Idea pairs: picks the idea published later (recency prior; reads years)"
)
def newer_idea(messages: list[ChatMessage]) -> str:
    texts = idea_texts(messages)
    if texts is None:
        return NOT_A_FORECAST
    first, second = (_fact_of(text, "year") for text in texts)
    if first is None or second is None:
        return NOT_A_FORECAST
    return _reply("B" if second > first else "A", messages)


@register_baseline(
    "idea-oracle", "Idea pairs: picks the idea with the higher unified score (reads it; ceiling)"
)
def idea_oracle(messages: list[ChatMessage]) -> str:
    texts = idea_texts(messages)
    if texts is None:
        return NOT_A_FORECAST
    first, second = (_fact_of(text, "unified_score") for text in texts)
    if first is None or second is None:
        return NOT_A_FORECAST
    return _reply("B" if second > first else "A", messages)
