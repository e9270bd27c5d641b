"""The decorator every task function of the package wears under ``@task``: :func:`task_entry`.

It composes the steps a task takes when called, each from the module of its concern, so that
none of them does another's job: the user-error hook (core/errors.py), the argument check
(core/task_args.py) and demo data (core/demo.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from research_taste_evals.core.demo import with_demo_data
from research_taste_evals.core.errors import report_user_errors
from research_taste_evals.core.task_args import Bounds, checked_arguments

P = ParamSpec("P")
R = TypeVar("R")


def task_entry(
    bounds: Bounds | None = None,
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator (put it under ``@task``): what every task of the package does when called,
    each step from the module of its concern, in order:

    1. this package's errors print as one sentence under ``inspect eval``
       (:func:`~research_taste_evals.core.errors.report_user_errors`, installed on the first
       task built, never on import);
    2. a data argument given as ``demo`` becomes the family's demo data (:func:`with_demo_data`),
       first, since ``-T data_path=demo`` also names a task's demo data under another argument
       name (a ``pairs_file``, say) and brings the demo's offline defaults;
    3. the arguments are checked (:func:`~research_taste_evals.core.task_args.checked_arguments`).
    """

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        checked = with_demo_data(checked_arguments(bounds)(fn))

        @functools.wraps(checked)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            report_user_errors()
            return checked(*args, **kwargs)

        return wrapper

    return decorate
