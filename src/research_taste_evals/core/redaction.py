"""Credentials never reach a log, a score's detail, a summary or a report from this package's calls.

A provider (or a proxy) may echo the request's ``Authorization`` header in an error body; the
SDK puts that body in its exception, Inspect writes the exception into the model event, the
retry messages and the sample error (Inspect redacts nothing there), and a grader failure's
detail repeats it. Every ``model.generate`` of this package runs through a package-owned view of
the model (:func:`research_taste_evals.core.package_model.package_view`) whose provider call
applies :func:`redact_error` to every exception and error output before Inspect sees them, so
nothing downstream (transcript, ``.eval`` file, realtime sample buffer, the report's bundled
viewer copy of the logs) holds the key. Failure details are redacted too
(:mod:`research_taste_evals.core.failures`). Not covered: the evaluated model's turns through
Inspect's own ``generate`` (the task's model is shared with every task of the eval, so the
package does not wrap its provider): an error of that call is recorded as the provider raised it.

What counts as a credential: the values of the API-key variables the package reads (the keys
in ``.env.example``, and any ``*_API_KEY``/``*_TOKEN`` variable set), ``Bearer``/``Basic``
tokens and ``Authorization``/``api-key`` header values, ``sk-...``-shaped keys, and the key the
called model was configured with (``-M api_key=...``, a role's ``api_key``: its provider's
``ModelAPI.api_key``), whatever its shape.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[REDACTED]"
# The key variables .env.example lists (the package reads these), plus any *_API_KEY/_TOKEN.
KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "TAVILY_API_KEY")
KEY_VARIABLE_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET")
MIN_SECRET_CHARS = 8  # shorter values ("1", "true") are not keys and would redact everyday text
_PATTERNS = (
    # "Authorization: Bearer abc", "authorization": "abc", x-api-key=abc, api-key: abc
    re.compile(
        r"(?i)((?:authorization|x-api-key|api[-_]key|x-goog-api-key)[\"']?\s*[:=]\s*[\"']?)"
        r"(?:(?:bearer|basic)\s+)?[^\s\"',;}]+"
    ),
    # a token after Bearer/Basic has a digit or a symbol ("Basic considerations" is prose)
    re.compile(r"(?i)\b(bearer|basic)\s+(?=[A-Za-z._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}"),
    re.compile(r"\bsk-[A-Za-z0-9_-]{8,}"),
)
_MAX_DEPTH = 20  # nesting guard for redact_value


def _secret_values() -> list[str]:
    """The values of credential variables in the environment, longest first."""
    names = {name for name in os.environ if name.upper().endswith(KEY_VARIABLE_SUFFIXES)} | set(
        KEY_VARIABLES
    )
    values = {os.environ.get(name, "") for name in names}
    return sorted((v for v in values if len(v) >= MIN_SECRET_CHARS), key=len, reverse=True)


def _pattern_replacement(match: re.Match[str]) -> str:
    prefix = match.group(1) if match.re.groups and match.group(1) else ""
    if prefix.lower() in ("bearer", "basic"):
        return f"{prefix} {REDACTED}"
    return f"{prefix}{REDACTED}"


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every credential replaced by ``[REDACTED]``: the environment's keys, the
    credential shapes, and ``secrets`` (e.g. the ``api_key`` a model was configured with)."""
    if not text:
        return text
    given = [secret for secret in secrets if secret and len(secret) >= MIN_SECRET_CHARS]
    for secret in sorted({*given, *_secret_values()}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    for pattern in _PATTERNS:
        text = pattern.sub(_pattern_replacement, text)
    return text


def redact_value(value: Any, secrets: Iterable[str] = (), depth: int = 0) -> Any:
    """A JSON-like value (dict, list, str) with every string redacted (:func:`redact`)."""
    secrets = tuple(secrets)
    if depth > _MAX_DEPTH:
        return value
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {key: redact_value(item, secrets, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [redact_value(item, secrets, depth + 1) for item in value]
    return value


def redact_error(error: BaseException, secrets: Iterable[str] = ()) -> BaseException:
    """Redact ``error`` in place (its args, message and body) and its causes; returns it.

    ``error`` is a provider's (SDK's) exception, before Inspect has seen it."""
    secrets = tuple(secrets)
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current.args = tuple(redact_value(arg, secrets) for arg in current.args)
        for attribute in ("message", "body", "msg", "doc"):
            value = getattr(current, attribute, None)
            if isinstance(value, str | dict | list):
                # a read-only attribute keeps its text; str() and repr() read args, redacted above
                with contextlib.suppress(AttributeError, TypeError):
                    setattr(current, attribute, redact_value(value, secrets))
        current = current.__cause__ or current.__context__
    return error
