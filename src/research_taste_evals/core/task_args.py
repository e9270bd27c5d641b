"""``-T`` values checked, one sentence a mistake (CONTRIBUTING.md, "The runtime layer");
:func:`task_entry` goes under every ``@task`` of the package. An unknown ``-T`` name is
Inspect's: it warns and drops it (``task_create``); a sweep file's is refused here."""

from __future__ import annotations

import difflib
import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, ParamSpec, TypeVar

from research_taste_evals.core.demo import resolve_demo_arguments
from research_taste_evals.core.errors import ConfigError

Bounds = Mapping[str, tuple[float | None, float | None]]  # inclusive; None leaves a side open
P = ParamSpec("P")
R = TypeVar("R")
_SHOWN = {bool: "true or false", int: "an integer", float: "a number", None: "none"}


def task_entry(bounds: Bounds | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator (under ``@task``): ``-T <data>=demo``, then the value check; nothing else is
    changed in the process."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        names = list(inspect.signature(fn).parameters)

        @functools.wraps(fn)
        def checked(*args: P.args, **named: P.kwargs) -> R:
            given = dict(zip(names, args, strict=False)) | dict(named)
            given = resolve_demo_arguments(fn.__module__, fn.__name__, given)
            check_task_arguments(fn, {k: v for k, v in given.items() if k in names}, bounds)
            return fn(**given)  # type: ignore[call-arg, arg-type]

        return checked

    return decorate


def _parameters(fn: Callable[..., Any]) -> list[str]:
    named = inspect.signature(inspect.unwrap(fn)).parameters.values()
    return [p.name for p in named if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]


def check_task_arguments(
    fn: Callable[..., Any], arguments: Mapping[str, Any], bounds: Bounds | None = None
) -> None:
    """Refuse the first argument ``fn`` does not take (with the closest name) or cannot use
    (type, then ``bounds``)."""
    known = _parameters(fn)
    task = getattr(inspect.unwrap(fn), "__name__", "task")
    unknown = sorted(name for name in arguments if name not in known)
    if unknown:
        close = difflib.get_close_matches(unknown[0], known, 1, 0.6)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        listed = f"its arguments: {sorted(known)}"
        raise ConfigError(f"{task} has no argument(s) {unknown}{hint}; {listed}.")
    hints = typing.get_type_hints(inspect.unwrap(fn))
    for name, value in arguments.items():
        allowed = _allowed(hints.get(name))
        low, high = (bounds or {}).get(name, (None, None))
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        if allowed is not None and not any(_fits(value, option) for option in allowed):
            shown = ", ".join(_SHOWN.get(option) or repr(option) for option in allowed)
        elif numeric and ((low is not None and value < low) or (high is not None and value > high)):
            shown = f"{low} or more" if high is None else f"{high} or less"
            shown = f"{low} to {high}" if None not in (low, high) else shown
        else:
            continue
        raise ConfigError(f"{task}: argument '{name}' got {value!r}; allowed: {shown}.")


def _allowed(hint: Any) -> list[Any] | None:
    """The options of a checkable annotation (literal values, types, None); None: unchecked."""
    if typing.get_origin(hint) is Literal:
        return list(typing.get_args(hint))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
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
