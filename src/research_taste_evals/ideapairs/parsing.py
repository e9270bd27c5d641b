"""The idea-pair answer contract: which idea a reply picks, and its verbalised confidence.

Read, once ``<think>...</think>``-style reasoning blocks are stripped
(``core.answers.strip_reasoning``):

- a **labelled answer**: ``Answer: A``, ``Final Answer: B``, ``**Answer:** A``,
  ``### Final answer - Idea B``, ``The answer is **A**.``, ``Prediction: B``, ``Label: 1``, with
  the value ``A``/``B`` (either case when it stands alone), ``Idea A``, ``the second idea``, in
  markup (``**A**``, ``(A)``, ``[B]``), optionally followed by a parenthetical or more text
  (``Answer: A (Idea A)``, ``Answer: B, with moderate confidence``), or on the next line
  when the label's line holds nothing else (``**Final Answer:**`` then ``**B**``);
- ``\\boxed{A}`` (also ``\\boxed{\\text{B}}``, ``\\boxed{\\mathbf{B}}``, ``$\\boxed{A}$``);
- if neither is present, a **bare last line** that is only the letter (``A``, ``**B**``,
  ``Idea A``), so a reply that is just the letter is read;
- with the paper's prompt (``prompt="paper"``: the binary label y of section 2 / 5.1, y = 0
  when idea A is better) the label ``0``/``1`` in the same places (``1``, ``Label: 0``,
  ``Answer: 1``, ``\\boxed{0}``, ``The answer is 0.``: a label may end a sentence, a decimal
  such as ``0.7`` is not a label) means A/B, and letters are not read (that prompt asks for
  the label); with the reasoning prompt a ``0``/``1`` is not read (it could mean "idea 1" or
  "label 1").

Precedence: ``Final Answer`` lines and ``\\boxed{}`` (the model's own final marker) over other
labelled answers, over the bare last line. Every answer of the tier used must name the same
idea.

Unparsed on purpose (the order is wrong, and the answer is re-asked once): both ideas named as
the answer (``Answer: A or B``, ``Answer: A/B``, ``Answer: A and B``), answers that disagree
(``Answer: A`` ... ``Answer: B``), prose with no labelled decision (``Idea B seems stronger``),
a decision only inside a reasoning block, a template echo (``Answer: <A or B ...>``), and a
label of the other prompt (see above).

Confidence: the last ``Confidence`` figure outside reasoning blocks: ``Confidence: 0.7``,
``**Confidence:** 0.7``, ``Confidence: 70%``, ``Confidence: 0.7 (fairly sure)``,
``confidence = .85``, ``Confidence: 7/10``. A number above 1 without ``%`` (``Confidence: 85``)
or words only (``Confidence: high``) give no probability (counted by the calibration metric).
"""

from __future__ import annotations

import re
from typing import Literal

from research_taste_evals.core.answers import strip_reasoning

PromptKind = Literal["paper", "reasoning"]
PROMPT_KINDS: tuple[PromptKind, ...] = ("paper", "reasoning")
Letter = Literal["A", "B"]
PERCENT = 100.0

