"""Failure records in words: an exception -> "provider (host): HTTP status Type: message"
(replaced by: Inspect naming provider, host and status in the errors it raises).

A call that fails after Inspect's retries raises tenacity's ``RetryError`` (a ``Future``
inside), or an ``ExceptionGroup`` from a task group, whose ``repr`` says nothing a reader can
act on: :func:`describe_error` unwraps them and names the SDK, host, status and message.
"""

from __future__ import annotations

import sys
from concurrent.futures import Future
from typing import Any

from research_taste_evals.core.redaction import redact

MAX_MESSAGE_CHARS = 300  # a record is read by people: keep the server's message, not a page
MAX_UNWRAP_DEPTH = 10  # wrappers never nest deeper in practice; guards against cycles


def unwrap_error(error: BaseException) -> BaseException:
    """The last attempt's exception under tenacity's ``RetryError``s (groups left whole)."""
    for _ in range(MAX_UNWRAP_DEPTH):
        last = getattr(error, "last_attempt", None)
        if not (isinstance(last, Future) and last.done() and not last.cancelled()):
            break
        inner = last.exception(timeout=0)
        if inner is None:
            break
        error = inner
    return error


def _named(error: BaseException, attribute: str) -> str:
    value = getattr(error, attribute, None)  # set by MalformedResponseError (package_model)
    return value if isinstance(value, str) else ""


def _where(error: BaseException) -> str:
    """``provider (host)``: the SDK that raised it (not the standard library's), its host."""
    root = type(error).__module__.split(".")[0]
    stdlib = root == "builtins" or root in sys.stdlib_module_names
    provider = _named(error, "provider") or ("" if stdlib else root)
    url = getattr(getattr(error, "request", None), "url", None)
    host, port = getattr(url, "host", None), getattr(url, "port", None)
    host = _named(error, "host") or (f"{host}:{port}" if host and port else str(host or ""))
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


def describe_error(error: BaseException) -> str:
    """One line saying what failed, e.g. ``openai (api.openai.com): HTTP 500
    InternalServerError: server error``; an exception group lists each distinct member."""
    return redact(_describe(unwrap_error(error)))


def _describe(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup):
        parts = dict.fromkeys(_describe(unwrap_error(m)) for m in error.exceptions)
        return "; ".join(parts) or f"{type(error).__name__}: (empty group)"
    status = getattr(error, "status_code", None)
    status = (
        getattr(getattr(error, "response", None), "status_code", None) if status is None else status
    )
    head = (
        f"HTTP {status} {type(error).__name__}" if isinstance(status, int) else type(error).__name__
    )
    where = _where(error)
    return f"{where}: {head}: {_message(error)}" if where else f"{head}: {_message(error)}"
