"""Long-Form Task baseline for the offline ``baseline/<name>`` provider.

``baseline/lft-generic-protocol`` answers every task with the same domain-agnostic plan: the
floor a model should clear, and an offline stand-in for the evaluated model in the demo and
tests. Asked to act as critic (``followup="critique"`` or ``"nudge"`` with no ``critic`` role),
it gives an equally generic critique. The matching offline grader, ``baseline/lft-grader``, is
registered by :mod:`research_taste_evals.lft.baselines`.

``baseline/lft-grader``: an offline, deterministic keyword-overlap grader for LFT prompts.

It reads the rubric and the solution out of the grading prompt (``lft/grader.py``) and
counts a criterion as met when at least half of the criterion's content words (five letters or
more, minus common rubric verbs) occur in the solution. It then applies the real procedure:
levels in order, stop at the first unmet criterion; every criterion checked for partial credit;
answer with reasoning and the JSON grade. It understands nothing: it is the grader the demo and
tests can run with no API key, and a floor for ``lft_grader_check`` (rubric-keyword stuffing
fools it by design). It is deterministic, so its panel always agrees with itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from inspect_ai.model import ChatMessage, ChatMessageSystem

from research_taste_evals.core.baselines import register_baseline
from research_taste_evals.lft.prompts import CRITIC_SYSTEM, NUDGE_SYSTEM

GENERIC_PROTOCOL = """Step-by-step plan:

1. Define the goal precisely and decide how you will know that you have succeeded.
2. Review the relevant literature and existing protocols for similar work.
3. Gather the materials, equipment and data that you will need.
4. Run a small pilot experiment to check that the approach works.
5. Carry out the main procedure, following the established protocol carefully.
6. Record all observations and results as you go.
7. Analyse the results and compare them with your success criteria.
8. If something does not work, review each step, adjust it and repeat.
9. Write up and share your results."""

GENERIC_CRITIQUE = (
    "The answer is too general. The steps should be more specific and more detailed, and the "
    "reasoning behind the choices should be explained."
)


def _is_critic_request(messages: list[ChatMessage]) -> bool:
    return any(
        isinstance(m, ChatMessageSystem) and m.text in (CRITIC_SYSTEM, NUDGE_SYSTEM)
        for m in messages
    )


@register_baseline(
    "lft-generic-protocol",
    "LFT: the same generic, domain-agnostic nine-step plan for every task (a floor)",
)
def generic_protocol(messages: list[ChatMessage]) -> str:
    return GENERIC_CRITIQUE if _is_critic_request(messages) else GENERIC_PROTOCOL


MIN_KEYWORD_CHARS = 5
KEYWORD_SHARE = 0.5  # share of a criterion's keywords the solution must contain
RUBRIC_START = "# Rubric: end-to-end levels"
SOLUTION_HEADING = "# Solution to grade"
SOLUTION_OPEN, SOLUTION_CLOSE = "<solution>", "</solution>"
NOT_A_GRADING_PROMPT = "baseline/lft-grader only answers Long-Form Task grading prompts."

_LEVEL = re.compile(r"^## Level (\d+)")
_CRITERION = re.compile(r"^- \[([^\]]+)\] \((\d+) pt\) (.*)$")
_WORD = re.compile(r"[a-z0-9]+")
# Words that occur in most criteria and say nothing about the content.
STOPWORDS = frozenset(
    {
        "about",
        "above",
        "after",
        "again",
        "against",
        "among",
        "another",
        "because",
        "before",
        "being",
        "below",
        "between",
        "both",
        "could",
        "doing",
        "during",
        "each",
        "either",
        "every",
        "example",
        "explains",
        "following",
        "further",
        "gives",
        "having",
        "identifies",
        "includes",
        "instead",
        "justifies",
        "least",
        "makes",
        "might",
        "names",
        "other",
        "others",
        "proposes",
        "rather",
        "reports",
        "should",
        "since",
        "specifies",
        "states",
        "their",
        "there",
        "these",
        "those",
        "through",
        "under",
        "until",
        "using",
        "where",
        "whether",
        "which",
        "while",
        "within",
        "without",
        "would",
    }
)


@dataclass(frozen=True)
class _Criterion:
    level: int
    id: str
    text: str


def content_words(text: str) -> set[str]:
    """Lower-case words of at least five characters that are not rubric boilerplate."""
    return {
        w for w in _WORD.findall(text.lower()) if len(w) >= MIN_KEYWORD_CHARS and w not in STOPWORDS
    }


def keyword_met(criterion_text: str, solution_words: set[str]) -> tuple[bool, int, int]:
    """Whether the solution holds enough of the criterion's keywords (met, found, needed-of)."""
    keywords = content_words(criterion_text)
    found = len(keywords & solution_words)
    return (bool(keywords) and found >= KEYWORD_SHARE * len(keywords)), found, len(keywords)


