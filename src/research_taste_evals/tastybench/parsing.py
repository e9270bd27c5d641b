"""The answer contract: which project a judge answer picks, and what the extractor's reply says.

Upstream sends every judge answer to a second model (gpt-oss-120b) with the
``extract_choice.md`` prompt and reads its reply with substring tests in the order "UNCLEAR",
"PROJECT 1", "PROJECT 2", so a reply naming both projects counts as Project 1 -- a position
bias. Here (``choice.py`` runs the steps):

1. An empty answer is unclear ("empty"); no model is asked.
1. An empty answer is unclear ("empty"); no model is asked.
2. :func:`parse_judge_answer` reads the answer without its reasoning blocks (``<think>``...).
   A *headline verdict* decides first (a line opening with a label, "Recommendation: Project 1
   (ReMax ...)."; a label line and a decision on the next; a line opening in bold with a
   recommendation, "**Go with Project 2** (...)", or with the project itself; a last line that
   is only a project; a JSON ``choice``), whatever the discussion weighs, when the headline
   verdicts, unhedged, name one project and no plain decision names the other. Without one,
   decision phrases ("I recommend Project 2", "Project 1 is the better choice") decide when
   they name one project and no verdict-like phrase anywhere leans the other way. Otherwise the
   answer is ambiguous: hedged, negated, conditional, or a comparison. A parenthesis describing
   a project ("Project 1 (ReMax: no value model)") is not read for hedges, and "provided ..."
   after a pick qualifies it; a pick that depends on a choice ("1 if X, else 2") is ambiguous.
   Patterns: ``prompts.py``; shapes: the README's "Answer contract" and
3. An ambiguous answer goes to the extractor (``choice.py``); :func:`parse_extractor_reply`
   accepts a reply naming exactly one of "PROJECT 1"/"PROJECT 2" and counts "UNCLEAR",
   both-named and neither-named replies as unclear. Unclear answers are counted and reported,
   and left out of the ratings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

import research_taste_evals.tastybench.prompts as contract
from research_taste_evals.core.answers import json_objects, strip_reasoning

UnclearReason = Literal[
    "empty",
    "ambiguous",
    "extractor_unclear",
    "extractor_empty",
    "both_named",
    "neither_named",
    "extractor_failed",
    "extractor_refused",
]


def _number(match: re.Match[str], first_group: int) -> int:
    digit, ordinal = match.group(first_group), match.group(first_group + 1)
    return int(digit) if digit else contract.ORDINALS[ordinal.lower()]


def _leanings(sentences: list[str]) -> set[int]:
    """Projects named by any verdict-like phrase, in any sentence (hedged ones included)."""
    return {
        _number(match, 1)
        for sentence in sentences
        for pattern in contract.LEANS
        for match in pattern.finditer(sentence)
    }


def _named(text: str) -> set[int]:
    return {_number(match, 1) for match in contract.ANY_REF.finditer(text)}


def _without_descriptions(text: str) -> str:
    """``text`` without the parentheses describing a project ("(ReMax: no value model)"); one
    that makes the pick depend on a choice ("(if you have compute)") stays."""

    def kept(match: re.Match[str]) -> str:
        return match.group(0) if contract.CHOICE_CONDITION.search(match.group(0)) else " "

    previous = None
    while previous != text:
        previous, text = text, contract.PARENTHESIS.sub(kept, text)
    return text


def _hedged(text: str) -> bool:
    """Whether ``text`` is conditional, negated or hedged, outside the projects' descriptions."""
    return contract.HEDGE.search(_without_descriptions(text)) is not None


def _decision(text: str) -> int | None:
    """The project an unhedged decision phrase of ``text`` names, if exactly one."""
    if _hedged(text):
        return None
    picks = {_number(m, 1) for pattern in contract.DECISIONS for m in pattern.finditer(text)}
    return picks.pop() if len(picks) == 1 else None


def _json_picks(text: str) -> set[int]:
    picks: set[int] = set()
    for found in json_objects(text):
        for key, value in found.items():
            if str(key).lower() not in contract.CHOICE_KEYS or isinstance(value, bool):
                continue
            value = str(value).strip()
            named = {int(value)} if value in ("1", "2") else _named(value)
            if len(named) == 1 and not _hedged(value):
                picks |= named
    return picks


def _bold_project(raw: str, words: str, rest: str, sentence: str) -> int | None:
    """The project a bold line's verdict is, when the bold words are the project itself:
    "**Project 2 (DAPO), and it's not close.**". Not a list item ("- **Project 2**, while
    ..."), not a line going on with a verb ("**Project 2** is ..."), not both projects named,
    and not a conditional sentence ("**Project 2**, but flip it if you cannot scale")."""
    lead = contract.BOLD_PROJECT.match(contract.MARKDOWN.sub(" ", words))
    if lead is None or re.match(r"\s*\w", rest) or contract.BULLET.match(raw):
        return None
    if len(_named(sentence)) != 1 or contract.CONDITIONAL.search(_without_descriptions(sentence)):
        return None
    if sentence.rstrip(" *_").endswith(":"):  # a section header ("**Project 2 (DAPO):**")
        return None
    return _number(lead, 1)


