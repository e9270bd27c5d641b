"""Inspect entry point: every task of the package and its offline ``baseline`` model provider.

Inspect imports this module (``[project.entry-points.inspect_ai]``), which is what makes
``inspect eval research_taste_evals/<task>`` and ``--model baseline/<name>`` resolve. Importing
it registers those and changes nothing else in Inspect or the process: no hooks, no patched
provider (tests/test_good_guest.py).

The tasks are every family folder's exported tasks (core/families.py): importing a family
package registers its ``@task`` functions, and importing its ``baselines.py`` (where it has one)
registers its baselines with the provider. A new family needs no line here.
"""

import importlib
from collections.abc import Callable
from typing import Any

from inspect_ai.model import ModelAPI, modelapi

from research_taste_evals.core.families import families


def _family_tasks() -> tuple[Callable[..., Any], ...]:
    tasks: list[Callable[..., Any]] = []
    for family in families():
        package = importlib.import_module(family.package)
        if family.has_module("baselines"):
            importlib.import_module(f"{family.package}.baselines")
        tasks.extend(getattr(package, name) for name in family.tasks)
    return tuple(tasks)


# Every task, in the order `research-taste list` prints them (families by folder name).
TASKS = _family_tasks()
globals().update({task.__name__: task for task in TASKS})


@modelapi(name="baseline")
def baseline() -> type[ModelAPI]:
    from research_taste_evals.core.baselines import BaselineModelAPI

    return BaselineModelAPI


__all__ = ["TASKS", "baseline", *(task.__name__ for task in TASKS)]
