"""Reading the judge's pick: the parser first, then the extractor model (``parsing.py`` is the
contract both read by).

:func:`read_choice` reads which project the judge's answer picked and keeps the result in the
sample store, so the transcript shows the extractor call under the sample and the scorer only
turns the pick into numbers. An ambiguous answer goes to the extractor with upstream's prompt,
through the one grader mechanism (``core.grading.grade_member``: a provider error or refusal is
a typed, counted failure, never a crashed sample), with the run's ``--cache`` under the
sample's own scope.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal, cast

from inspect_ai.model import Model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.cache_scope import scoped_cache
from research_taste_evals.core.grading import grade_member
from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models
from research_taste_evals.core.text import fill_template
from research_taste_evals.tastybench.parsing import (
    UnclearReason,
    parse_judge_answer,
    read_extractor_reply,
)
from research_taste_evals.tastybench.prompts import EXTRACT_CHOICE

ChoiceMethod = Literal["parser_then_extractor", "extractor", "parser"]
EXTRACTOR_ROLE = "extractor"
CHOICE_STORE_KEY = "tastybench_choice"
# The extractor's own cache scope: one entry per (sample, epoch) call, reused on a re-run.
EXTRACTOR_CACHE_SCOPE = "tastybench_extractor_call"


@dataclass(frozen=True)
class ChoiceResult:
    """The judge's pick: 1, 2, or None (unclear, with a reason) and how it was read."""

    choice: Literal[1, 2] | None
    method: Literal["parser", "extractor", "none"]
    unclear_reason: UnclearReason | None = None
    extractor_reply: str | None = None


async def extract_choice(
    answer: str, method: ChoiceMethod, extractor: Model | None, cache_scope: str | None = None
) -> ChoiceResult:
    """Decide the judge's pick from its ``answer`` (see the module docstring).

    Args:
        answer: The judge's final text.
        method: ``parser_then_extractor`` (default), ``extractor`` (every answer read by the
            extractor, as upstream) or ``parser`` (no model call; ambiguous -> unclear).
        extractor: The model that reads ambiguous answers (unused with ``parser``).
        cache_scope: This call's own cache scope under the run's ``--cache`` (e.g. sample id
            and epoch), so identical answers in different samples are read by separate,
            separately cached calls.
    """
    if not answer.strip():
        return ChoiceResult(None, "none", "empty")
    if method != "extractor":
        parsed = parse_judge_answer(answer)
        if parsed is not None:
            return ChoiceResult(parsed, "parser")
        if method == "parser" or extractor is None:
            return ChoiceResult(None, "none", "ambiguous")
    if extractor is None:
        raise ValueError("choice_method 'extractor' needs an extractor model")
    member = await grade_member(
        extractor,
        0,
        0,
        fill_template(EXTRACT_CHOICE, transcript=answer),
        read_extractor_reply,
        cache=scoped_cache(EXTRACTOR_CACHE_SCOPE, cache_scope) if cache_scope else False,
    )
    if member.failure == "model_error":
        return ChoiceResult(None, "extractor", "extractor_failed", member.detail)
    if member.failure == "refusal":
        return ChoiceResult(None, "extractor", "extractor_refused", member.completion or None)
    if member.failure == "unparseable":
        # read_extractor_reply raises with the UnclearReason as its message.
        return ChoiceResult(
            None, "extractor", cast(UnclearReason, member.detail), member.completion
        )
    choice = member.grade
    return ChoiceResult(
        choice, "extractor", None if choice else "extractor_unclear", member.completion
    )


async def read_pick(state: TaskState, choice_method: ChoiceMethod) -> ChoiceResult:
    """Read the judge's pick from ``state.output`` (the extractor is called if needed)."""
    extractor = (
        None
        if choice_method == "parser"
        else role_models(RoleSpec(EXTRACTOR_ROLE, default=EVALUATED_MODEL))[0]
    )
    return await extract_choice(
        state.output.completion,
        choice_method,
        extractor,
        cache_scope=f"{state.sample_id}/{state.epoch}",
    )


def stored_pick(state: TaskState) -> ChoiceResult | None:
    """The pick :func:`read_choice` stored for this sample, or None."""
    stored: dict[str, Any] | None = state.store.get(CHOICE_STORE_KEY)
    return ChoiceResult(**stored) if stored else None


@solver
def read_choice(choice_method: ChoiceMethod = "parser_then_extractor") -> Solver:
    """Read the judge's pick and store it (``CHOICE_STORE_KEY``) for the scorer."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        result = await read_pick(state, choice_method)
        state.store.set(CHOICE_STORE_KEY, asdict(result))
        return state

    return solve
