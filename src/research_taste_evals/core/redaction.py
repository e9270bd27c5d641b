"""No key in what the package publishes (CONTRIBUTING.md, "The runtime layer").

Inspect records a provider's error text as it is, and a proxy may echo the request's key in
it; every log the package writes (a round's scored log, the report's viewer bundle) goes
through :func:`redacted_log`, and every other text it publishes through :func:`redact`."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[REDACTED]"
KEY_VARIABLE_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET")  # .env.example's keys and any alike
MIN_SECRET_CHARS = 8  # shorter values ("1", "true") are not keys and would redact everyday text
MAX_DEPTH = 20  # nesting guard (JSON-like values)
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


def _replacement(match: re.Match[str]) -> str:
    prefix = match.group(1) if match.re.groups and match.group(1) else ""
    return f"{prefix} {REDACTED}" if prefix.lower() in ("bearer", "basic") else prefix + REDACTED


def redact(value: Any, secrets: Iterable[str] = (), depth: int = 0) -> Any:
    """``value`` (text, or JSON-like dict/list) with every credential replaced by ``[REDACTED]``:
    the environment's key values, the credential shapes, and ``secrets`` (a model's api_key)."""
    secrets = tuple(secrets)
    if isinstance(value, dict | list) and depth <= MAX_DEPTH:
        items = value.items() if isinstance(value, dict) else enumerate(value)
        redacted = {key: redact(item, secrets, depth + 1) for key, item in items}
        return redacted if isinstance(value, dict) else list(redacted.values())
    if not isinstance(value, str) or not value:
        return value
    keys = {os.environ[n] for n in os.environ if n.upper().endswith(KEY_VARIABLE_SUFFIXES)}
    for secret in sorted({*secrets, *keys}, key=len, reverse=True):
        if len(secret) >= MIN_SECRET_CHARS:
            value = value.replace(secret, REDACTED)
    for pattern in _PATTERNS:
        value = pattern.sub(_replacement, value)
    return value


# A model argument that holds a credential (``-M api_key=...``, ``-M token=...``): only the model
# arguments are searched by name, since a transcript's own ``token`` fields (logprobs) are text.
KEY_ARGUMENT = re.compile(r"(?i)(?:^|[_-])(?:api[_-]?key|key|token|secret|password)$")


def _key_arguments(log: Any) -> list[dict[str, Any]]:
    """The model-argument dicts of a log: the evaluated model's and each role's (a role may be
    a panel: a list of models)."""
    found = [log.eval.model_args]
    for configs in (log.eval.model_roles or {}).values():
        for config in configs if isinstance(configs, list) else [configs]:
            found.append(getattr(config, "args", None))
    return [args for args in found if isinstance(args, dict)]


def keyless_log(log: Any) -> Any:
    """A copy of an Inspect ``EvalLog`` with its model arguments' keys ``[REDACTED]`` and each
    key's value redacted wherever the log repeats it (a header, an event, a provider's error).

    Every log the package copies (a round's scored log, the report's viewer bundle) goes through
    this: Inspect records ``-M api_key=...`` in the log as given.
    """
    copy = log.model_copy(deep=True)
    secrets: set[str] = set()
    for args in _key_arguments(copy):
        for name, value in list(args.items()):
            if KEY_ARGUMENT.search(str(name)) and value not in (None, ""):
                secrets.add(str(value))
                args[name] = REDACTED
    if not secrets:
        return copy
    text = copy.model_dump_json()
    for secret in sorted(secrets, key=len, reverse=True):
        if len(secret) < MIN_SECRET_CHARS:  # would redact everyday text: the argument alone
            continue
        text = text.replace(json.dumps(secret)[1:-1], REDACTED)
    out = type(log).model_validate_json(text)
    out.location = log.location
    return out


def redact_strings(value: Any) -> Any:
    """Every string of a JSON-like ``value`` through :func:`redact` (no depth limit: a log
    nests deeper than :data:`MAX_DEPTH`)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: redact_strings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [redact_strings(item) for item in value]
    return value


def redacted_log(log: Any) -> Any:
    """A copy of an Inspect ``EvalLog`` as every writer of the package writes it: its model
    arguments' keys gone (:func:`keyless_log`) and every string, samples and events included,
    through :func:`redact` (a provider that echoes the request's ``Authorization`` header or
    key in its error text puts it in the samples' errors and events)."""
    keyless = keyless_log(log)
    out = type(log).model_validate(redact_strings(json.loads(keyless.model_dump_json())))
    out.location = log.location
    return out
