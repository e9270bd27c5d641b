"""SciJudgeBench baselines for the offline ``baseline/<name>`` provider.

- ``baseline/scijudge-oracle`` picks the paper with more citations (on the ICLR split: the
  higher review rating), read from the sample's store (``solvers.CITATIONS_KEY``): a ceiling
  (accuracy 1) no real model can reach, since the prompt shows neither;
- ``baseline/scijudge-always-a`` always picks paper A: position only. Every pair is asked in
  both orders, so it is right in exactly one order of each couple: ``accuracy`` 0 (the paper's
  position-swap consistency), ``accuracy_single_order`` 0.5, ``position_a_share`` 1.

Each answers in the prompt's format: ``<answer>A</answer>`` for the dataset prompt, a
``Recommendation: Project 1`` line for the TastyBench wording. Neither recognises any paper.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage
from inspect_ai.util import store

from research_taste_evals.core.baselines import register_baseline
from research_taste_evals.scijudge.solvers import CITATIONS_KEY

NOT_A_PAIR = "I can only answer SciJudgeBench pair prompts."
_TASTYBENCH_MARK = "\nProject 1: "


def _reply(letter: str, messages: list[ChatMessage]) -> str:
    if messages and _TASTYBENCH_MARK in messages[-1].text:
        return f"Recommendation: Project {1 if letter == 'A' else 2}"
    return f"<reason>Baseline rule.</reason>\n<answer>{letter}</answer>"


@register_baseline(
    "scijudge-oracle", "SciJudgeBench: picks the paper with more citations (reads them; ceiling)"
)
def citation_oracle(messages: list[ChatMessage]) -> str:
    citations = store().get(CITATIONS_KEY) or {}
    a, b = citations.get("A"), citations.get("B")
    if a is None or b is None:
        return NOT_A_PAIR
    return _reply("A" if a > b else "B", messages)


@register_baseline("scijudge-always-a", "SciJudgeBench: always picks paper A (position only)")
def always_a(messages: list[ChatMessage]) -> str:
    return _reply("A", messages)
