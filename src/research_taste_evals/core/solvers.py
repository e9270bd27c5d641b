"""Generic solvers that more than one benchmark chains."""

from __future__ import annotations

from inspect_ai.model import CachePolicy
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.calls import generate_reply
from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models


@solver
def generate_with_role(role: str) -> Solver:
    """Generate with the model bound to ``role`` (default: the task's model), cached for good.

    For steps whose model is a role rather than the evaluated model (an extractor that writes
    the texts another task reads): the answer is cached with no expiry, so re-running the step
    on the same inputs costs no call.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = role_models(RoleSpec(role, default=EVALUATED_MODEL))[0]
        output = await generate_reply(model, state.messages, cache=CachePolicy(expiry=None))
        state.output = output
        state.messages.append(output.message)
        return state

    return solve
