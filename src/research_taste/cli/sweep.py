"""``research-taste sweep``: run a models x tasks grid from a YAML file with Inspect's eval_set.

``eval_set`` retries failed runs, keeps the finished samples of an interrupted run and skips the
runs already complete in the log folder, so a scheduled sweep is simply run again. A sweep can
be split into shards that separate processes (or machines) run into one shared log folder; each
shard is an ordinary eval set over its part of the grid, so retries and skipping still apply.
``research-taste report`` then reads the folder (the union of every shard).
"""

from __future__ import annotations

import contextlib
import inspect
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from inspect_ai import Task, eval_set, task_with
from inspect_ai.model import Model, get_model

from research_taste.cli.sweep_load import tasks_by_name
from research_taste.cli.sweep_schema import ModelRoles, SweepConfig
from research_taste.cli.sweep_status import SweepOutcome, sweep_outcome
from research_taste_evals.core.cutoff import CUTOFF_ARG
from research_taste_evals.core.data import DataError
from research_taste_evals.core.demo import DEMO_VALUE, resolve_demo_arguments
from research_taste_evals.core.errors import UserError

__all__ = [
    "EntryError",
    "PlannedRun",
    "build_tasks",
    "construct",
    "each_warning_once",
    "parse_shard",
    "plan",
    "resolve_args",
    "run_sweep",
    "sweep_status",
    "with_knowledge_cutoff",
]
# Every sweep run carries this tag, so reports can tell sweep logs from ad-hoc runs.
SWEEP_TAG = "sweep"


@dataclass(frozen=True)
class PlannedRun:
    """One cell of the grid: a task with its arguments, run by one model."""

    task: str
    args: dict[str, Any]
    model: str
    model_roles: ModelRoles
    model_args: dict[str, dict[str, Any]] = dataclass_field(default_factory=dict)
    entry: int = 0  # its index in the sweep file's tasks list (for messages)

    def get(self, name: str, role: str | None = None) -> Model:
        """The Inspect model ``name`` with its sweep model arguments."""
        return get_model(name, role=role, **self.model_args.get(name, {}))


def plan(config: SweepConfig, shard: tuple[int, int] | None = None) -> list[PlannedRun]:
    """The grid in file order; with ``shard=(i, n)`` only every n-th run starting at the i-th."""
    runs = [
        PlannedRun(
            task=entry.task,
            args=with_knowledge_cutoff(entry.task, entry.args, config.knowledge_cutoffs.get(model)),
            model=model,
            model_roles=entry.model_roles if entry.model_roles is not None else config.model_roles,
            model_args=config.model_args,
            entry=index,
        )
        for index, entry in enumerate(config.tasks)
        for model in entry.models or config.models
    ]
    if shard is None:
        return runs
    index, count = shard
    return runs[index - 1 :: count]


def with_knowledge_cutoff(task: str, args: dict[str, Any], cutoff: str | None) -> dict[str, Any]:
    """``args`` plus the sweep file's cutoff for the run's model, for a task that takes one and
    was not given one in its own entry."""
    if cutoff is None or CUTOFF_ARG in args:
        return args
    if CUTOFF_ARG not in inspect.signature(inspect.unwrap(tasks_by_name()[task])).parameters:
        return args
    return {**args, CUTOFF_ARG: cutoff}


def parse_shard(text: str) -> tuple[int, int]:
    """``"i/n"`` -> ``(i, n)`` with ``1 <= i <= n``."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise DataError(f"--shard {text!r}: expected i/n, e.g. 1/2") from None
    if not 1 <= index <= count:
        raise DataError(f"--shard {text!r}: i must be between 1 and n")
    return index, count


def resolve_args(run: PlannedRun) -> dict[str, Any]:
    """The task arguments with ``demo`` resolved as ``inspect eval -T`` resolves it (a stable
    folder; core.demo.resolve_demo_arguments, the one place for both)."""
    if DEMO_VALUE not in run.args.values():
        return dict(run.args)
    task = inspect.unwrap(tasks_by_name()[run.task])
    return resolve_demo_arguments(task.__module__, run.task, dict(run.args))


def construct(run: PlannedRun) -> Task:
    """The run's task as its @task function builds it, on the resolved arguments.

    Nothing about models is decided here: roles are resolved when the task runs (core.roles),
    so a task is built once, anywhere.

    Raises:
        EntryError: the task cannot be built on these arguments (bad data, a value out of
            range), naming the sweep entry.
    """
    try:
        return tasks_by_name()[run.task](**resolve_args(run))
    except UserError as error:
        raise EntryError(run, error) from error


class EntryError(DataError):
    """A sweep entry whose task cannot be built; the CLI adds the sweep file's name."""

    def __init__(self, run: PlannedRun, error: UserError) -> None:
        super().__init__(f"field 'tasks.{run.entry}.args' ({run.task}): {error}")


