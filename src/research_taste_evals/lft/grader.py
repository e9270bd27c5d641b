"""The Long-Form Task autograder: one grading call, its JSON grade, and the panel around it.

A grader steps through the rubric's cumulative levels and stops at the first unmet criterion
(the end-to-end level, 0-10), and lists the criteria the solution meets anywhere in the
flattened checklist (partial credit = points met / points available). See
:mod:`research_taste_evals.lft.prompts` for the procedure's source.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from inspect_ai.model import CachePolicy, GenerateConfig, Model, model_roles

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
from research_taste_evals.lft.parsing import LftGrade, parse_lft_grade
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
from research_taste_evals.lft.rubric import Rubric

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


def grader_spec(allow_self_grading: bool) -> RoleSpec:
    """The ``grader`` role of a Long-Form Task: required, unless self-grading is allowed."""
    return RoleSpec(
        GRADER_ROLE,
        default=EVALUATED_MODEL if allow_self_grading else None,
        missing=SELF_GRADING_MESSAGE,
        waived_by="allow_self_grading",
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
