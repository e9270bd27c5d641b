"""The Long-Form Task autograder: one grading call, its JSON grade, and the panel around it.

A grader steps through the rubric's cumulative levels and stops at the first unmet criterion
(the end-to-end level, 0-10), and lists the criteria the solution meets anywhere in the
flattened checklist (partial credit = points met / points available). See
:mod:`research_taste_evals.lft.prompts` for the procedure's source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import CachePolicy, GenerateConfig, Model
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_taste_evals.core.grading import (
    DEFAULT_REPEATS,
    PanelResult,
    Spread,
    run_panel,
    spread,
)
from research_taste_evals.core.text import fill_template
from research_taste_evals.lft.prompts import (
    CRITERIA_MET_ALL,
    CRITERIA_MET_NONE,
    CRITERION_LINE,
    LEVEL_HEADER,
    LFT_GRADER_END_TO_END,
    LFT_GRADER_INTRO,
    LFT_GRADER_OUTPUT,
    LFT_GRADER_PARTIAL_CREDIT,
)
from research_taste_evals.lft.rubric import MAX_LEVEL, Rubric

FEASIBLE_LEVEL = 5  # AISI LFT: a score >= 5/10 is "feasible"
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


def format_levels(rubric: Rubric) -> str:
    """The rubric's levels as the grader reads them: a header per level, one line per criterion."""
    blocks = []
    for level in rubric.levels:
        title = f": {level.title}" if level.title else ""
        lines = [fill_template(LEVEL_HEADER, level=str(level.level), title=title)]
        lines += [
            fill_template(CRITERION_LINE, id=c.id, points=str(c.points), text=c.text.strip())
            for c in level.criteria
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def grading_prompt(rubric: Rubric, solution: str, partial_credit: bool = True) -> str:
    """The full grading prompt for one solution."""
    intro = fill_template(
        LFT_GRADER_INTRO,
        prompt=rubric.prompt.strip(),
        levels=format_levels(rubric),
        solution=solution,
    )
    rule = CRITERIA_MET_ALL if partial_credit else CRITERIA_MET_NONE
    parts = [intro, LFT_GRADER_END_TO_END]
    if partial_credit:
        parts.append(LFT_GRADER_PARTIAL_CREDIT)
    parts.append(fill_template(LFT_GRADER_OUTPUT, criteria_met_rule=rule))
    return "\n".join(parts)


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

    Criterion ids the rubric does not have earn nothing and are recorded in
    ``unknown_criteria``. With ``partial_credit`` off, the listed criteria are ignored.

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
    listed = tuple(dict.fromkeys(parsed.criteria_met)) if partial_credit else ()
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


@dataclass(frozen=True)
class LftPanelGrade:
    """A panel's grades of one solution, summarised."""

    panel: PanelResult[LftGrade]
    end_to_end: Spread
    partial_credit: Spread | None

    @property
    def levels(self) -> list[int]:
        return [grade.level for grade in self.panel.valid]


async def grade_solution(
    rubric: Rubric,
    solution: str,
    graders: Sequence[Model],
    repeats: int = DEFAULT_REPEATS,
    quorum: int | None = None,
    partial_credit: bool = True,
    cache: bool | CachePolicy = False,
    config: GenerateConfig | None = None,
) -> LftPanelGrade:
    """Grade ``solution`` with every panel member concurrently; medians over the valid grades."""
    prompt = grading_prompt(rubric, solution, partial_credit)

    def parse(text: str) -> LftGrade:
        return parse_lft_grade(text, rubric, partial_credit)

    panel = await run_panel(prompt, parse, graders, repeats, quorum, cache, config)
    valid = panel.valid
    return LftPanelGrade(
        panel=panel,
        end_to_end=spread([float(g.level) for g in valid]),
        partial_credit=spread([g.partial_credit for g in valid]) if partial_credit else None,
    )
