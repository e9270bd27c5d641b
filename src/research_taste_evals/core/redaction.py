"""Credentials never reach a log, a score's detail or a report from this package's calls
(replaced by: Inspect redacting credentials in the errors it records).

A provider or proxy may echo the ``Authorization`` header in an error body; Inspect records
the exception as raised (model event, retry message, sample error). The package's view of a
model (core/package_model.py) redacts every error of its calls before Inspect sees it, and
failure details are redacted (core/failures.py). Not covered: the evaluated model's turns
through Inspect's own ``generate`` (a model every task of the eval shares). Credentials: the
values of ``*_API_KEY``/``*_TOKEN``/``*_SECRET`` variables, ``Bearer``/``Basic`` tokens,
``Authorization``/``api-key`` header values, ``sk-...`` keys, and a model's own ``api_key``.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[REDACTED]"
# The key variables the package reads (.env.example) and any other of these shapes.
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
    names = [name for name in os.environ if name.upper().endswith(KEY_VARIABLE_SUFFIXES)]
    values = {os.environ[name] for name in names}
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
