"""Strict parsing of the two ReviewCritique answers, with every failure counted.

An answer is a JSON document (one markdown code fence around it is tolerated, since providers
without structured output add one); anything else is *unparsed*. Ids are checked against the
review: an id outside 1..n is *invented*, a repeated id is a *duplicate* (the first entry
counts), and for Labeling-All an id with no entry is *omitted*. Segments without a decision
are never defaulted to "reliable": the scorer leaves them out of P/R/F1 and counts them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

Prompt = Literal["labeling_all", "select_deficient"]
PROMPTS: tuple[Prompt, ...] = ("labeling_all", "select_deficient")
_FENCED = re.compile(r"\A```(?:json|JSON)?\s*\n(.*)\n\s*```\Z", re.DOTALL)
MAX_ERROR_CHARS = 300


class LabeledSegment(BaseModel):
    """One Labeling-All entry: id, "Yes" (reliable) or "No" (deficient), explanation."""

    model_config = ConfigDict(strict=True)

    id: int
    reliability: Literal["Yes", "No"]
    explanation: str = ""


class LabelingAllAnswer(BaseModel):
    """The Labeling-All answer: one entry per segment id."""

    model_config = ConfigDict(strict=True)

    segments: list[LabeledSegment]


class SelectedSegment(BaseModel):
    """One Select-Deficient entry: the id of a deficient segment and why."""

    model_config = ConfigDict(strict=True)

    id: int
    explanation: str = ""


class SelectDeficientAnswer(BaseModel):
    """The Select-Deficient answer: only the deficient segments."""

    model_config = ConfigDict(strict=True)

    deficient_segments: list[SelectedSegment]


ANSWER_MODELS: dict[Prompt, type[BaseModel]] = {
    "labeling_all": LabelingAllAnswer,
    "select_deficient": SelectDeficientAnswer,
}


@dataclass
class PromptOutcome:
    """What one prompt's answer says about each segment of a review of ``n`` segments."""

    prompt: Prompt
    parsed: bool
    error: str | None = None
    deficient: dict[int, bool] = field(
        default_factory=dict
    )  # id -> deficient; absent = no decision
    explanations: dict[int, str] = field(default_factory=dict)
    invented: list[int] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    omitted: list[int] = field(default_factory=list)

    def as_metadata(self) -> dict[str, object]:
        return {
            "parsed": self.parsed,
            "error": self.error,
            "deficient_ids": sorted(i for i, d in self.deficient.items() if d),
            "invented_ids": self.invented,
            "duplicate_ids": self.duplicates,
            "omitted_ids": self.omitted,
        }


def unfence(text: str) -> str:
    """The answer without surrounding whitespace and one enclosing markdown code fence."""
    stripped = text.strip()
    match = _FENCED.match(stripped)
    return match.group(1).strip() if match else stripped


def parse_outcome(prompt: Prompt, text: str, n_segments: int) -> PromptOutcome:
    """Parse one answer strictly and interpret it against a review of ``n_segments`` segments."""
    try:
        answer = ANSWER_MODELS[prompt].model_validate_json(unfence(text))
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "<answer>"
        message = f"{where}: {problem['msg']}"[:MAX_ERROR_CHARS]
        return PromptOutcome(prompt=prompt, parsed=False, error=message)
    outcome = PromptOutcome(prompt=prompt, parsed=True)
    valid = range(1, n_segments + 1)
    seen: set[int] = set()
    if isinstance(answer, LabelingAllAnswer):
        entries: list[tuple[int, bool, str]] = [
            (e.id, e.reliability == "No", e.explanation) for e in answer.segments
        ]
    elif isinstance(answer, SelectDeficientAnswer):
        entries = [(e.id, True, e.explanation) for e in answer.deficient_segments]
    else:  # pragma: no cover - ANSWER_MODELS has exactly these two
        raise TypeError(type(answer).__name__)
    for segment_id, deficient, explanation in entries:
        if segment_id not in valid:
            outcome.invented.append(segment_id)
            continue
        if segment_id in seen:
            outcome.duplicates.append(segment_id)
            continue
        seen.add(segment_id)
        outcome.deficient[segment_id] = deficient
        outcome.explanations[segment_id] = explanation
    if prompt == "select_deficient":
        # Not listing a segment IS the answer "reliable" under this prompt.
        for segment_id in valid:
            outcome.deficient.setdefault(segment_id, False)
    else:
        outcome.omitted = [i for i in valid if i not in seen]
    return outcome
