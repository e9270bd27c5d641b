"""Errors a user can fix (bad data, config, missing model role or key): one message, no traceback.

Every such error of this package derives from :class:`UserError`. Under ``inspect eval`` it
reaches ``sys.excepthook``; :func:`report_user_errors` chains a hook in front of the one already
there (Inspect's) that prints a :class:`UserError` once, as plain text on stderr, and exits 1,
in every display mode (Inspect's own hook prints through rich's console, which
``--display none`` silences). It is installed when one of this package's tasks is built
(:func:`research_taste_evals.core.task_entry.task_entry`), never on import, and acts on
this package's error classes only (``isinstance``): another package's exception, even one named
``DataError``, goes on to the previous hook untouched. ``research-taste`` catches the same class.
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
    """A task parameter or setting that cannot work (e.g. ``context_words=0``), named with the
    value given and the values allowed. A ``ValueError`` too, so callers that catch one still do.
    """


ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]


def stderr_hook(previous: ExceptHook) -> ExceptHook:
    """An excepthook that prints a :class:`UserError` once, as plain text on stderr, and exits
    1; any other exception goes to ``previous``."""

    def hook(
        kind: type[BaseException], error: BaseException, traceback: TracebackType | None
    ) -> None:
        user_error = find_user_error(error)
        if user_error is not None:
            print(f"error: {user_error}", file=sys.stderr, flush=True)
            sys.exit(1)
        previous(kind, error, traceback)

    hook._research_taste_errors = True  # type: ignore[attr-defined]
    return hook


def find_user_error(error: BaseException) -> UserError | None:
    """``error`` itself when it is a :class:`UserError`, else the first one inside it when it
    is an exception group (Inspect runs tasks in task groups, so an error raised while a task
    runs, e.g. by a model provider, reaches the hook wrapped in one), else None."""
    if isinstance(error, UserError):
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = find_user_error(inner)
            if found is not None:
                return found
    return None


def report_user_errors() -> None:
    """Install :func:`stderr_hook` once per process, in front of the current ``sys.excepthook``
    (which keeps every other exception). Called when a task of this package is built."""
    if not getattr(sys.excepthook, "_research_taste_errors", False):
        sys.excepthook = stderr_hook(sys.excepthook)


def is_inspect_prerequisite_error(error: BaseException) -> bool:
    """Whether ``error`` is Inspect's ``PrerequisiteError`` (a missing API key or client
    package, raised when a model is built), recognised by its class defined inside
    ``inspect_ai``: Inspect exports it from no public module."""
    return any(
        cls.__name__ == "PrerequisiteError" and cls.__module__.startswith("inspect_ai.")
        for cls in type(error).__mro__
    )
