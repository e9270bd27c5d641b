"""Task arguments checked against the task's signature: one sentence per mistake (replaced by:
Inspect checking ``-T`` values against annotations and refusing names a task does not take).

``-T context_words=many`` arrives as ``"many"`` (YAML). :func:`check_task_arguments` (sweep
files; every task through ``core.task_entry``) checks values against ``Literal``/``bool``/
``int``/``float`` (``| None``) and bounds. Inspect hands a task names it does not take only
through its own ``**kwargs`` (``task_create``): each task declares it and calls
:func:`refuse_unknown_arguments` first.
"""

from __future__ import annotations

import difflib
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal

from research_taste_evals.core.errors import ConfigError

Bounds = Mapping[str, tuple[float | None, float | None]]


def _parameters(fn: Callable[..., Any]) -> list[str]:
    named = inspect.signature(inspect.unwrap(fn)).parameters.values()
    return [p.name for p in named if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def refuse_unknown_arguments(fn: Callable[..., Any], unknown: Mapping[str, Any]) -> None:
    """Refuse any name in ``unknown`` (a task's ``**kwargs``), suggesting the closest one."""
    if not unknown:
        return
    known = sorted(_parameters(fn))
    names = sorted(unknown)
    close = difflib.get_close_matches(names[0], known, 1, 0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    task = getattr(inspect.unwrap(fn), "__name__", "task")
    raise ConfigError(f"{task} has no argument(s) {names}{hint}; its arguments: {known}.")


def check_task_arguments(
    fn: Callable[..., Any], arguments: Mapping[str, Any], bounds: Bounds | None = None
) -> None:
    """Refuse the first argument ``fn`` does not take or cannot use (``bounds``: inclusive
    ``(minimum, maximum)`` per argument, ``None`` leaving a side open)."""
    known = _parameters(fn)
    refuse_unknown_arguments(fn, {k: v for k, v in arguments.items() if k not in known})
    task = getattr(inspect.unwrap(fn), "__name__", "task")
    hints = typing.get_type_hints(inspect.unwrap(fn))
    for name, value in arguments.items():
        allowed = _allowed(hints.get(name))
        if allowed is not None and not any(_fits(value, option) for option in allowed):
            shown = ", ".join(_show(option) for option in allowed)
            raise ConfigError(f"{task}: argument '{name}' got {value!r}; allowed: {shown}.")
        low, high = (bounds or {}).get(name, (None, None))
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        if numeric and ((low is not None and value < low) or (high is not None and value > high)):
            shown = f"{low} to {high}" if None not in (low, high) else _open_range(low, high)
            raise ConfigError(f"{task}: argument '{name}' got {value!r}; allowed: {shown}.")


def _allowed(hint: Any) -> list[Any] | None:
    """The options of a checkable annotation (literal values, types, None); None: unchecked."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return list(typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        options: list[Any] = []
        for member in typing.get_args(hint):
            inner = [None] if member is type(None) else _allowed(member)
            if inner is None:
                return None  # e.g. str | list[str]: any text passes here
            options += inner
        return options
    return [hint] if hint in (bool, int, float) else None


def _fits(value: Any, option: Any) -> bool:
    if option in (bool, int, float, None):
        kinds = {bool: bool, int: int, float: int | float, None: type(None)}[option]
        return isinstance(value, kinds) and (option is bool or not isinstance(value, bool))
    return type(value) is type(option) and value == option


def _show(option: Any) -> str:
    names = {bool: "true or false", int: "an integer", float: "a number", None: "none"}
    return names[option] if option in (bool, int, float, None) else repr(option)


def _open_range(low: float | None, high: float | None) -> str:
    return f"{low} or more" if low is not None else f"{high} or less"
