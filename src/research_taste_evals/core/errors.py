"""Errors a user can fix (bad data, config, a missing role or key): one sentence, no traceback
(replaced by: an Inspect CLI that prints an exception's message alone for a user error class).

Under ``inspect eval`` such an error reaches ``sys.excepthook``; :func:`report_user_errors`
(installed when one of this package's tasks is built, never on import) chains a hook in front
of Inspect's that prints a :class:`UserError` once on stderr and exits 1, in every display mode
(Inspect's own prints through rich, which ``--display none`` silences). Any other exception,
even one named ``DataError`` from another package, goes on to the previous hook untouched.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any


class UserError(Exception):
    """A mistake in the input or set-up, described in a sentence that names what to fix."""

    def __init__(self, message: str) -> None:
        super().__init__(message)

    @property
    def message(self) -> str:
        return str(self.args[0])


class ConfigError(UserError, ValueError):
    """A task parameter or setting that cannot work, named with the value given and the values
    allowed (a ``ValueError`` too, so callers that catch one still do)."""


ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]


def stderr_hook(previous: ExceptHook) -> ExceptHook:
    """An excepthook printing a :class:`UserError` as ``error: <sentence>`` and exiting 1."""

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        user_error = find_user_error(error)
        if user_error is None:
            previous(kind, error, trace)
            return
        print(f"error: {user_error}", file=sys.stderr, flush=True)
        sys.exit(1)

    hook._research_taste_errors = True  # type: ignore[attr-defined]
    return hook


def find_user_error(error: BaseException) -> UserError | None:
    """``error`` when it is a :class:`UserError`, else the first one inside an exception group
    (Inspect runs tasks in task groups), else None."""
    if isinstance(error, UserError):
        return error
    if isinstance(error, BaseExceptionGroup):
        return next(filter(None, map(find_user_error, error.exceptions)), None)
    return None


def report_user_errors() -> None:
    """Install :func:`stderr_hook` once per process, in front of the current excepthook."""
    if not getattr(sys.excepthook, "_research_taste_errors", False):
        sys.excepthook = stderr_hook(sys.excepthook)


def is_inspect_prerequisite_error(error: BaseException) -> bool:
    """Whether ``error`` is Inspect's ``PrerequisiteError`` (a missing key or client package),
    recognised by its class name inside ``inspect_ai``: no public module exports it."""
    return any(
        cls.__name__ == "PrerequisiteError" and cls.__module__.startswith("inspect_ai.")
        for cls in type(error).__mro__
    )
