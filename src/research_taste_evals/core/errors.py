"""Errors a user can fix: one sentence, no traceback, exit 1 (replaced by: an Inspect CLI
that prints a user error class's message alone, in every display mode).

:func:`report_user_errors` (called when a task of the package is built, never on import)
chains an excepthook in front of Inspect's, which prints through rich (silent under
``--display none``); it acts on this package's :class:`UserError` only.
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
    """A parameter or setting that cannot work, with the value given and the values allowed."""


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
    """``error``, or the first :class:`UserError` in an exception group (a task group's)."""
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
