"""Check, when a task is built, that a scorer's model role or its default model can be used.

A judge that defaults to a hosted model (``role`` unset) otherwise fails at its first call,
after the evaluated model has already answered every sample, and ``inspect eval`` still exits
0. Inspect sets the run's model (and its roles) before it builds the tasks named on its command
line, in ``eval()`` or in a sweep, so the check runs in the task constructor, before any call.
"""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.model import get_model, model_roles
from inspect_ai.model._model import active_model
from rich.text import Text

from research_taste_evals.core.errors import UserError


class RoleError(UserError):
    """A scorer's model role is unset and its default model cannot be used (no key, no package)."""


def require_role_or_key(
    role: str, default_model: str, *, explicit: str | None = None, parameter: str | None = None
) -> str:
    """Return which model will play ``role``; raise now when it cannot be reached.

    Precedence as in the scorers: an explicit task parameter, then the ``role`` given to
    ``inspect eval --model-role``, then ``default_model``. Only the default is checked here:
    building it runs the provider's own prerequisite checks (its API key variable, its
    client package) without making a call.

    Args:
        role: The model role the scorer reads (e.g. ``"grader"``).
        default_model: The documented default, e.g. ``"openai/gpt-4o-2024-08-06"``.
        explicit: A model given as a task parameter, which overrides the role.
        parameter: That task parameter's name, for the message (e.g. ``"judge_model"``).

    Raises:
        RoleError: naming the role, the default model and the provider's complaint.
    """
    if explicit is not None:
        return explicit
    if role in model_roles():
        return f"role:{role}"
    if active_model() is None:
        # Built outside an eval (a Task object handed to eval() later with its roles): the
        # roles are not known yet, so the scorer's own precedence decides at score time.
        return default_model
    try:
        get_model(default_model)
    except PrerequisiteError as error:
        raise RoleError(
            f"model role '{role}' is not set and its default {default_model} cannot be used: "
            f"{_plain(error)}\nGive one with --model-role {role}=<provider/model>"
            + (f" or -T {parameter}=<provider/model>." if parameter else ".")
        ) from error
    return default_model


def _plain(error: PrerequisiteError) -> str:
    """The provider's message without its rich markup, on one line."""
    text = Text.from_markup(str(getattr(error, "message", "") or error)).plain
    return " ".join(text.split())