_MARKUP = r"[\s*_`#>]*"
_LABEL = re.compile(
    rf"\b(final\s+)?(?:answer|prediction|choice|label){_MARKUP}(?:is\b|[:=\-–—]){_MARKUP}",
    re.IGNORECASE,
)
_BOXED = re.compile(
    r"\\boxed\s*\{\s*(?:\\(?:text|textbf|mathbf|mathrm)\s*\{)?\s*(?:idea\s+)?([A-Za-z0-9]+)\s*\}?\s*\}",
    re.IGNORECASE,
)
_OPEN = r"[\s*_`$(\[\"']*"
# The value after a label: the choice, then a boundary (not a longer word such as "All").
_LETTER_VALUE = re.compile(
    _OPEN + r"(?:(?:idea|option)\s*([AB])|([AB])|the\s+(first|second)\s+idea)(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# A label digit, which may end a sentence ("The answer is 0.") but not start a decimal (0.7).
_DIGIT_VALUE = re.compile(_OPEN + r"([01])(?![0-9]|[.,]\d)")
# "A or B", "A/B", "A and B", "A vs B" right after the choice: both named.
_BOTH = re.compile(
    r"^[\s*_`$)\]\"']*(?:or|and|/|&|,|vs\.?|versus)\s*[\s*_`(\[]*(?:idea\s+)?[AB01](?![A-Za-z0-9])",
    re.IGNORECASE,
)
_BARE = re.compile(r"^[\W_]*(?:idea\s+)?([AB01])[\W_]*$", re.IGNORECASE)
_ORDINAL: dict[str, Letter] = {"first": "A", "second": "B"}
_DIGIT: dict[str, Letter] = {"0": "A", "1": "B"}
_CONFIDENCE = re.compile(
    r"\bconfidence(?:\s+(?:level|score))?" + _MARKUP + r"(?:[:=]|is\b)?" + _MARKUP
    + r"(?:about|approximately|around|~|≈)?\s*(\d+(?:\.\d+)?|\.\d+)\s*(%|percent\b|/\s*10{1,2}\b)?",
    re.IGNORECASE,
)  # fmt: skip

Both = Literal["both"]


def _value(text: str, prompt: PromptKind) -> Letter | Both | None:
    """The idea a label's value names, "both" when it names both, None when it names none."""
    letter: Letter | None = None
    match = None if prompt == "paper" else _LETTER_VALUE.match(text)
    if match:
        named = match.group(1) or match.group(2)
        bare = match.group(2) is not None
        if bare and named.islower() and not _ends_value(text[match.end() :]):
            return None  # a lower-case "a" starting a sentence is an article, not an answer
        letter = _ORDINAL[match.group(3).lower()] if match.group(3) else named.upper()  # type: ignore[assignment]
    elif prompt == "paper" and (match := _DIGIT_VALUE.match(text)):
        letter = _DIGIT[match.group(1)]
    if letter is None or match is None:
        return None
    return "both" if _BOTH.match(text[match.end() :]) else letter


def _ends_value(rest: str) -> bool:
    return not rest.strip(" \t*_`$)].,;:!\"'")


def _boxed(text: str, prompt: PromptKind) -> list[Letter | Both]:
    found: list[Letter | Both] = []
    for match in _BOXED.finditer(text):
        token = match.group(1).upper()
        if token in ("A", "B") and prompt == "reasoning":
            found.append(token)  # type: ignore[arg-type]
        elif prompt == "paper" and token in _DIGIT:
            found.append(_DIGIT[token])
    return found


def _agreed(values: list[Letter | Both]) -> Letter | None:
    picks = set(values)
    if len(picks) == 1 and "both" not in picks:
        return picks.pop()  # type: ignore[return-value]
    return None


def parse_answer(text: str, prompt: PromptKind = "reasoning") -> Letter | None:
    """``"A"`` or ``"B"``, the idea the reply picks under the answer contract, else None.

    Args:
        text: The model's reply.
        prompt: ``reasoning`` (the "Answer: A|B" prompt) or ``paper`` (the paper's binary
            label: 0 = idea A is better, 1 = idea B; only the label is read).
    """
    if prompt not in PROMPT_KINDS:
        raise ValueError(f"prompt must be one of {PROMPT_KINDS}, got {prompt!r}")
    reply = strip_reasoning(text)
    final: list[Letter | Both] = _boxed(reply, prompt)
    labelled: list[Letter | Both] = []
    lines = [line for line in reply.splitlines() if line.strip()]
    for index, line in enumerate(lines):
        for label in _LABEL.finditer(line):
            rest = line[label.end() :]
            if not rest.strip(" \t*_`#") and index + 1 < len(lines):
                rest = lines[index + 1]  # "**Final Answer:**" with the value on the next line
            value = _value(rest, prompt)
            if value is not None:
                (final if label.group(1) else labelled).append(value)
    for tier in (final, labelled):
        if tier:
            return _agreed(tier)
    bare = _BARE.match(lines[-1]) if lines else None
    if bare is None:
        return None
    token = bare.group(1).upper()
    if prompt == "paper":
        return _DIGIT.get(token)
    return token if token in ("A", "B") else None  # type: ignore[return-value]


def parse_confidence(text: str) -> float | None:
    """The last verbalised confidence as a probability (70% -> 0.7); None if absent or not in
    [0, 1] (a number above 1 without ``%`` is not guessed to be a percentage)."""
    matches = list(_CONFIDENCE.finditer(strip_reasoning(text)))
    if not matches:
        return None
    number, unit = matches[-1].group(1), (matches[-1].group(2) or "").replace(" ", "").lower()
    value = float(number)
    if unit in ("%", "percent"):
        value /= PERCENT
    elif unit.startswith("/"):
        value /= float(unit[1:])
    return value if 0.0 <= value <= 1.0 else None