def _split_prompt(prompt: str) -> tuple[list[_Criterion], str] | None:
    if RUBRIC_START not in prompt or SOLUTION_HEADING not in prompt:
        return None
    rubric_part = prompt.split(RUBRIC_START, 1)[1].split(SOLUTION_HEADING, 1)[0]
    after = prompt.split(SOLUTION_HEADING, 1)[1]
    if SOLUTION_OPEN not in after or SOLUTION_CLOSE not in after:
        return None
    solution = after.split(SOLUTION_OPEN, 1)[1].rsplit(SOLUTION_CLOSE, 1)[0]
    criteria: list[_Criterion] = []
    level = 0
    for line in rubric_part.splitlines():
        if header := _LEVEL.match(line):
            level = int(header.group(1))
        elif (item := _CRITERION.match(line)) and level:
            criteria.append(_Criterion(level, item.group(1), item.group(3)))
    return (criteria, solution) if criteria else None


@lru_cache(maxsize=256)
def keyword_grade(prompt: str) -> str:
    """The baseline grader's full answer (reasoning, then the JSON grade) to a grading prompt.

    Cached: a panel sends its members the same prompt, and the answer depends on it alone.
    """
    parsed = _split_prompt(prompt)
    if parsed is None:
        return NOT_A_GRADING_PROMPT
    criteria, solution = parsed
    words = content_words(solution)
    checks = {c.id: keyword_met(c.text, words) for c in criteria}
    lines, reached, stopped_at = [], 0, None
    for level in sorted({c.level for c in criteria}):
        missing = [c.id for c in criteria if c.level == level and not checks[c.id][0]]
        if missing:
            stopped_at = missing[0]
            found, total = checks[stopped_at][1:]
            lines.append(f"Level {level}: [{stopped_at}] not met ({found}/{total} keywords). Stop.")
            break
        lines.append(f"Level {level}: all criteria met by keyword overlap.")
        reached = level
    met = [c.id for c in criteria if checks[c.id][0]]
    rationale = f"Keyword overlap reaches level {reached}; " + (
        f"[{stopped_at}] lacks its keywords." if stopped_at else "every level's keywords occur."
    )
    grade = {"level": reached, "criteria_met": met, "rationale": rationale}
    return "\n".join(lines) + "\n```json\n" + json.dumps(grade) + "\n```"


@register_baseline(
    "lft-grader",
    "LFT grader: a criterion is met when half its keywords occur in the solution (a floor)",
)
def lft_keyword_grader(messages: list[ChatMessage]) -> str:
    return keyword_grade(messages[-1].text if messages else "")


@lru_cache(maxsize=1)
def _shipped_reference_levels() -> dict[str, int]:
    # Imported here: references -> rubric is heavy, and the provider registry imports this file.
    from research_taste_evals.lft.references import load_references
    from research_taste_evals.lft.rubric import load_rubrics

    return {r.text.strip(): r.known_level for r in load_references(None, load_rubrics())}


@register_baseline(
    "lft-reference-oracle",
    "LFT grader check: answers each shipped reference's known level (an answer-aware ceiling)",
)
def lft_reference_oracle(messages: list[ChatMessage]) -> str:
    """The level the shipped reference in the grading prompt was built to reach.

    A scripted grader that understands the answers by construction: the ceiling the grader
    check should show, beside the keyword grader's floor. Unknown solutions get no grade.
    """
    parsed = _split_prompt(messages[-1].text if messages else "")
    if parsed is None:
        return NOT_A_GRADING_PROMPT
    level = _shipped_reference_levels().get(parsed[1].strip())
    if level is None:
        return "This solution is not a shipped reference; no grade."
    grade = {"level": level, "criteria_met": [], "rationale": "known level of the reference"}
    return "```json\n" + json.dumps(grade) + "\n```"
