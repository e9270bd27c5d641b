"""The LFT answer contract: how a grader's reply is read (the family template's ``parsing.py``).
A reply ends with a JSON object (fenced or bare) giving the level reached, the criteria met and a
rationale; :func:`parse_lft_grade` checks it against the rubric and raises ``ValueError`` for
a reply that does not fit, which the grading path counts as an unparseable grade.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_taste_evals.lft.rubric import MAX_LEVEL, Rubric

_FENCED_JSON = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL | re.IGNORECASE)


class GraderJson(BaseModel):
    """The JSON object a grader must end its answer with."""

    model_config = ConfigDict(extra="ignore")

    level: int = Field(ge=0, le=MAX_LEVEL)
    criteria_met: list[str] = Field(default_factory=list)
    rationale: str = ""


@dataclass(frozen=True)
class LftGrade:
    """One grader's parsed grade of one solution."""

    level: int
    criteria_met: tuple[str, ...]
    rationale: str
    reasoning: str
    points_met: int
    points_available: int
    unknown_criteria: tuple[str, ...]
    # Criteria at or below the reported level that the grader did not list as met: a sign the
    # level and the checklist disagree (kept as a diagnostic, not corrected).
    unlisted_below_level: tuple[str, ...]

    @property
    def partial_credit(self) -> float:
        return self.points_met / self.points_available

    @property
    def contradicts_checklist(self) -> bool:
        """The level claims criteria that the grader's own ``criteria_met`` does not list."""
        return bool(self.unlisted_below_level)


def criterion_id(listed: str) -> str:
    """A listed criterion id without the decoration graders copy from the prompt.

    The rubric shows ids as ``- [id] (3 pt) ...``, so graders often echo ``[id]`` or
    ```id```; both mean ``id``.
    """
    text = listed.strip().strip("`").strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].strip()
    return text


def extract_json_object(text: str) -> tuple[dict[str, Any], str]:
    """The last JSON object with a ``level`` field in ``text``, and the text before it.

    Prefers a fenced ```json block; otherwise scans for the last decodable ``{...}``.

    Raises:
        ValueError: no such object.
    """
    for match in reversed(list(_FENCED_JSON.finditer(text))):
        try:
            value = json.loads(match.group(1))
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "level" in value:
            return value, text[: match.start()]
    decoder = json.JSONDecoder()
    for start in reversed([i for i, char in enumerate(text) if char == "{"]):
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "level" in value:
            return value, text[:start]
    raise ValueError("no JSON object with a 'level' field in the grader's answer")


def parse_lft_grade(text: str, rubric: Rubric, partial_credit: bool = True) -> LftGrade:
    """Parse a grader's answer against ``rubric``.

    Ids are read with or without the prompt's brackets (``[id]`` is ``id``). Criterion ids
    the rubric does not have earn nothing and are recorded in ``unknown_criteria``.
    With ``partial_credit`` off, the listed criteria are ignored.

    Raises:
        ValueError: no JSON grade, or a field of the wrong type/range (the reason says which).
    """
    raw, reasoning = extract_json_object(text)
    try:
        parsed = GraderJson.model_validate(raw)
    except ValidationError as error:
        problem = error.errors()[0]
        field = ".".join(str(part) for part in problem["loc"]) or "<object>"
        raise ValueError(f"grader JSON field '{field}': {problem['msg']}") from error
    points = {c.id: c.points for c in rubric.flattened_criteria()}
    listed = (
        tuple(dict.fromkeys(criterion_id(c) for c in parsed.criteria_met)) if partial_credit else ()
    )
    met = tuple(cid for cid in listed if cid in points)
    unknown = tuple(cid for cid in listed if cid not in points)
    below = (
        tuple(c.id for c in rubric.criteria_up_to(parsed.level) if c.id not in met)
        if partial_credit
        else ()
    )
    return LftGrade(
        level=parsed.level,
        criteria_met=met,
        rationale=parsed.rationale.strip(),
        reasoning=reasoning.strip(),
        points_met=sum(points[cid] for cid in met),
        points_available=rubric.total_points(),
        unknown_criteria=unknown,
        unlisted_below_level=below,
    )
