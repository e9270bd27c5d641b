"""Generic solvers that more than one benchmark chains."""

from __future__ import annotations

from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.roles import EVALUATED_MODEL, RoleSpec, role_models


@solver
def generate_with_role(role: str) -> Solver:
    """Generate with the model bound to ``role`` (default: the task's model).

    For steps whose model is a role rather than the evaluated model (an extractor that writes
    the texts another task reads). The call is cached as the run's ``--cache`` says.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = role_models(RoleSpec(role, default=EVALUATED_MODEL))[0]
        state.output = await model.generate(state.messages)
        if state.output.choices:  # a reply without choices appends nothing: an empty completion
            state.messages.append(state.output.message)
        return state

    return solve