@contextlib.contextmanager
def each_warning_once() -> Iterator[None]:
    """While a sweep builds its tasks (one per model, so a task's build-time warning would print
    once per model), print each distinct warning once, as Python's last-resort handler prints
    it; logging someone configured is left alone."""
    root = logging.getLogger()
    if root.handlers:
        yield
        return
    seen: set[str] = set()

    def first_time(record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message in seen:
            return False
        seen.add(message)
        return True

    handler = logging.StreamHandler()  # stderr, the message alone
    handler.setLevel(logging.WARNING)
    handler.addFilter(first_time)
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


def build_tasks(runs: list[PlannedRun]) -> list[Task]:
    """One Inspect task per planned run (built once), with its model and roles bound to it."""
    with each_warning_once():
        built = [construct(run) for run in runs]
    tasks = []
    for run, task in zip(runs, built, strict=True):
        model: str | Model = run.get(run.model) if run.model in run.model_args else run.model
        roles: dict[str, Any] = {
            role: (
                [run.get(m, role) if m in run.model_args else m for m in members]
                if isinstance(members, list)
                else run.get(members, role)
                if members in run.model_args
                else members
            )
            for role, members in run.model_roles.items()
        }
        if roles:
            tasks.append(task_with(task, model=model, model_roles=roles))
        else:
            tasks.append(task_with(task, model=model))
    return tasks


def run_sweep(
    config: SweepConfig, shard: tuple[int, int] | None = None, display: str | None = None
) -> SweepOutcome:
    """Run the sweep (or one shard of it); the outcome is true when every run finished.

    Runs already complete in the log folder are not run again (:func:`sweep_status`; with
    none left, nothing runs). An interrupt (Ctrl-C) ends the sweep with the outcome marked
    ``interrupted``, not an exception: the outcome lists the unfinished runs, read from the
    log folder.
    """
    runs = plan(config, shard)
    before = sweep_status(config, runs)
    if not runs or before.success:
        return before
    interrupted = False
    try:
        _run_eval_set(config, runs, shard, display)
    except KeyboardInterrupt:
        interrupted = True
    return sweep_status(config, runs, interrupted)


def sweep_status(
    config: SweepConfig, runs: list[PlannedRun], interrupted: bool = False
) -> SweepOutcome:
    """Each planned run's status in the log folder, with its task's first headline metric."""
    from research_taste.reporting.families import task_specs
    from research_taste_evals.core.families import task_specs as family_specs

    headlines = {name: spec.headline_metrics[0] for name, spec in task_specs().items()}
    round_args = {
        name: spec.data_arg
        for name, spec in family_specs().items()
        if spec.rounds is not None and spec.data_arg is not None
    }
    planned = [(run.task, run.model, resolve_args(run)) for run in runs]
    return sweep_outcome(config.log_dir, planned, interrupted, headlines, round_args)


def _run_eval_set(
    config: SweepConfig,
    runs: list[PlannedRun],
    shard: tuple[int, int] | None,
    display: str | None,
) -> None:
    eval_set(
        tasks=build_tasks(runs),
        log_dir=config.log_dir,
        # other shards' logs share the folder; or the file / --log-dir-allow-dirty allows others
        log_dir_allow_dirty=shard is not None or config.log_dir_allow_dirty,
        epochs=config.epochs,
        limit=config.limit,
        max_connections=config.max_connections,
        max_samples=config.max_samples,
        max_tasks=config.max_tasks,
        batch=config.batch,
        retry_attempts=config.retry_attempts,
        retry_on_error=config.retry_on_error or None,
        cache=config.cache or None,
        fail_on_error=config.fail_on_error,
        log_buffer=config.log_buffer,
        tags=[SWEEP_TAG, *config.tags],
        metadata=config.metadata or None,
        display=display,  # type: ignore[arg-type]
    )
