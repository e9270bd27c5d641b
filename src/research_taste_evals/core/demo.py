"""What a family contributes to ``research-taste demo``: its tasks on demo data, run offline.

Each family's ``demo.py`` defines ``DEMO_RUNS``, a tuple of :class:`DemoRun`; the demo runner
(``research_taste.cli.demo``) collects them from every family folder that has one
(:func:`family_demo_modules`). :func:`resolve_demo_arguments` is the one place ``demo`` is
resolved: ``inspect eval ... -T data_path=demo`` (a step of every task's entry,
``core.task_args.task_entry``) and ``research-taste sweep`` (``data_path: demo``) both call it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.families import families, family_module

if TYPE_CHECKING:
    from inspect_ai import Task


@dataclass(frozen=True)
class DemoRun:
    """One task of the demo: how to build it on demo data, and which offline models run it.

    Attributes:
        name: The task's name (what ``research-taste demo --task`` selects).
        build: Builds the task given the demo's data folder, where it may write its demo data.
            The folder is the same on every run, so the task's arguments (and the log's key in
            leaderboards) are the same from run to run.
        model: The offline ``baseline/<name>`` model that answers.
        model_roles: Offline models for other roles (e.g. ``grader``).
        data_arg: The task argument that takes the demo data's location (what a sweep file's
            ``<data_arg>: demo`` resolves), or None when the task runs on data it ships.
        write_data: Writes the demo data into a folder and returns the value for ``data_arg``.
        demo_arguments: Arguments the task takes on demo data unless the user gives them (the
            packaged offline embedding model, so ``-T data_path=demo`` needs no Hub).
    """

    name: str
    build: Callable[[Path], Task]
    model: str
    model_roles: dict[str, str] = field(default_factory=dict)
    data_arg: str | None = None
    write_data: Callable[[Path], Path] | None = None
    demo_arguments: dict[str, Any] = field(default_factory=dict)


# ``-T <data_arg>=demo`` (and a sweep file's ``<data_arg>: demo``) runs a task on its demo data.
DEMO_VALUE = "demo"
# Task arguments that name data: ``demo`` given to one without demo data is a mistake.
DATA_ARG_SUFFIXES = ("_path", "_file", "_dir")
# ``-T data_path=demo`` works for every task: it names the task's own demo data argument
# (its DemoRun's ``data_arg``, when that has another name), or nothing for a task that runs on
# data it ships (``data_arg`` None).
DEMO_ALIAS = "data_path"


def demo_data_dir() -> Path:
    """Where demo data is written on first use: a stable folder in the package's cache, so a
    rerun has the same task arguments (a sweep then skips it)."""
    from research_taste_evals.core.data import cache_dir

    return cache_dir() / DEMO_DATA_FOLDER


DEMO_DATA_FOLDER = "demo-data"  # demo_data_dir's name; each task's demo data in <task>/ under it


def is_demo_data(task: str, value: object) -> bool:
    """Whether a logged data argument is the demo data ``-T <data_arg>=demo`` wrote for
    ``task`` (a path through ``demo-data/<task>/``, on whichever machine ran it)."""
    if not isinstance(value, str):
        return False
    parts = Path(value).parts
    return any(parts[i] == DEMO_DATA_FOLDER and parts[i + 1] == task for i in range(len(parts) - 1))


def family_demo_modules() -> tuple[ModuleType, ...]:
    """The ``demo.py`` of every family folder that has one, in family order."""
    found = (family_module(family, "demo") for family in families())
    return tuple(module for module in found if module is not None)


def family_demo_run(task_module: str, task: str) -> DemoRun | None:
    """The demo run of ``task`` from its family's ``demo.py`` (the package above
    ``task_module``, the module defining the task function), or None (no run of that name, or
    a family without a ``demo.py``)."""
    package = task_module.rsplit(".", 1)[0]
    family = next((found for found in families() if found.package == package), None)
    module = family_module(family, "demo") if family is not None else None
    if module is None:
        return None
    return next((run for run in module.DEMO_RUNS if run.name == task), None)


def resolve_demo_arguments(
    task_module: str, task: str, arguments: dict[str, Any]
) -> dict[str, Any]:
    """``arguments`` with ``<data_arg>=demo`` replaced by the family's demo data, written into
    :func:`demo_data_dir` (the same folder for ``inspect eval`` and ``research-taste sweep``),
    plus the run's ``demo_arguments`` the user did not give.

    Raises:
        ConfigError: ``demo`` given to a data argument that has no demo data.
    """
    names, run, arguments = _demo_names(task_module, task, arguments)
    if not names or run is None or run.write_data is None:
        return arguments
    resolved = dict(arguments)
    for name in names:
        resolved[name] = str(run.write_data(demo_data_dir() / task))
    return {**run.demo_arguments, **resolved}


def check_demo_arguments(task_module: str, task: str, arguments: dict[str, Any]) -> None:
    """Refuse ``demo`` where :func:`resolve_demo_arguments` would, writing nothing.

    Raises:
        ConfigError: ``demo`` given to a data argument that has no demo data.
    """
    _demo_names(task_module, task, arguments)


def _demo_names(
    task_module: str, task: str, arguments: dict[str, Any]
) -> tuple[list[str], DemoRun | None, dict[str, Any]]:
    """The data arguments given as ``demo`` (after the ``data_path`` alias), the task's demo
    run and the arguments with the alias applied."""
    if DEMO_VALUE not in arguments.values():
        return [], None, arguments
    run = family_demo_run(task_module, task)
    arguments = _demo_alias(task, run, arguments)
    own = run.data_arg if run is not None else None  # a data argument of another name (round)
    names = [
        n
        for n, v in arguments.items()
        if v == DEMO_VALUE and (n.endswith(DATA_ARG_SUFFIXES) or n == own)
    ]
    for name in names:
        if run is None or run.data_arg != name or run.write_data is None:
            offered = f"-T {run.data_arg}=demo" if run and run.data_arg else "none"
            raise ConfigError(
                f"{task}: -T {name}=demo: this argument has no demo data (demo data for "
                f"{task}: {offered}); give a path"
            )
    return names, run, arguments


def _demo_alias(task: str, run: DemoRun | None, arguments: dict[str, Any]) -> dict[str, Any]:
    """``data_path=demo`` for a task whose demo data argument has another name, or none."""
    if arguments.get(DEMO_ALIAS) != DEMO_VALUE or run is None or run.data_arg == DEMO_ALIAS:
        return arguments
    renamed = {n: v for n, v in arguments.items() if n != DEMO_ALIAS}
    if run.data_arg is None:  # runs on the data it ships, which is its demo
        return renamed
    if run.data_arg in arguments:
        raise ConfigError(
            f"{task}: -T {DEMO_ALIAS}=demo and -T {run.data_arg}: give one of them "
            f"({task} reads its data from {run.data_arg})"
        )
    return {**renamed, run.data_arg: DEMO_VALUE}


def refuse_data_path(task: str, data_path: str | None, data_arg: str) -> None:
    """A task whose data argument is not ``data_path`` takes ``-T data_path=demo`` (resolved to
    its demo data before it runs: :func:`resolve_demo_arguments`) and nothing else there: the
    parameter exists so Inspect's loader hands the alias on instead of dropping it.

    Raises:
        ConfigError: ``data_path`` given another value, naming the task's data argument.
    """
    if data_path is not None:
        raise ConfigError(
            f"{task}: -T data_path={data_path!r}: {task} reads its data from -T {data_arg}; "
            f"-T data_path takes only demo (its demo data)"
        )
