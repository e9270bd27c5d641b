""":func:`task_entry`, under every ``@task`` of the package (replaced by: nothing, once Inspect
checks ``-T`` values and prints user errors in one line). In order: the error hook
(core/errors.py), ``-T <data>=demo`` (core/demo.py: it may name the data under another
argument), the value check (core/task_args.py); unknown names reach the task's ``**kwargs``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from research_taste_evals.core.demo import with_demo_data
from research_taste_evals.core.errors import report_user_errors
from research_taste_evals.core.task_args import Bounds, check_task_arguments

P = ParamSpec("P")
R = TypeVar("R")


def task_entry(bounds: Bounds | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator (under ``@task``): error hook, demo data, then the argument check."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        names = list(inspect.signature(fn).parameters)

        @functools.wraps(fn)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            given = dict(zip(names, args, strict=False)) | dict(kwargs)
            check_task_arguments(fn, {k: v for k, v in given.items() if k in names}, bounds)
            return fn(*args, **kwargs)

        demo = with_demo_data(checked)

        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            report_user_errors()
            return demo(*args, **kwargs)

        return wrapper

    return decorate
