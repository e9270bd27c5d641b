"""Reading a log that may be unreadable (empty, truncated, text saved as ``.eval``): one place
for the errors such a file raises, so ``round score`` and the report's Rounds section name the
log file in one sentence instead of a traceback."""

from __future__ import annotations

import zipfile
from typing import Any

from research_taste_evals.core.data import DataError

# What Inspect's reader raises on a file that is not a whole log: a zip without its directory
# (ValueError "EOCD not found"), a cut member (BadZipFile, EOFError), a JSON log cut mid-way or
# not JSON (ValueError, UnicodeDecodeError), a log missing a field (pydantic: a ValueError).
UNREADABLE = (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile, UnicodeDecodeError)


def unreadable_reason(location: str, error: BaseException) -> str:
    """One sentence naming the log and why it could not be read."""
    detail = " ".join(str(error).split())[:160] or type(error).__name__
    return f"{location}: not a readable Inspect log ({type(error).__name__}: {detail})"


def read_log(location: Any, header_only: bool = False) -> Any:
    """``inspect_ai.log.read_eval_log(location)``, or a DataError naming the log file."""
    from inspect_ai.log import read_eval_log

    try:
        return read_eval_log(location, header_only=header_only)
    except UNREADABLE as error:
        name = getattr(location, "name", location)
        raise DataError(unreadable_reason(str(name), error)) from error
