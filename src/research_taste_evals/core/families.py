"""Every family of the package, found from its folder (no list to keep in step).

A family is a folder of ``research_taste_evals`` holding an ``eval.yaml`` (its register
metadata, in the inspect_evals format) and an ``__init__.py`` whose ``__all__`` names the tasks
it exports (``from research_taste_evals.<family> import <task>``), and a ``specs.py`` whose
``SPECS`` declares each of those tasks once (``core/spec.py``). The Inspect entry point, the
package's task table (``TASK_PACKAGES``), ``research-taste list``, the demo (the folder's
``demo.py`` and its ``DEMO_RUNS``), the sweep and the reports all read this list, so a new
family is its folder and nothing else. Families come in folder-name order, their tasks in
``__all__`` order.

This is the one module of ``core/`` that finds and imports the families: :func:`family_module`
and :func:`task_specs` import them when first called; the listing itself reads only source text,
so importing the package, or ``research-taste list``, stays light.
"""

from __future__ import annotations

import ast
import functools
import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from research_taste_evals.core.spec import TaskSpec

PACKAGE = "research_taste_evals"
PACKAGE_DIR = Path(__file__).resolve().parents[1]
REGISTER_FILE = "eval.yaml"
SPECS_MODULE = "specs"  # each family's ``specs.py``, whose ``SPECS`` declares its tasks


@dataclass(frozen=True)
class Family:
    """One family folder: its name, where it is and the tasks its package exports."""

    name: str
    folder: Path
    tasks: tuple[str, ...]

    @property
    def package(self) -> str:
        """The family's import name, ``research_taste_evals.<folder>``."""
        return f"{PACKAGE}.{self.name}"

    def has_module(self, module: str) -> bool:
        """Whether the folder holds ``<module>.py`` (e.g. ``demo`` or ``baselines``)."""
        return (self.folder / f"{module}.py").is_file()


@functools.cache
def families() -> tuple[Family, ...]:
    """Every folder of the package with an ``eval.yaml`` and an ``__init__.py``, by name."""
    folders = sorted(
        path
        for path in PACKAGE_DIR.iterdir()
        if (path / REGISTER_FILE).is_file() and (path / "__init__.py").is_file()
    )
    return tuple(Family(folder.name, folder, exported_tasks(folder)) for folder in folders)


def exported_tasks(folder: Path) -> tuple[str, ...]:
    """The names a family's ``__init__.py`` lists in ``__all__``, read from its source.

    Raises:
        ValueError: the file has no literal ``__all__`` of names (one sentence naming it).
    """
    init = folder / "__init__.py"
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            names = ast.literal_eval(node.value)
            if isinstance(names, list | tuple) and all(isinstance(n, str) for n in names):
                return tuple(names)
    raise ValueError(
        f"{init}: a family folder (it has an {REGISTER_FILE}) lists its tasks in a literal "
        "__all__ of names, e.g. __all__ = ['my_task']"
    )


def task_packages() -> dict[str, str]:
    """Task name -> the family package exporting it, in family order.

    Raises:
        ValueError: two families export a task of the same name.
    """
    found: dict[str, str] = {}
    for family in families():
        for task in family.tasks:
            if task in found:
                raise ValueError(
                    f"task {task!r} is exported by both {found[task]} and {family.package}; "
                    "task names are unique across families"
                )
            found[task] = family.package
    return found


def family_named_tasks() -> frozenset[str]:
    """Tasks named like a family folder: the package attribute of that name is the family
    package, so these import from the family only."""
    names = {family.name for family in families()}
    return frozenset(task for task in task_packages() if task in names)


def family_module(family: Family, module: str) -> ModuleType | None:
    """The family's ``<module>.py`` (e.g. ``demo``, ``baselines``) imported, or None."""
    if not family.has_module(module):
        return None
    return importlib.import_module(f"{family.package}.{module}")


@functools.cache
def task_specs() -> dict[str, TaskSpec]:
    """Every task's declaration (``specs.py``'s ``SPECS`` in each family), by task name.

    Raises:
        ValueError: a family's ``SPECS`` does not declare exactly the tasks it exports.
    """
    found: dict[str, TaskSpec] = {}
    for family in families():
        module = family_module(family, SPECS_MODULE)
        specs = tuple(getattr(module, "SPECS", ()))
        declared = tuple(spec.task for spec in specs)
        if sorted(declared) != sorted(family.tasks):
            raise ValueError(
                f"{family.folder / SPECS_MODULE}.py: SPECS declares {list(declared)}, but the "
                f"family exports {list(family.tasks)}; declare each exported task once"
            )
        by_name = {spec.task: spec for spec in specs}
        found.update((task, by_name[task]) for task in family.tasks)
    return found
