"""LFT's nudge follow-up: a helper that sees the rubric gives the smallest hint towards the next
level, the model revises, the panel grades again, until the top level or the nudge cap; the
trajectory is recorded for the nudges-to-reach-10 metric. The other follow-ups are solvers.py.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

from inspect_ai.model import (
    CachePolicy,
    ChatMessageSystem,
    ChatMessageUser,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from research_taste_evals.core.grading import resolve_graders
from research_taste_evals.core.text import fill_template
from research_taste_evals.lft.dataset import RUN_KEY, run_cache
from research_taste_evals.lft.grader import (
    DEFAULT_MEDIAN_RULE,
    MedianRule,
    grade_solution,
)
from research_taste_evals.lft.prompts import (
    NUDGE_PROMPT,
    NUDGE_REQUIREMENT_LINE,
    NUDGE_REVISION_REQUEST,
    NUDGE_SYSTEM,
)
from research_taste_evals.lft.rubric import MAX_LEVEL, rubric_from_metadata
from research_taste_evals.lft.turns import (
    NUDGE_METADATA_KEY,
    critic_model,
    followup_message,
    last_answer,
)

DEFAULT_MAX_NUDGES = 10  # a cap, so a model that never improves cannot loop forever
DEFAULT_TOP_LEVEL = 10  # the LFT rubric scale; the nudge loop stops there
LevelOf = Callable[[TaskState], Awaitable[int | None]]
RequirementsOf = Callable[[TaskState, int], str]


@solver
def nudge(
    level_of: LevelOf,
    requirements_of: RequirementsOf,
    max_nudges: int = DEFAULT_MAX_NUDGES,
    top_level: int = DEFAULT_TOP_LEVEL,
) -> Solver:
    """Nudge the model up the rubric until it reaches ``top_level`` or ``max_nudges`` are used.

    After each answer ``level_of`` grades it (``None`` means the grading failed, which ends the
    loop and is recorded). Below the top, the critic sees ``requirements_of(state, level)`` (the
    next level's requirements) and gives a minimal hint; the model revises.

    Records ``state.metadata["nudges"]``: ``levels`` (one per graded answer), ``nudges`` (used),
    ``reached_top``, ``nudges_to_top`` (nudges used when the top was reached, else None),
    ``nudges_to_top_capped`` (the same, or ``max_nudges`` when never reached), ``max_nudges``
    and ``grading_failed``.

    Args:
        level_of: Grades the latest answer: its level 0..``top_level``, or None on failure.
        requirements_of: What the critic is shown, given the current level.
        max_nudges: The cap on nudges.
        top_level: The level that ends the loop.
    """
    if max_nudges < 0:
        raise ValueError(f"max_nudges must be >= 0, got {max_nudges}")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        critic = critic_model()
        levels: list[int] = []
        used = 0
        failed = False
        while True:
            level = await level_of(state)
            if level is None or not 0 <= level <= top_level:
                failed = True
                break
            levels.append(level)
            if level >= top_level or used >= max_nudges:
                break
            async with span(f"nudge {used + 1}", type="nudge"):
                hint = await critic.generate(
                    [
                        ChatMessageSystem(content=NUDGE_SYSTEM),
                        ChatMessageUser(
                            content=fill_template(
                                NUDGE_PROMPT,
                                task=state.input_text,
                                solution=last_answer(state),
                                level=str(level),
                                top_level=str(top_level),
                                requirements=requirements_of(state, level),
                            )
                        ),
                    ],
                )
            used += 1
            request = fill_template(NUDGE_REVISION_REQUEST, feedback=hint.completion)
            state.messages.append(
                followup_message(request, "nudge", used, critic=str(critic), from_level=level)
            )
            state = await generate(state)
        reached = bool(levels) and levels[-1] >= top_level and not failed
        state.metadata[NUDGE_METADATA_KEY] = {
            "levels": levels,
            "nudges": used,
            "reached_top": reached,
            "nudges_to_top": used if reached else None,
            "nudges_to_top_capped": used if reached else max_nudges,
            "max_nudges": max_nudges,
            "grading_failed": failed,
        }
        return state

    return solve


def panel_level_of(
    grader_repeats: int,
    quorum: int | None,
    cache: bool | CachePolicy = False,
    median: MedianRule = DEFAULT_MEDIAN_RULE,
) -> LevelOf:
    """Grade the latest answer with the ``grader`` panel (end-to-end only, no partial credit)."""

    async def level_of(state: TaskState) -> int | None:
        solution = last_answer(state).strip()
        if not solution:
            return 0  # a missing answer is level 0 by definition; no grader needed
        graded = await grade_solution(
            rubric_from_metadata(state.metadata),
            solution,
            resolve_graders(None),
            grader_repeats,
            quorum,
            partial_credit=False,
            cache=run_cache(cache, state.metadata.get(RUN_KEY)),
            median=median,
        )
        if not graded.panel.has_quorum:
            return None
        return math.floor(graded.end_to_end.median)

    return level_of


def next_level_requirements() -> RequirementsOf:
    """The criteria of the level above ``level``, one per line (what the nudge critic sees)."""

    def requirements_of(state: TaskState, level: int) -> str:
        rubric = rubric_from_metadata(state.metadata)
        target = min(level + 1, MAX_LEVEL)
        criteria = rubric.levels[target - 1].criteria
        return "\n".join(fill_template(NUDGE_REQUIREMENT_LINE, text=c.text) for c in criteria)

    return requirements_of
