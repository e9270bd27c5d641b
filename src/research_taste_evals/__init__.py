"""Inspect evaluation tasks that measure an AI model's research taste.

Tasks import from their family package, as in inspect_evals::

    from inspect_ai import eval
    from research_taste_evals.aaar import eqinfer
    from research_taste_evals.tastybench import tastybench

    eval(eqinfer(data_path="demo"), model="baseline/all-positive")

The tasks whose names are not also a family package's (every task but ``lft`` and
``tastybench``) import from the package itself too (``from research_taste_evals import
eqinfer``). Such a task is imported when its name is first asked for (module ``__getattr__``),
so importing ``research_taste_evals.core.x`` stays light (tests/test_registry_import.py).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# Task name -> the family package exporting it (every task of ``_registry.TASKS``).
TASK_PACKAGES = {
    "eqinfer": "research_taste_evals.aaar",
    "expdesign": "research_taste_evals.aaar",
    "paper_weakness": "research_taste_evals.aaar",
    "review_critique": "research_taste_evals.reviewcritique",
    "lft": "research_taste_evals.lft",
    "lft_grader_check": "research_taste_evals.lft",
    "tastybench": "research_taste_evals.tastybench",
    "tastybench_extract": "research_taste_evals.tastybench",
    "idea_pairs": "research_taste_evals.ideapairs",
    "scijudge": "research_taste_evals.scijudge",
}
# Named like their family package: ``research_taste_evals.lft`` is the package, so these import
# from it (``from research_taste_evals.lft import lft``).
FAMILY_NAMED = frozenset({"lft", "tastybench", "scijudge"})

__all__ = ["__version__", *(name for name in TASK_PACKAGES if name not in FAMILY_NAMED)]


def __getattr__(name: str) -> Any:
    if name not in TASK_PACKAGES or name in FAMILY_NAMED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(TASK_PACKAGES[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
