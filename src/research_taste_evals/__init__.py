"""Inspect evaluation tasks that measure an AI model's research taste.

Every task imports from the package, as in inspect_evals::

    from inspect_ai import eval
    from research_taste_evals import eqinfer

    eval(eqinfer(data_path="demo"), model="baseline/all-positive")

A task is imported when its name is first asked for (module ``__getattr__``), so importing
``research_taste_evals.core.x`` stays light (tests/test_registry_import.py). Two tasks share
their family package's name (``lft``, ``tastybench``): once that package is imported the name
is the package, so the package itself is callable and builds the task (:class:`TaskPackage`).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

# Task name -> the module defining it (every task of ``_registry.TASKS``).
TASK_MODULES = {
    "eqinfer": "research_taste_evals.aaar.eqinfer",
    "expdesign": "research_taste_evals.aaar.expdesign",
    "paper_weakness": "research_taste_evals.aaar.paper_weakness",
    "review_critique": "research_taste_evals.reviewcritique.reviewcritique",
    "lft": "research_taste_evals.lft.lft",
    "lft_grader_check": "research_taste_evals.lft.lft_grader_check",
    "tastybench": "research_taste_evals.tastybench.tastybench",
    "tastybench_extract": "research_taste_evals.tastybench.tastybench_extract",
    "idea_pairs": "research_taste_evals.ideapairs.ideapairs",
}

__all__ = ["__version__", *TASK_MODULES]


def __getattr__(name: str) -> Any:
    module = TASK_MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    task = getattr(importlib.import_module(module), name)
    # The family package named like the task (lft, tastybench) is now an attribute: keep it.
    return globals().get(name, task) if name in ("lft", "tastybench") else task


def __dir__() -> list[str]:
    return sorted([*globals(), *TASK_MODULES])


class TaskPackage(ModuleType):
    """A family package named like its main task: calling the package builds the task, so
    ``from research_taste_evals import lft`` gives something that builds ``lft`` whether or
    not the package was imported first."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = self.__name__.rsplit(".", 1)[-1]
        return getattr(importlib.import_module(TASK_MODULES[name]), name)(*args, **kwargs)


def task_package(name: str) -> None:
    """Make the family package ``name`` (``research_taste_evals.<task>``) a :class:`TaskPackage`."""
    sys.modules[name].__class__ = TaskPackage
