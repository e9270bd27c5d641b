"""Inspect evaluation tasks that measure an AI model's research taste.

Tasks import from their family package, as in inspect_evals::

    from inspect_ai import eval
    from research_taste_evals.aaar import eqinfer
    from research_taste_evals.tastybench import tastybench

    eval(eqinfer(data_path="demo"), model="baseline/all-positive")

The tasks whose names are not also a family package's (every task but ``lft`` and
``tastybench``) import from the package itself too (``from research_taste_evals import
eqinfer``). Such a task is imported when its name is first asked for (module ``__getattr__``),
so importing ``research_taste_evals.core.x`` stays light (tests/test_registry_import.py). The
families and their tasks are found from their folders (core/families.py).
"""

from __future__ import annotations

import importlib
from typing import Any

from research_taste_evals.core.families import family_named_tasks, task_packages

__version__ = "0.1.0"

# Task name -> the family package exporting it (every task of ``_registry.TASKS``).
TASK_PACKAGES = task_packages()
# Named like their family package: ``research_taste_evals.lft`` is the package, so these import
# from it (``from research_taste_evals.lft import lft``).
FAMILY_NAMED = family_named_tasks()

__all__ = ["__version__", *(name for name in TASK_PACKAGES if name not in FAMILY_NAMED)]


def __getattr__(name: str) -> Any:
    if name not in TASK_PACKAGES or name in FAMILY_NAMED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(TASK_PACKAGES[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
