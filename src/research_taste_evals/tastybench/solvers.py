"""TastyBench solvers: the judge's answer, the reading of its pick, and the extraction step.

- :func:`judge` asks the evaluated model the judge prompt (optionally with web search, citation
  sites blocked).
- :func:`read_choice` reads which project the answer picked (``parsing.py``: parser first, the
  ``extractor`` role for ambiguous answers, through ``core.grading``) and keeps the result in
  the sample store, so the transcript shows the extractor call under the sample and the scorer
  only turns the pick into numbers.
- :func:`generate_as_extractor` is the ``tastybench_extract`` task's step: the ``extractor``
  role writes a core idea or methods summary.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from inspect_ai.solver import Generate, Solver, TaskState, chain, solver, use_tools

from research_taste_evals.core.calls import reply_step
from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models
from research_taste_evals.core.solvers import generate_with_role
from research_taste_evals.tastybench.parsing import ChoiceMethod, ChoiceResult, extract_choice
from research_taste_evals.tastybench.websearch import guarded_web_search

EXTRACTOR_ROLE = "extractor"
CHOICE_STORE_KEY = "tastybench_choice"
# The sample's own ground truth (velocities of Project 1 and 2, as shown), which only the
# offline reference judge ``baseline/citation-oracle`` reads (the judged model never sees the
# store; the same values are in the sample's metadata).
TRUTH_STORE_KEY = "tastybench_truth"


@solver
def judge(web_search: bool = False) -> Solver:
    """The evaluated model answers the judge prompt (with guarded web search if asked)."""
    ask = chain(use_tools(guarded_web_search()), reply_step()) if web_search else reply_step()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        truth = [state.metadata.get("velocity_1"), state.metadata.get("velocity_2")]
        state.store.set(TRUTH_STORE_KEY, truth)
        return await ask(state, generate)

    return solve


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


def generate_as_extractor() -> Solver:
    """Generate with the ``extractor`` role (default: the task's model), cached."""
    return generate_with_role(EXTRACTOR_ROLE)
