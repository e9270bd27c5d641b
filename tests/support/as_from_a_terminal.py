"""Start a subprocess that Ctrl-C (SIGINT) can stop, whatever the test run inherited.

A shell ignores SIGINT in a command it starts in the background without job control
(``pytest ... &`` in a script, a CI runner), and an ignored signal stays ignored across
``fork`` and ``exec``: Python then installs no KeyboardInterrupt handler, nor asyncio / anyio
their SIGINT handlers, so the interrupt tests would wait on a run that never hears the signal.
A user pressing Ctrl-C in a terminal runs with SIGINT at its default; so do these subprocesses.
"""

from __future__ import annotations

import sys

# Runs before the command replaces it (same pid): SIGINT back to its default, then exec.
_RESET_THEN_EXEC = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def as_from_a_terminal(command: list[str]) -> list[str]:
    """The command, launched with SIGINT at its default disposition (``command[0]`` a path)."""
    return [sys.executable, "-c", _RESET_THEN_EXEC, *command]
