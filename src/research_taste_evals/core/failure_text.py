"""A provider's complaint in one sentence, without markup: the text of a user error that
quotes Inspect or a provider (``cli``, ``core/roles.py``). Text, not runtime: nothing here
changes how Inspect runs."""

from __future__ import annotations

from rich.text import Text


def plain_message(error: BaseException) -> str:
    """The provider's complaint without rich markup, on one line (the one markup stripper)."""
    text = Text.from_markup(str(getattr(error, "message", "") or error)).plain
    return " ".join(text.split()).rstrip(".")
