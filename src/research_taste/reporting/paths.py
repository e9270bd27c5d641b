"""No path of the building machine in a published report: local absolute paths -> placeholders.

A log records where its data came from as the run saw it: task arguments
(``-T data_path=/home/me/data``), provenance (``data_source: local:/home/me/data/x.json``,
an embedding cache file) and anything a task put in its metadata. A report publishes the logs'
figures, their ``inspect eval`` commands and copies of the logs, so every such path is replaced
by ``<local>/<its last part>`` (``<local>/x.json``): the file stays recognisable, the folder
layout of the machine does not travel. :func:`local_paths` finds the paths in a log's header
(and any other text), :func:`scrub_text` replaces the found ones in any text, and
:func:`scrubbed_log` rewrites a whole log (samples included) through Inspect's log model.

No key either: Inspect records a provider's error text as it is (a proxy may echo the request's
key in it), so everything published is also redacted here (``core/redaction.redact``: the
environment's key values and credential shapes), the copied logs string by string, after their
model arguments' keys (``-M api_key=...``) and those keys' values (``core/redaction.keyless_log``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from html import escape
from typing import Any

from inspect_ai.log import EvalLog

from research_taste_evals.core.redaction import keyless_log, redact, redact_strings

PLACEHOLDER = "<local>"
_SEGMENT = r"[^\s'\"<>|,;()\[\]{}/\\]+"
# An absolute local path standing at the start of a text or after a space, ``:``, ``=``,
# a quote, a bracket, ``,`` or ``;`` (``local:/home/me/x``, ``data_path=/srv/d``): POSIX with
# two segments or more (``/home/me``; ``https://host/x`` and ``#/logs/x`` are not paths),
# ``~/...``, ``file:///...`` and Windows drive paths.
_ABSOLUTE = re.compile(
    r"(?<![^\s:=\"'(\[,;])"
    rf"(?:file://)?(?:/(?!/){_SEGMENT}(?:/{_SEGMENT})+|~/{_SEGMENT}(?:/{_SEGMENT})*"
    rf"|[A-Za-z]:[\\/]{_SEGMENT}(?:[\\/]{_SEGMENT})*)/?"
)


def placeholder(path: str) -> str:
    """``<local>/<last part of path>`` (``<local>`` alone for a root-like path)."""
    name = re.split(r"[\\/]", path.rstrip("/\\"))[-1]
    return f"{PLACEHOLDER}/{name}" if name and not name.endswith(":") else PLACEHOLDER


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple, set)):
        for item in value:
            yield from _strings(item)


def local_paths(*values: Any) -> set[str]:
    """Every absolute local path in the strings of ``values`` (nested dicts/lists walked)."""
    return {match.group(0) for text in _strings(values) for match in _ABSOLUTE.finditer(text)}


def header_paths(log: EvalLog) -> set[str]:
    """The local paths a log's header records (task arguments, metadata, provenance)."""
    return local_paths(
        log.eval.task_args,
        log.eval.task_args_passed,
        log.eval.metadata,
        log.metadata,
        log.eval.task_file,
    )


def scrub_text(text: str, paths: Iterable[str] = (), html: bool = False) -> str:
    """``text`` with each of ``paths`` and any other absolute local path made a placeholder.

    The given paths are replaced first, longest first (so a file inside a data folder keeps
    its own name); in plain text (not ``html``) what the pattern still finds is replaced too.
    In an HTML page only the given paths are replaced, by the escaped placeholder (the page's
    own markup is never mistaken for a path).
    """
    text = str(redact(text))
    for path in sorted(set(paths), key=len, reverse=True):
        shown = placeholder(path)
        text = text.replace(path, escape(shown) if html else shown)
    if html:
        return text
    return _ABSOLUTE.sub(lambda match: placeholder(match.group(0)), text)


def scrub_value(value: Any, paths: Iterable[str] = ()) -> Any:
    """``value`` (a string, or dicts/lists of them) with every string through :func:`scrub_text`."""
    known = tuple(paths)
    if isinstance(value, str):
        return scrub_text(value, known)
    if isinstance(value, dict):
        return {key: scrub_value(item, known) for key, item in value.items()}
    if isinstance(value, list):
        return [scrub_value(item, known) for item in value]
    return value


def scrubbed_log(log: EvalLog, paths: Iterable[str] = ()) -> EvalLog:
    """A copy of ``log`` (header, samples, events) with its local paths made placeholders and
    every string redacted (module docstring).

    Only the paths its header and its samples' metadata record (and ``paths``) are replaced,
    wherever they occur: a model's answer that mentions some other path is transcript content
    and stays as it is.
    """
    log = keyless_log(log)
    recorded = header_paths(log) | local_paths([sample.metadata for sample in log.samples or []])
    known = sorted(recorded | set(paths), key=len, reverse=True)
    text = log.model_dump_json()
    for path in known:
        escaped = json.dumps(path)[1:-1]  # as the path reads inside a JSON string
        text = text.replace(escaped, json.dumps(placeholder(path))[1:-1])
    copy = EvalLog.model_validate(redact_strings(json.loads(text)))  # as redacted_log does
    copy.location = log.location
    return copy
