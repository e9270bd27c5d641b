"""The Long-Form Task autograder: one grading call, its JSON grade, and the panel around it.

A grader steps through the rubric's cumulative levels and stops at the first unmet criterion
(the end-to-end level, 0-10), and lists the criteria the solution meets anywhere in the
flattened checklist (partial credit = points met / points available). See
:mod:`research_taste_evals.lft.prompts` for the procedure's source.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from inspect_ai.model import CachePolicy, GenerateConfig, Model, model_roles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.grading import (
    GRADER_ROLE,
    PanelResult,
    Spread,
    run_panel,
    spread,
)
from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models
from research_taste_evals.core.text import fill_template
from research_taste_evals.lft.prompts import (
    ALTERNATIVES_LINE,
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

FEASIBLE_LEVEL = 5  # AISI LFT ("Scoring"): a score >= 5/10 is "feasible"
# AISI LFT ("Grading repeats"): "the autograder is run 10 times on each solution".
LFT_GRADER_REPEATS = 10
# The median of an even number of grades: "midpoint" averages the two middle grades (4 and 5
# give 4.5, which is below the feasibility line); "lower" takes the lower one, keeping the
# report's integer scale (s in N, 0..10) and never rounding a split panel up.
MedianRule = Literal["midpoint", "lower"]
DEFAULT_MEDIAN_RULE: MedianRule = "midpoint"
SELF_GRADING_MESSAGE = (
    "No 'grader' model role is bound, so the evaluated model would grade its own solutions "
    "(AISI's Long-Form Tasks use grader panels 'to avoid introducing bias'): bind graders with "
    "--model-role grader=<provider/model> (several models make a panel), or pass "
    "-T allow_self_grading=true to let the evaluated model grade itself."
)
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


def grader_spec(allow_self_grading: bool) -> RoleSpec:
    """The ``grader`` role of a Long-Form Task: required, unless self-grading is allowed."""
    return RoleSpec(
        GRADER_ROLE,
        default=EVALUATED_MODEL if allow_self_grading else None,
        missing=SELF_GRADING_MESSAGE,
    )


def require_grader_role(allow_self_grading: bool) -> None:
    """Stop unless a ``grader`` role is bound or self-grading allowed (in ``solve``/``score``).

    Raises:
        RoleError: no ``grader`` role and ``allow_self_grading`` is false.
    """
    role_models(grader_spec(allow_self_grading))


def require_reachable_quorum(quorum: int | None, grader_repeats: int) -> None:
    """Stop before any model call when ``quorum`` exceeds the grades the panel can give.

    The panel is the ``grader`` role's models (else the evaluated model) times
    ``grader_repeats``; call inside ``solve()``/``score()`` (roles are bound while it runs).

    Raises:
        ConfigError: naming the argument, the panel size and how it is made up.
    """
    if quorum is None:
        return
    bound = model_roles().get(GRADER_ROLE)
    models = len(bound) if isinstance(bound, list) else 1
    size = models * grader_repeats
    if not 1 <= quorum <= size:
        raise ConfigError(
            f"-T quorum={quorum} is outside 1..{size}: the grader panel gives {size} grades "
            f"({models} grader model(s) x grader_repeats={grader_repeats})"
        )


def criterion_id(listed: str) -> str:
    """A listed criterion id without the decoration graders copy from the prompt.

    The rubric shows ids as ``- [id] (3 pt) ...``, so graders often echo ``[id]`` or
    ```id```; both mean ``id``.
    """
    text = listed.strip().strip("`").strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].strip()
    return text


def panel_median(values: list[float], rule: MedianRule) -> Spread:
    """Median and quartiles of a panel's grades under ``rule`` (see ``MedianRule``)."""
    summary = spread(values)
    if rule == "midpoint" or summary.n == 0:
        return summary
    ordered = sorted(v for v in values if not math.isnan(v))
    return replace(summary, median=ordered[(len(ordered) - 1) // 2])


def format_levels(rubric: Rubric) -> str:
    """The rubric's levels as the grader reads them: a header per level, one line per criterion."""
    blocks = []
    for level in rubric.levels:
        title = f": {level.title}" if level.title else ""
        lines = [fill_template(LEVEL_HEADER, level=str(level.level), title=title)]
        for c in level.criteria:
            lines.append(
                fill_template(CRITERION_LINE, id=c.id, points=str(c.points), text=c.text.strip())
            )
            if c.alternatives:
                others = "; or ".join(a.strip() for a in c.alternatives)
                lines.append(fill_template(ALTERNATIVES_LINE, id=c.id, alternatives=others))
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
    repeats: int = LFT_GRADER_REPEATS,
    quorum: int | None = None,
    partial_credit: bool = True,
    cache: bool | CachePolicy = False,
    config: GenerateConfig | None = None,
    median: MedianRule = DEFAULT_MEDIAN_RULE,
) -> LftPanelGrade:
    """Grade ``solution`` with every panel member concurrently; medians over the valid grades."""
    prompt = grading_prompt(rubric, solution, partial_credit)

    def parse(text: str) -> LftGrade:
        return parse_lft_grade(text, rubric, partial_credit)

    panel = await run_panel(prompt, parse, graders, repeats, quorum, cache, config)
    valid = panel.valid
    return LftPanelGrade(
        panel=panel,
        end_to_end=panel_median([float(g.level) for g in valid], median),
        partial_credit=spread([g.partial_credit for g in valid]) if partial_credit else None,
    )
