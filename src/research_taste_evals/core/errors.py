"""Errors a user can fix (bad data, config, missing model role or key): one message, no traceback.

Inspect's ``PrerequisiteError`` is the exception its command line prints as a message alone
(``inspect eval`` exits 1 without a traceback). Every such error of this package derives from
:class:`UserError`, so a loader deep inside a task constructor needs no wrapping at the task
boundary, and ``research-taste`` catches the same class.

Inspect prints that message from its ``sys.excepthook`` through rich's global console, which
``--display none`` makes quiet, so a scheduled run failed with no word said. Inspect's own
answer for ``--json`` (``_json_prerequisite_errors_to_stderr`` in ``_cli/eval.py``) is to print
the message with the builtin ``print`` to stderr and exit non-zero; :func:`report_user_errors`
does the same for this package's errors in every display mode, in one place: an excepthook
installed when Inspect loads the package's entry point (``_registry.py``), before any task is
built. Other exceptions go to the hook that was there before (Inspect's).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.hooks import Hooks, RunEnd, hooks
from rich.markup import escape


class UserError(PrerequisiteError):
    """A mistake in the input or set-up, described in a few lines that name what to fix.

    Inspect renders ``message`` as rich markup; it is escaped so that a path such as
    ``levels[3].points`` prints as written. ``str(error)`` is the plain message.
    """

    def __init__(self, message: str) -> None:
        super().__init__(escape(message))
        self.args = (message,)

    def __str__(self) -> str:
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
        if isinstance(error, UserError):
            print(f"error: {error}", file=sys.stderr, flush=True)
            sys.exit(1)
        previous(kind, error, traceback)

    hook._research_taste_errors = True  # type: ignore[attr-defined]
    return hook


def report_user_errors() -> None:
    """Install :func:`stderr_hook` once per process, over the current ``sys.excepthook``
    (Inspect's, which it keeps for every other exception)."""
    if not getattr(sys.excepthook, "_research_taste_errors", False):
        sys.excepthook = stderr_hook(sys.excepthook)


@hooks(name="research_taste_user_errors", description="Print a task's user error on stderr.")
class UserErrorsOnStderr(Hooks):
    """A task stopped at run time by a :class:`UserError` (a model role that cannot be played,
    found in the first solver step before the evaluated model is called) prints its sentence
    on stderr too: Inspect shows a task's error only through its display (nothing under
    ``--display none``, a traceback panel otherwise)."""

    async def on_run_end(self, data: RunEnd) -> None:
        for log in data.logs:
            error = log.error
            if log.status == "error" and error is not None and _is_user_error(error.traceback):
                print(f"error: {error.message}", file=sys.stderr, flush=True)


def _is_user_error(traceback: str) -> bool:
    lines = [line for line in traceback.strip().splitlines() if line.strip()]
    kind = lines[-1].split(":", 1)[0].strip().rsplit(".", 1)[-1] if lines else ""
    return kind in _user_error_names(UserError)


def _user_error_names(kind: type[BaseException]) -> set[str]:
    return {kind.__name__}.union(*(_user_error_names(sub) for sub in kind.__subclasses__()))
