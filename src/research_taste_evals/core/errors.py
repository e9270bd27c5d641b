"""User errors: a mistake in the input or set-up, in one sentence that names what to fix.

``research-taste`` prints one as ``error: <sentence>`` and exits 1; under ``inspect eval`` it is
Inspect's to show (its display, its exit code): the package installs no hook
(CONTRIBUTING.md, "The runtime layer")."""

from __future__ import annotations

import sys


class UserError(Exception):
    """A mistake in the input or set-up, described in a sentence that names what to fix."""

    @property
    def message(self) -> str:
        return str(self.args[0])


class ConfigError(UserError, ValueError):
    """A parameter or setting that cannot work, with the value given and the values allowed."""


def say_user_error(error: UserError) -> None:
    """``error: <sentence>`` on stderr: how every display mode shows a user error."""
    print(f"error: {error}", file=sys.stderr, flush=True)


def is_inspect_prerequisite_error(error: BaseException) -> bool:
    """Whether ``error`` is Inspect's ``PrerequisiteError`` (a missing key or client package),
    by class name inside ``inspect_ai``: no public module exports it."""
    return any(
        cls.__name__ == "PrerequisiteError" and cls.__module__.startswith("inspect_ai.")
        for cls in type(error).__mro__
    )
