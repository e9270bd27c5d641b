"""Task arguments checked against the task function's signature: one sentence per mistake.

``inspect eval -T name=value`` parses ``value`` as YAML and hands it to the task function as is:
``-T context_words=many`` arrives as the string ``"many"``, ``-T partial_credit=maybe`` as
``"maybe"``, and a misspelled name (``-T varient=...``) is dropped with a warning while the
default runs. :func:`checked_arguments` (under ``@task``) checks every argument a caller gives
against the function's annotations (``Literal[...]``, ``bool``, ``int``, ``float``, and those
``| None``) and declared bounds, and rejects names the function does not take, raising
:class:`~research_taste_evals.core.errors.ConfigError` before the task builds anything. The
sweep file is checked with the same :func:`check_task_arguments`. It checks, nothing else: the
error hook and demo data are other steps of
:func:`~research_taste_evals.core.task_entry.task_entry`. It checks, nothing else: the
error hook and demo data are other steps of
:func:`~research_taste_evals.core.task_entry.task_entry`.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, ParamSpec, TypeVar

from research_taste_evals.core.errors import ConfigError

P = ParamSpec("P")
R = TypeVar("R")

# The keyword-arguments parameter the checked wrapper declares, so that Inspect hands it every
# -T name (it drops, with only a warning, names a function without one does not take).
_ANY_NAME = "unknown_arguments"

Bounds = Mapping[str, tuple[float | None, float | None]]


def check_task_arguments(
    fn: Callable[..., Any], arguments: Mapping[str, Any], bounds: Bounds | None = None
) -> None:
    """Raise :class:`ConfigError` for the first argument ``fn`` does not take or cannot use.

    Args:
        fn: The task function (its signature and annotations are the contract).
        arguments: The arguments given, by name.
        bounds: Per argument, an inclusive ``(minimum, maximum)``; ``None`` leaves a side open.
    """
    original = inspect.unwrap(fn)
    task = getattr(original, "__name__", "task")
    parameters = {
        name: p
        for name, p in inspect.signature(original).parameters.items()
        if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
    }
    unknown = sorted(set(arguments) - set(parameters))
    if unknown:
        raise ConfigError(
            f"{task} has no argument(s) {unknown}; its arguments: {sorted(parameters)}."
        )
    hints = typing.get_type_hints(original)
    for name, value in arguments.items():
        if name in hints:
            _check_type(task, name, value, hints[name])
        low, high = (bounds or {}).get(name, (None, None))
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        if numeric and ((low is not None and value < low) or (high is not None and value > high)):
            raise ConfigError(
                f"{task}: argument '{name}' got {value!r}; allowed: {_range(low, high)}."
            )


def checked_arguments(
    bounds: Bounds | None = None,
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: check the arguments of every call (:func:`check_task_arguments`) first.

    The wrapper also takes unknown keyword names, so that a misspelled ``-T`` name reaches the
    check (and fails) instead of being dropped by Inspect's task loader. Tasks wear it through
    :func:`~research_taste_evals.core.task_entry.task_entry`.
    """

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            given = dict(zip(signature.parameters, args, strict=False)) | dict(kwargs)
            check_task_arguments(fn, given, bounds)
            return fn(*args, **kwargs)

        # Inspect's task loader hands a task only the -T names its signature takes (the rest
        # are dropped with a warning) unless it has **kwargs; it reads inspect.signature, so a
        # __signature__ with **unknown_arguments is the only public way to receive a misspelt
        # name and refuse it (CONTRIBUTING, "Unknown -T names").
        extra = inspect.Parameter(_ANY_NAME, inspect.Parameter.VAR_KEYWORD)
        wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*signature.parameters.values(), extra]
        )
        return wrapper

    return decorate


def _check_type(task: str, name: str, value: Any, hint: Any) -> None:
    allowed = _allowed(hint)
    if allowed is None or any(_fits(value, option) for option in allowed):
        return
    shown = ", ".join(_show(option) for option in allowed)
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
    if hint in (bool, int, float):
        return [hint]
    return None


def _fits(value: Any, option: Any) -> bool:
    if option is bool:
        return isinstance(value, bool)
    if option is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if option is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if option is None:
        return value is None
    return type(value) is type(option) and value == option


def _show(option: Any) -> str:
    if option is bool:
        return "true or false"
    if option is int:
        return "an integer"
    if option is float:
        return "a number"
    if option is None:
        return "none"
    return repr(option)


def _range(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}"
    return f"{low} or more" if low is not None else f"{high} or less"