def _bold_openings(text: str) -> Iterator[tuple[str, str, str]]:
    """(line, bold words, the rest of their sentence) of each line that opens in bold."""
    for raw in text.splitlines():
        line = raw.lstrip(" \t#>-–—•")
        if bold := contract.BOLD.match(line):
            words = bold.group(1) or bold.group(2)
            rest = contract.SENTENCE_END.split(line[bold.end() :], maxsplit=1)[0]
            yield raw, words, "" if words.rstrip().endswith((".", "!", "?")) else rest


def _bold_project_picks(text: str) -> set[int]:
    """Projects named by bold lines that are the project itself (:func:`_bold_project`)."""
    picks: set[int] = set()
    for raw, words, rest in _bold_openings(text):
        project = _bold_project(raw, words, rest, contract.MARKDOWN.sub(" ", words + rest))
        picks |= set() if project is None else {project}
    return picks


def _headline_picks(text: str) -> set[int]:
    """Projects named by the headline verdicts of ``text`` (module docstring)."""
    picks = _json_picks(text)
    for _, words, rest in _bold_openings(text):  # the bold words and the rest of their sentence
        sentence = contract.MARKDOWN.sub(" ", words + rest)
        pick = _decision(sentence)
        if pick and contract.VERB_FIRST.search(sentence) and len(_named(sentence)) == 1:
            picks.add(pick)
    lines = [
        contract.LINE_LEAD.sub("", contract.MARKDOWN.sub(" ", line)).strip()
        for line in text.splitlines()
    ]
    lines = [line for line in lines if line]
    for index, line in enumerate(lines):
        label = contract.LABEL_FIRST.match(line)
        if label and not _hedged(line[label.end() :]):
            picks.add(_number(label, 1))
        after = lines[index + 1] if index + 1 < len(lines) else ""
        if contract.LABEL_LINE.match(line) and (pick := _decision(after)) is not None:
            picks.add(pick)
    if lines and (final := contract.FINAL_LINE.match(lines[-1])):
        picks.add(_number(final, 1))
    return picks


def parse_judge_answer(text: str) -> Literal[1, 2] | None:
    """The project the answer's verdict names (module docstring), or None.

    None when there is neither a headline verdict nor a decision phrase, when they disagree
    (e.g. "go with Project 1 if ..., choose Project 2 only if ..."), or, without a headline,
    when the answer leans both ways in verdict-like terms ("Project 1 is more promising in
    theory. However, for citation velocity, Project 2 wins."); such answers need a reader
    (the extractor).
    """
    text = strip_reasoning(text)
    headline = _headline_picks(text)
    picks: set[int] = set()
    plain = contract.MARKDOWN.sub(" ", text)
    sentences = contract.SENTENCE_END.split(plain)
    for sentence in sentences:
        if _hedged(sentence):
            continue
        if len(_named(sentence)) > 1 and not contract.COMPARATIVE.search(sentence):
            continue  # "Project 1 is faster; Project 2 is more novel": a comparison, no pick
        for pattern in contract.DECISIONS:
            picks.update(_number(match, 1) for match in pattern.finditer(sentence))
    if headline:
        if len(headline) != 1 or not picks <= headline:
            return _bold_verdict(text, headline, picks)
        return 1 if headline == {1} else 2
    if len(picks) != 1 or len(_leanings(sentences) | picks) > 1:
        return _bold_verdict(text, headline, picks)
    (pick,) = picks
    return 1 if pick == 1 else 2


def _bold_verdict(text: str, headline: set[int], picks: set[int]) -> Literal[1, 2] | None:
    """Last resort for an answer read as unclear: bold lines that are one project, agreeing
    with every headline verdict and decision ("**Project 2 (DAPO), and it's not close.**")."""
    bold = _bold_project_picks(text)
    if len(bold) != 1 or not (headline | picks) <= bold:
        return None
    return 1 if bold == {1} else 2


def parse_extractor_reply(reply: str) -> tuple[Literal[1, 2] | None, UnclearReason | None]:
    """Read the extractor's reply (upstream's contract: end with "PROJECT 1"/"PROJECT 2" or
    write "UNCLEAR"). Exactly one project named -> that project; otherwise unclear with a reason.
    """
    if not reply.strip():
        return None, "extractor_empty"
    if "UNCLEAR" in reply:
        return None, "extractor_unclear"
    named = {int(match.group(1)) for match in contract.EXTRACTOR_TOKEN.finditer(reply)}
    if named == {1}:
        return 1, None
    if named == {2}:
        return 2, None
    return None, "both_named" if named else "neither_named"


def read_extractor_reply(reply: str) -> Literal[1, 2] | None:
    """The extractor's pick, None for its "UNCLEAR"; raises ValueError (the unclear reason)
    for an empty, both-named or neither-named reply (``core.grading``'s parse contract)."""
    choice, reason = parse_extractor_reply(reply)
    if reason is not None and reason != "extractor_unclear":
        raise ValueError(reason)
    return choice
