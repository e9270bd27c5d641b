"""Which model plays a scorer's or solver's role, resolved when the task runs (Inspect's roles).

One precedence everywhere: an explicit task argument > the model role given to ``inspect eval
--model-role`` (or a sweep's ``model_roles``) > the documented default > a clear error. Roles
are bound per task while it runs, so :func:`role_models` is called inside ``solve()`` or
``score()``; :func:`roles_ready` is the first step of a task's solver chain, so a role that
cannot be played stops each sample before the evaluated model is called, with one sentence
naming the role and how to give it.

Inspect's CLI exits 0 when a task fails while it runs, so a task also checks its roles when it
is built, where it can: :func:`roles_bound_at_build` is true when the task is built inside an
eval that has already bound the evaluated model and the roles. Inspect's ``eval`` binds them
before it builds a task given by name (``inspect eval research_taste_evals/<task>``,
``eval("research_taste_evals/<task>")``) "to enable tasks that reference model roles in their
initialization" (``eval_resolve_tasks``); the public signals are
:func:`inspect_ai.model.model_roles` (non-empty) and :func:`inspect_ai.model.get_model` (the
active model). CONTRIBUTING names this behaviour and ``tests/core/test_roles_signal.py`` pins
it. A task built by calling its function (the Python API, ``research-taste sweep``, the demo)
learns its roles only when it runs: there the run-time check stays the only one (the log's
status is ``error``; Inspect's CLI exits 0 for it, ``research-taste sweep`` exits non-zero).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass

from inspect_ai.model import Model, get_model, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver
from rich.text import Text

from research_taste_evals.core.errors import UserError

# Outside an eval, ``get_model()`` builds the model this variable names instead of failing.
EVAL_MODEL_VARIABLE = "INSPECT_EVAL_MODEL"
# ``default=EVALUATED_MODEL``: the evaluated model itself plays the role.
EVALUATED_MODEL = "evaluated-model"


class RoleError(UserError):
    """A role is unbound and has no usable default (no key, no client package, or none at all)."""


@dataclass(frozen=True)
class RoleSpec:
    """A role as one task uses it.

    Attributes:
        role: The role name (``grader``, ``critic``, ``extractor``).
        explicit: Model(s) given as a task argument, which override the role.
        default: The documented default: a model name, ``EVALUATED_MODEL`` or None (required).
        parameter: The task argument that gives ``explicit`` (for the message).
        missing: The sentence to raise when the role is required and unbound.
    """

    role: str
    explicit: str | Sequence[str] | None = None
    default: str | None = None
    parameter: str | None = None
    missing: str | None = None


def role_models(spec: RoleSpec) -> list[Model]:
    """The model(s) playing ``spec.role`` in the running task (a list: a role may be a panel).

    Raises:
        RoleError: the role is unbound and has no default, or its default cannot be built.
    """
    if spec.explicit is not None:
        listed = [spec.explicit] if isinstance(spec.explicit, str) else list(spec.explicit)
        return [get_model(name) for name in listed]
    bound = model_roles().get(spec.role)
    if isinstance(bound, list):
        return list(bound)
    if bound is not None:
        return [bound]
    _refuse_misspelt_role(spec.role)
    if spec.default is None:
        raise RoleError(spec.missing or _how_to_bind(spec, f"model role '{spec.role}' is not set"))
    if spec.default == EVALUATED_MODEL:
        return [get_model()]
    try:
        return [get_model(spec.default)]  # runs the provider's key and package checks, no call
    except Exception as error:
        reason = plain_message(error)
        raise RoleError(
            _how_to_bind(
                spec,
                f"model role '{spec.role}' is not set and its default {spec.default} "
                f"cannot be used ({reason})",
            )
        ) from error


def _refuse_misspelt_role(role: str) -> None:
    """A bound role that is a near-miss of the unbound ``role`` (``grder``) is a typo: Inspect
    ignores a role no task reads, so the run would otherwise go on without (or with a default)."""
    close = difflib.get_close_matches(role, [r for r in model_roles() if r != role], 1, 0.75)
    if close:
        raise RoleError(
            f"--model-role {close[0]}: this task reads no role '{close[0]}'; did you mean "
            f"'{role}'? give --model-role {role}=<provider/model>."
        )


def roles_bound_at_build() -> bool:
    """Whether the task being built has its evaluated model and roles bound: it is built inside
    an eval (Inspect binds both before it builds a task by name; a task function called
    directly, before or after an eval, sees neither).

    Roles given (``--model-role``) are bound when ``model_roles()`` is not empty. Without any,
    the active model tells: ``get_model()`` returns it inside an eval and raises ``ValueError``
    outside one, unless ``INSPECT_EVAL_MODEL`` is set (then it would build that model, so the
    run-time check is left to do the work).
    """
    if model_roles():
        return True
    if os.environ.get(EVAL_MODEL_VARIABLE):
        return False
    try:
        get_model()  # the active (evaluated) model; raises ValueError outside an eval
    except ValueError:
        return False
    return True


def check_roles_at_build(*specs: RoleSpec) -> None:
    """When the task is built inside an eval (:func:`roles_bound_at_build`), resolve every
    role now, so that ``inspect eval`` stops with the sentence and a non-zero exit before any
    sample runs; otherwise :func:`roles_ready` checks them when the task runs."""
    if roles_bound_at_build():
        for spec in specs:
            role_models(spec)


@solver
def roles_ready(*specs: RoleSpec) -> Solver:
    """First step of a solver chain: resolve every role before the evaluated model is called."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for spec in specs:
            role_models(spec)
        return state

    return solve


def _how_to_bind(spec: RoleSpec, problem: str) -> str:
    hint = f"give --model-role {spec.role}=<provider/model>"
    if spec.parameter:
        hint += f" or -T {spec.parameter}=<provider/model>"
    return f"{problem}: {hint}."


def plain_message(error: BaseException) -> str:
    """The provider's complaint without rich markup, on one line (the one markup stripper)."""
    text = Text.from_markup(str(getattr(error, "message", "") or error)).plain
    return " ".join(text.split()).rstrip(".")
