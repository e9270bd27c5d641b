"""Failure records in words: an exception -> "provider (host): HTTP status Type: message".

A model call that fails after its retries reaches a scorer as a wrapper (tenacity's
``RetryError`` holding a ``Future``, an ``ExceptionGroup`` from a task group), whose ``repr``
says nothing a reader can act on. :func:`describe_error` unwraps those to the error underneath
and names what failed: the SDK that raised it, the host it called, the HTTP status, and the
server's own message when the response carried one.
"""

from __future__ import annotations

import sys
from concurrent.futures import Future
from typing import Any

from research_taste_evals.core.redaction import redact

MAX_MESSAGE_CHARS = 300  # a record is read by people: keep the server's message, not a page
MAX_UNWRAP_DEPTH = 10  # wrappers never nest deeper in practice; guards against cycles
GROUP_JOINER = "; "


def _inner(error: BaseException) -> BaseException | None:
    """The exception a wrapper holds (``None`` when ``error`` is not a known wrapper)."""
    last_attempt = getattr(error, "last_attempt", None)  # tenacity.RetryError
    if isinstance(last_attempt, Future) and last_attempt.done():
        try:
            return last_attempt.exception(timeout=0)
        except BaseException:  # a cancelled attempt has no exception to report
            return None
    return None


def unwrap_error(error: BaseException) -> BaseException:
    """The innermost meaningful exception under retry wrappers (groups are left whole)."""
    for _ in range(MAX_UNWRAP_DEPTH):
        inner = _inner(error)
        if inner is None:
            return error
        error = inner
    return error


def _provider(error: BaseException) -> str:
    """The library that raised ``error`` (``openai``, ``anthropic``, ``httpx``; '' for stdlib),
    or the provider an error names itself (core/transient.py's malformed responses)."""
    named = getattr(error, "provider", None)
    if isinstance(named, str) and named:
        return named
    root = type(error).__module__.split(".")[0]
    if root == "builtins" or root in sys.stdlib_module_names:
        return ""
    return root


def _host(error: BaseException) -> str:
    named = getattr(error, "host", None)
    if isinstance(named, str) and named:
        return named
    request = getattr(error, "request", None)
    url = getattr(request, "url", None)
    host = getattr(url, "host", None)
    port = getattr(url, "port", None)
    if not host:
        return ""
    return f"{host}:{port}" if port else str(host)


def _status(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None)
    if status is None:
        status = getattr(getattr(error, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def _body_message(body: Any) -> str:
    """The server's message from an error body: ``{"error": {"message": ...}}`` or similar."""
    if isinstance(body, dict):
        nested = body.get("error", body)
        if isinstance(nested, dict) and isinstance(nested.get("message"), str):
            return str(nested["message"])
        if isinstance(nested, str):
            return nested
    return ""


def _message(error: BaseException) -> str:
    text = _body_message(getattr(error, "body", None)) or str(error).strip()
    if not text:
        return "(no message)"
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 3] + "..."


def describe_error(error: BaseException) -> str:
    """One line saying what failed: provider and host, HTTP status, exception type, message.

    Examples: ``openai (api.openai.com): HTTP 500 InternalServerError: server error`` and
    ``JSONDecodeError: Expecting value: line 1 column 1 (char 0)``. An exception group lists
    each distinct member, joined with ``; ``.
    """
    return redact(_describe(unwrap_error(error)))


def _describe(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup):
        parts = dict.fromkeys(_describe(unwrap_error(m)) for m in error.exceptions)
        return GROUP_JOINER.join(parts) or f"{type(error).__name__}: (empty group)"
    provider, host, status = _provider(error), _host(error), _status(error)
    where = f"{provider} ({host})" if provider and host else provider or host
    head = f"HTTP {status} {type(error).__name__}" if status else type(error).__name__
    described = f"{head}: {_message(error)}"
    return f"{where}: {described}" if where else described
