"""The ReviewCritique answer contract: what is read from a reply, and what stays unparsed.

Read (both prompts):

- the **last JSON object** of the reply (``core.answers.last_json_object``), fenced or not,
  with any prose before or after it, once ``<think>...</think>``-style reasoning blocks are
  stripped; key names in any case (``"Segments"``, ``"ID"``);
- Labeling-All: ``{"segments": [{"id", "reliability", "explanation"}]}``; Select-Deficient:
  ``{"deficient_segments": [{"id", "explanation"}]}``;
- an **id** is a JSON integer or a string of digits (``3`` or ``"3"``, spaces allowed);
- a **reliability** is ``yes`` or ``no`` in any case, surrounding spaces and a final period
  allowed (``"No"``, ``"no"``, ``"NO."``); "No" = deficient;
- an explanation that is missing or not a string is empty.

Unparsed on purpose (the whole answer gets no decision; counted in ``<prompt>_unparsed_rate``):
no JSON object; a last object without the prompt's list key, or whose list is not a list; an
entry that is not an object, lacks an id or (Labeling-All) a reliability, or has an id or
label outside the forms above (``true``, ``1.5``, ``"three"``, ``"maybe"``, ``"reliable"``).
Nothing is guessed.

Per id (the answer parses; counted, per prompt): an id outside 1..n is *invented* and
ignored; an id listed again with the same label is a *duplicate* (its first entry counts);
an id listed with **contradictory labels** (``Yes`` and ``No``) is *contradictory*: that id
gets no decision; for Labeling-All an id with no entry is *omitted* (no decision). A segment
without a decision is never read as "reliable": the scorer counts it (``scorer.py`` says how it
enters the headline and parsed-only figures). Under Select-Deficient, not listing an id IS the
answer "reliable" (that is the prompt), so a parsed answer decides every segment.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from research_taste_evals.core.answers import last_json_object

Prompt = Literal["labeling_all", "select_deficient"]
PROMPTS: tuple[Prompt, ...] = ("labeling_all", "select_deficient")
MAX_ERROR_CHARS = 300
_DIGITS = re.compile(r"\s*(\d+)\s*")
_LABELS = {"yes": False, "no": True}  # reliability -> deficient
LIST_KEYS: dict[Prompt, str] = {
    "labeling_all": "segments",
    "select_deficient": "deficient_segments",
}


class LabeledSegment(BaseModel):
    """One Labeling-All entry: id, "Yes" (reliable) or "No" (deficient), explanation."""

    model_config = ConfigDict(strict=True)

    id: int
    reliability: Literal["Yes", "No"]
    explanation: str = ""


class LabelingAllAnswer(BaseModel):
    """The Labeling-All answer: one entry per segment id (its schema goes to the provider)."""

    model_config = ConfigDict(strict=True)

    segments: list[LabeledSegment]


class SelectedSegment(BaseModel):
    """One Select-Deficient entry: the id of a deficient segment and why."""

    model_config = ConfigDict(strict=True)

    id: int
    explanation: str = ""


class SelectDeficientAnswer(BaseModel):
    """The Select-Deficient answer: only the deficient segments (schema sent to the provider)."""

    model_config = ConfigDict(strict=True)

    deficient_segments: list[SelectedSegment]


ANSWER_MODELS: dict[Prompt, type[BaseModel]] = {
    "labeling_all": LabelingAllAnswer,
    "select_deficient": SelectDeficientAnswer,
}


class Unparsed(ValueError):
    """The answer breaks the contract; the message says where."""


@dataclass
class PromptOutcome:
    """What one prompt's answer says about each segment of a review of ``n`` segments."""

    prompt: Prompt
    parsed: bool
    error: str | None = None
    # id -> deficient; an absent id has no decision.
    deficient: dict[int, bool] = field(default_factory=dict)
    explanations: dict[int, str] = field(default_factory=dict)
    invented: list[int] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    contradictory: list[int] = field(default_factory=list)
    omitted: list[int] = field(default_factory=list)

    def as_metadata(self) -> dict[str, object]:
        return {
            "parsed": self.parsed,
            "error": self.error,
            "deficient_ids": sorted(i for i, d in self.deficient.items() if d),
            "invented_ids": self.invented,
            "duplicate_ids": self.duplicates,
            "contradictory_ids": self.contradictory,
            "omitted_ids": self.omitted,
        }


