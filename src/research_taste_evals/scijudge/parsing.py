"""The SciJudgeBench answer contract: which paper, A or B, a reply picks.

Read once reasoning blocks are stripped: the rows' own ``<reason>...</reason>`` (the dataset
prompt asks for them, arXiv 2603.14473 Table 2) exactly as ``<think>...</think>``-style blocks
(``core.answers.strip_reasoning``: a closed block anywhere, a closing tag without its opening
one, an opening tag never closed). The choice is written ``A``/``B`` (also ``Paper A``) under
``prompt=dataset``, and ``Project 1``/``Project 2`` (= A/B) under ``prompt=tastybench``. In
order of precedence, the first kind of answer present decides:

1. ``<answer> A </answer>`` tags (the dataset prompt's own format, arXiv 2603.14473 Table 2),
   read case-insensitively (``<ANSWER>b</ANSWER>`` is B: inside the tags a letter is no article);
2. ``\\boxed{B}`` and ``Final answer: ...`` lines;
3. labelled answers: ``Answer: A``, ``**Answer:** Paper B``, ``The answer is **A**``,
   ``Verdict: ...``, ``Recommendation: Project 2`` (the value on the next line when the
   label's line holds nothing else);
4. bold verdicts: a line that is only the choice in bold (``**Paper B**``, ``**Project 1.**``);
5. a bare last line that is only the choice (``A``, ``Project 2``);
6. ``prompt=tastybench`` only: unhedged decisions, ``I recommend (pursuing) Project 2``,
   ``go with Project 1``, ``pursue Project 1``.

Every answer of the deciding kind must name the same paper. Unreadable on purpose (counted as
``unparsed`` and scored wrong, as the paper scores a prediction it cannot extract; re-asked
only under ``-T reask=N``): both papers named as the answer (``Answer: A or B``), answers that
disagree, prose without a labelled decision, a decision only inside a reasoning block, a
lower-case ``a`` outside the answer tags (an article), and a decision in a hedged sentence
(``if``, ``not``, ``unless``).
"""

from __future__ import annotations

import re
from typing import Literal

from research_taste_evals.core.answers import strip_reasoning

Letter = Literal["A", "B"]
PromptKind = Literal["dataset", "tastybench"]
_BOTH = "both"

_TAG = re.compile(r"<answer>\s*(.*?)\s*</answer>", re.IGNORECASE | re.DOTALL)
_BOXED = re.compile(
    r"\\boxed\s*\{\s*(?:\\(?:text|textbf|mathbf|mathrm)\s*\{)?\s*([^{}]*?)\s*\}?\s*\}"
)
_LABEL = re.compile(
    r"\b(final\s+)?(?:answer|verdict|choice|prediction|recommendation|decision|pick)"
    r"[\s*_`#>]*(?:is\b|[:=\-–—])",
    re.IGNORECASE,
)
_OPEN = r"[\s*_`$(\[\"']*"
_CHOICE = {
    "dataset": re.compile(_OPEN + r"(?:[Pp]aper\s+)?([AB])(?![A-Za-z0-9])"),
    "tastybench": re.compile(_OPEN + r"project\s*#?\s*([12])(?!\d)", re.IGNORECASE),
}
# Inside <answer> tags the letter is read in either case (the rows ask for "only the letter").
_TAGGED = {
    "dataset": re.compile(_OPEN + r"(?:paper\s+)?([AB])(?![A-Za-z0-9])", re.IGNORECASE),
    "tastybench": _CHOICE["tastybench"],
}
# The rows' reasoning tags, read as the reasoning blocks core.answers.strip_reasoning strips.
_REASON_TAG = re.compile(r"<(/?)reason\s*>", re.IGNORECASE)
_OTHER = {
    "dataset": r"(?:[Pp]aper\s+)?[AB](?![A-Za-z0-9])",
    "tastybench": r"project\s*#?\s*[12](?!\d)",
}
_DECISION = re.compile(
    r"\b(?:recommend(?:ing)?|pursue|go\s+with|choose|pick)\s+(?:pursuing\s+)?"
    r"project\s*#?\s*([12])(?!\d)",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(?:if|unless|not|never|whichever|rather\s+than)\b|n't", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_MARKUP = " \t*_`#>\"'()[].:;!,"
_LETTERS: dict[str, Letter] = {"A": "A", "B": "B", "1": "A", "2": "B"}


def _value(text: str, prompt: PromptKind, tagged: bool = False) -> str | None:
    """The paper a label's value names, ``both`` when it names both, None when none."""
    match = (_TAGGED if tagged else _CHOICE)[prompt].match(text)
    if match is None:
        return None
    rest = text[match.end() :]
    both = re.match(
        r"[\s*_`)\]\"']*(?:or|and|/|&|,|vs\.?|versus)\s*[\s*_`(\[]*" + _OTHER[prompt],
        rest,
        re.IGNORECASE,
    )
    return _BOTH if both else _LETTERS[match.group(1).upper()]


def _whole(text: str, prompt: PromptKind, tagged: bool = False) -> str | None:
    """The choice when ``text`` (markup stripped) is nothing but one choice."""
    value = _value(text, prompt, tagged)
    match = (_TAGGED if tagged else _CHOICE)[prompt].match(text)
    if value is None or match is None or text[match.end() :].strip(_MARKUP):
        return None
    return value


def _agreed(values: list[str]) -> Letter | None:
    picks = set(values)
    if len(picks) == 1 and _BOTH not in picks:
        return _LETTERS[picks.pop()]
    return None


def _labelled(lines: list[str], prompt: PromptKind) -> tuple[list[str], list[str]]:
    """Values of ``Final answer``/``\\boxed`` (first list) and of other labels (second)."""
    final: list[str] = []
    labelled: list[str] = []
    for index, line in enumerate(lines):
        for label in _LABEL.finditer(line):
            rest = line[label.end() :]
            if not rest.strip(" \t*_`#") and index + 1 < len(lines):
                rest = lines[index + 1]
            value = _value(rest, prompt)
            if value is not None:
                (final if label.group(1) else labelled).append(value)
    return final, labelled


def parse_answer(text: str, prompt: PromptKind = "dataset") -> Letter | None:
    """``"A"`` or ``"B"``, the paper the reply picks under the answer contract, else None."""
    reply = strip_reasoning(_REASON_TAG.sub(r"<\1think>", text))
    tags = [
        _whole(tag, prompt, tagged=True) or _value(tag, prompt, tagged=True)
        for tag in _TAG.findall(reply)
    ]
    if tags:
        return _agreed([t for t in tags if t is not None]) if all(tags) else None
    lines = [line for line in reply.splitlines() if line.strip()]
    final, labelled = _labelled(lines, prompt)
    final += [v for box in _BOXED.findall(reply) if (v := _whole(box, prompt))]
    for tier in (final, labelled):
        if tier:
            return _agreed(tier)
    bold = [v for line in lines if line.strip().startswith("**") and (v := _whole(line, prompt))]
    if bold:
        return _agreed(bold)
    last = _whole(lines[-1], prompt) if lines else None
    if last is not None:
        return _agreed([last])
    if prompt == "tastybench":
        return _decisions(reply)
    return None


def _decisions(reply: str) -> Letter | None:
    """Unhedged ``I recommend Project N`` decisions, all naming one project."""
    picks = [
        match.group(1)
        for sentence in _SENTENCE.split(reply)
        if not _HEDGE.search(sentence)
        for match in _DECISION.finditer(sentence)
    ]
    return _agreed(picks) if picks else None
