"""Failures in words: the one line a failed call leaves in a score or a report, and a
provider's complaint without markup. Text, not runtime: nothing here changes how Inspect runs."""

from __future__ import annotations

import sys
from typing import Any

from rich.text import Text

from research_taste_evals.core.redaction import redact, unwrap_error

MAX_MESSAGE_CHARS = 300  # a record is read by people: keep the server's message, not a page


def describe_error(error: BaseException) -> str:
    """One redacted line, e.g. ``openai (api.openai.com): HTTP 500 InternalServerError: server
    error``; an exception group lists each distinct member."""
    return str(redact(_describe(unwrap_error(error))))


def _describe(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup):
        parts = dict.fromkeys(_describe(unwrap_error(m)) for m in error.exceptions)
        return "; ".join(parts) or f"{type(error).__name__}: (empty group)"
    status = getattr(error, "status_code", None)
    if status is None:
        status = getattr(getattr(error, "response", None), "status_code", None)
    head = type(error).__name__
    head = f"HTTP {status} {head}" if isinstance(status, int) else head
    where = _where(error)
    return f"{where}: {head}: {_message(error)}" if where else f"{head}: {_message(error)}"


def _where(error: BaseException) -> str:
    """``provider (host)``: the SDK that raised it (not the standard library's), its host."""
    root = type(error).__module__.split(".")[0]
    stdlib = root == "builtins" or root in sys.stdlib_module_names
    named = {a: v for a in ("provider", "host") if isinstance(v := getattr(error, a, None), str)}
    provider = named.get("provider") or ("" if stdlib else root)
    url = getattr(getattr(error, "request", None), "url", None)
    host, port = getattr(url, "host", None), getattr(url, "port", None)
    host = named.get("host") or (f"{host}:{port}" if host and port else str(host or ""))
    return f"{provider} ({host})" if provider and host else provider or host


def _message(error: BaseException) -> str:
    body: Any = getattr(error, "body", None)
    nested = body.get("error", body) if isinstance(body, dict) else None
    if isinstance(nested, dict):
        nested = nested.get("message")
    text = " ".join((nested if isinstance(nested, str) else str(error)).split())
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[: MAX_MESSAGE_CHARS - 3] + "..."
    return text or "(no message)"


def plain_message(error: BaseException) -> str:
    """The provider's complaint without rich markup, on one line (the one markup stripper)."""
    text = Text.from_markup(str(getattr(error, "message", "") or error)).plain
    return " ".join(text.split()).rstrip(".")
