"""Text windows and list parsing shared by the benchmarks.

Words are whitespace-separated tokens (``str.split()``), exactly as the AAAR-1.0 release code
counts them, and windows are re-joined with single spaces as it does.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

_NUMBERED_ITEM = re.compile(r"^\s*(?:[-*]\s*)?\(?(\d+)[.)]\s+(.*\S)\s*$")


def last_words(text: str, count: int) -> str:
    """The last ``count`` whitespace-separated words of ``text``, joined by single spaces."""
    if count <= 0:
        return ""
    return " ".join(text.split()[-count:])


def first_words(text: str, count: int) -> str:
    """The first ``count`` whitespace-separated words of ``text``, joined by single spaces."""
    if count <= 0:
        return ""
    return " ".join(text.split()[:count])


def numbered_items(text: str) -> list[str]:
    """Items of a numbered list ("1. foo", "2) bar"), in order, without their numbers."""
    items = []
    for line in text.splitlines():
        match = _NUMBERED_ITEM.match(line)
        if match:
            items.append(match.group(2))
    return items


def content_id(*parts: Any, length: int = 16) -> str:
    """A stable sample id: a hash of the sample's content, independent of load order."""
    payload = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:length]


def fill_template(template: str, **fields: str) -> str:
    """Fill ``{name}`` placeholders in one pass.

    Unlike ``str.format`` this leaves every other brace alone (LaTeX and JSON are full of them),
    and a value that itself contains ``{name}`` is never substituted again.

    Raises:
        KeyError: the template has no placeholder for one of ``fields``.
    """
    missing = [name for name in fields if "{" + name + "}" not in template]
    if missing:
        raise KeyError(f"template has no placeholder for {missing}")
    if not fields:
        return template
    pattern = re.compile("|".join(re.escape("{" + name + "}") for name in fields))
    return pattern.sub(lambda match: fields[match.group(0)[1:-1]], template)
