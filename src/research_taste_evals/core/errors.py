"""Errors a user can fix (bad data, config, missing model role or key): one message, no traceback.

Inspect's ``PrerequisiteError`` is the exception its command line prints as a message alone
(``inspect eval`` exits 1 without a traceback). Every such error of this package derives from
:class:`UserError`, so a loader deep inside a task constructor needs no wrapping at the task
boundary, and ``research-taste`` catches the same class.
"""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError
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
