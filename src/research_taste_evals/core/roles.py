"""Model roles, read inside ``solve()``/``score()``; a missing or misspelt one is one sentence,
raised by the task's first solver step before any model call: the log's error under
``inspect eval`` (CONTRIBUTING.md, "The runtime layer"). Building a task reads no model."""

from __future__ import annotations

import difflib
import weakref
from collections.abc import Callable, Sequence

from inspect_ai.model import Model, get_model, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import display_type

from research_taste_evals.core.errors import UserError, say_user_error
from research_taste_evals.core.failure_text import plain_message
from research_taste_evals.core.spec import RoleSpec  # declared with the task's spec

_TOLD: weakref.WeakSet[Generate] = weakref.WeakSet()  # runs whose stop sentence is on stderr
EVALUATED_MODEL = "evaluated-model"  # ``default=EVALUATED_MODEL``: the evaluated model plays it


class RoleError(UserError):
    """A role is unbound and has no usable default (no key, no client package, or none)."""


def role_models(spec: RoleSpec) -> list[Model]:
    """The model(s) playing ``spec.role`` in the running task (a role may be a panel)."""
    if spec.explicit is not None:
        listed = [spec.explicit] if isinstance(spec.explicit, str) else list(spec.explicit)
        return [get_model(name) for name in listed]
    bound = model_roles().get(spec.role)
    if bound is not None:
        return list(bound) if isinstance(bound, list) else [bound]
    # Inspect ignores a role no task reads: a near miss (``grder``) would run without it.
    close = difflib.get_close_matches(spec.role, [r for r in model_roles()], 1, 0.75)
    if close:
        raise RoleError(
            f"--model-role {close[0]}: this task reads no role '{close[0]}'; did you mean "
            f"'{spec.role}'? give --model-role {spec.role}=<provider/model>."
        )
    hint = f"give --model-role {spec.role}=<provider/model>" + (
        f" or -T {spec.parameter}=<provider/model>" if spec.parameter else ""
    )
    if spec.default is None:
        raise RoleError(spec.missing or f"model role '{spec.role}' is not set: {hint}.")
    default = None if spec.default == EVALUATED_MODEL else spec.default
    try:  # builds the model: the provider's key and package checks, no call
        return [get_model(role=spec.role, default=default)]
    except Exception as error:
        raise RoleError(
            f"model role '{spec.role}' is not set and its default {spec.default} cannot be "
            f"used ({plain_message(error)}): {hint}."
        ) from error


def check_roles(specs: Sequence[RoleSpec], checks: Sequence[Callable[[], None]]) -> None:
    """Resolve every role (no call), then run ``checks``: a :class:`UserError` names the fix."""
    for spec in specs:
        role_models(spec)
    for check in checks:
        check()


@solver
def roles_ready(*specs: RoleSpec, checks: Sequence[Callable[[], None]] = ()) -> Solver:
    """First step of a solver chain: resolve every role, then run ``checks`` (run-time argument
    checks that read roles), before the evaluated model is called. A :class:`UserError` here
    stops the sample; its one sentence is the log's error (Inspect's display and exit code).
    Inspect has no public way to refuse a task before it runs (CONTRIBUTING.md)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        try:
            check_roles(specs, checks)
        except UserError as error:
            # The other displays show a task's error; say it once a run (one ``generate`` a run).
            if display_type() == "none" and generate not in _TOLD:
                _TOLD.add(generate)
                say_user_error(error)
            raise
        return state

    return solve
