"""User errors: one sentence on stderr, exit 1 (CONTRIBUTING.md, "The runtime layer")."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]


class UserError(Exception):
    """A mistake in the input or set-up, described in a sentence that names what to fix."""

    @property
    def message(self) -> str:
        return str(self.args[0])


class ConfigError(UserError, ValueError):
    """A parameter or setting that cannot work, with the value given and the values allowed."""


def stderr_hook(previous: ExceptHook) -> ExceptHook:
    """An excepthook printing a :class:`UserError` as ``error: <sentence>`` and exiting 1
    (Inspect's own prints through rich: silent under ``--display none``)."""

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if (user_error := find_user_error(error)) is None:
            return previous(kind, error, trace)
        say_user_error(user_error)
        sys.exit(1)

    hook._research_taste_errors = True  # type: ignore[attr-defined]
    return hook


def say_user_error(error: UserError) -> None:
    """``error: <sentence>`` on stderr: how every display mode shows a user error."""
    print(f"error: {error}", file=sys.stderr, flush=True)


def find_user_error(error: BaseException) -> UserError | None:
    """``error``, or the first :class:`UserError` in an exception group (a task group's)."""
    if isinstance(error, BaseExceptionGroup):
        return next(filter(None, map(find_user_error, error.exceptions)), None)
    return error if isinstance(error, UserError) else None


def report_user_errors() -> None:
    """Install :func:`stderr_hook` once per process (when a task is built, never on import)."""
    if not getattr(sys.excepthook, "_research_taste_errors", False):
        sys.excepthook = stderr_hook(sys.excepthook)


def is_inspect_prerequisite_error(error: BaseException) -> bool:
    """Whether ``error`` is Inspect's ``PrerequisiteError`` (a missing key or client package),
    by class name inside ``inspect_ai``: no public module exports it."""
    return any(
        cls.__name__ == "PrerequisiteError" and cls.__module__.startswith("inspect_ai.")
        for cls in type(error).__mro__
    )