def _lower_keys(entry: dict[str, Any]) -> dict[str, Any]:
    return {str(key).strip().lower(): value for key, value in entry.items()}


def read_id(value: object) -> int:
    """A segment id: a JSON integer or a string of digits (never a bool or a float)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and (match := _DIGITS.fullmatch(value)):
        return int(match.group(1))
    raise Unparsed(f"id {value!r} is not an integer")


def read_deficient(value: object) -> bool:
    """True for "No" (deficient), False for "Yes" (reliable), in any case."""
    if isinstance(value, str):
        label = value.strip().rstrip(".").strip().lower()
        if label in _LABELS:
            return _LABELS[label]
    raise Unparsed(f'reliability {value!r} is not "Yes" or "No"')


def read_entries(prompt: Prompt, text: str) -> list[tuple[int, bool, str]]:
    """(id, deficient, explanation) per entry of the answer, in order.

    Raises:
        Unparsed: the reply breaks the contract (see the module docstring).
    """
    answer = last_json_object(text)
    if answer is None:
        raise Unparsed("<answer>: no JSON object in the reply")
    key = LIST_KEYS[prompt]
    items = _lower_keys(answer).get(key)
    if not isinstance(items, list):
        raise Unparsed(f"{key}: the last JSON object has no {key!r} list")
    entries = []
    for index, raw in enumerate(items):
        if not isinstance(raw, dict):
            raise Unparsed(f"{key}.{index}: not an object")
        entry = _lower_keys(raw)
        try:
            if "id" not in entry:
                raise Unparsed("id: missing")
            segment_id = read_id(entry["id"])
            if prompt == "labeling_all":
                if "reliability" not in entry:
                    raise Unparsed("reliability: missing")
                deficient = read_deficient(entry["reliability"])
            else:
                deficient = True
        except Unparsed as error:
            raise Unparsed(f"{key}.{index}.{error}") from None
        explanation = entry.get("explanation")
        entries.append((segment_id, deficient, explanation if isinstance(explanation, str) else ""))
    return entries


def parse_outcome(prompt: Prompt, text: str, n_segments: int) -> PromptOutcome:
    """Read one answer under the contract and interpret it against ``n_segments`` segments."""
    try:
        entries = read_entries(prompt, text)
    except Unparsed as error:
        return PromptOutcome(prompt=prompt, parsed=False, error=str(error)[:MAX_ERROR_CHARS])
    outcome = PromptOutcome(prompt=prompt, parsed=True)
    valid = range(1, n_segments + 1)
    seen: set[int] = set()
    first_label: dict[int, bool] = {}
    for segment_id, deficient, explanation in entries:
        if segment_id not in valid:
            outcome.invented.append(segment_id)
            continue
        if segment_id in seen:
            if first_label[segment_id] == deficient:
                outcome.duplicates.append(segment_id)
            elif segment_id not in outcome.contradictory:
                outcome.contradictory.append(segment_id)
            continue
        seen.add(segment_id)
        first_label[segment_id] = deficient
        outcome.deficient[segment_id] = deficient
        outcome.explanations[segment_id] = explanation
    for segment_id in outcome.contradictory:
        outcome.deficient.pop(segment_id, None)
    if prompt == "select_deficient":
        # Not listing a segment IS the answer "reliable" under this prompt.
        for segment_id in valid:
            outcome.deficient.setdefault(segment_id, False)
    else:
        outcome.omitted = [i for i in valid if i not in seen]
    return outcome


def parses(prompt: Prompt) -> Callable[[str], list[tuple[int, bool, str]] | None]:
    """A parse function for the re-ask loop: the answer's entries, or None if unparsed."""

    def parse(text: str) -> list[tuple[int, bool, str]] | None:
        try:
            return read_entries(prompt, text)
        except Unparsed:
            return None

    return parse
