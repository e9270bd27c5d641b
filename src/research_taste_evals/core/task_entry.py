"""The decorator every task function of the package wears under ``@task``: :func:`task_entry`
(replaced by: nothing once Inspect checks ``-T`` values and prints user errors in one line).

In order: this package's errors print as one sentence under ``inspect eval`` (core/errors.py);
a data argument given as ``demo`` becomes the family's demo data (core/demo.py; first, since
it may name the data under another argument and brings the demo's offline defaults); the
values of the arguments the function names are checked (core/task_args.py). Names it does not
take reach the function's own ``**kwargs``, which it refuses with
:func:`~research_taste_evals.core.task_args.refuse_unknown_arguments`.
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
