"""``research-taste sweep``: run a models x tasks grid from a YAML file with Inspect's eval_set.

``eval_set`` retries failed runs, keeps the finished samples of an interrupted run and skips the
runs already complete in the log folder, so a scheduled sweep is simply run again. A sweep can
be split into shards that separate processes (or machines) run into one shared log folder; each
shard is an ordinary eval set over its part of the grid, so retries and skipping still apply.
``research-taste report`` then reads the folder (the union of every shard).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval_set, task_with
from inspect_ai.model import Model, get_model
from pydantic import ValidationError

from research_taste.cli.sweep_checks import check_sweep, named_models
from research_taste.cli.sweep_schema import (
    ModelRoles,
    SweepConfig,
    read_sweep_yaml,
)
from research_taste.cli.sweep_status import SweepOutcome, sweep_outcome
from research_taste_evals.core.cutoff import CUTOFF_ARG, parse_cutoff_arg
from research_taste_evals.core.data import (
    DataError,
    describe_validation_error,
)
from research_taste_evals.core.demo import DEMO_VALUE, DemoRun, demo_data_dir
from research_taste_evals.core.errors import ConfigError, UserError
from research_taste_evals.core.task_args import check_task_arguments

# A task's data argument with this value is replaced by demo data its family's demo.py writes.
DEMO_DATA_VALUE = DEMO_VALUE
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


def _demo_runs() -> dict[str, DemoRun]:
    """Per task, the family's demo run that writes demo data (for ``<data_arg>: demo``)."""
    from research_taste.cli.demo import DEMO_RUNS

    return {run.name: run for run in DEMO_RUNS if run.data_arg and run.write_data}


def tasks_by_name() -> dict[str, Any]:
    from research_taste_evals._registry import TASKS

    return {fn.__name__: fn for fn in TASKS}


def load_sweep(path: str | Path) -> SweepConfig:
    """Read and validate a sweep file; errors name the file and the field."""
    source = Path(path)
    raw = read_sweep_yaml(source)  # unquoted dates stay text: a cutoff reaches logs as text
    if raw is None:
        raise DataError(f"{source}: the sweep file is empty (needs log_dir, tasks and models)")
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as error:
        raise DataError(f"{source}: {describe_validation_error(error)}") from error
    known = tasks_by_name()
    demos = _demo_runs()
    for index, entry in enumerate(config.tasks):
        if not (entry.models or config.models):
            raise DataError(
                f"{source}: field 'tasks.{index}.models': no models for task {entry.task!r} "
                "(give 'models' at the top of the file or in the task entry)"
            )
        if entry.task not in known:
            raise DataError(
                f"{source}: field 'tasks.{index}.task': unknown task {entry.task!r}; "
                f"known: {sorted(known)}"
            )
        try:  # the same check as `inspect eval -T` (core.task_args), before anything runs
            check_task_arguments(known[entry.task], entry.args)
        except ConfigError as error:
            raise DataError(f"{source}: field 'tasks.{index}.args': {error}") from error
        if CUTOFF_ARG in entry.args:
            _check_cutoff(f"{source}: field 'tasks.{index}.args.{CUTOFF_ARG}'", entry.args)
        demo = demos.get(entry.task)
        for name, value in entry.args.items():
            if value == DEMO_DATA_VALUE and (demo is None or name != demo.data_arg):
                offered = sorted(f"{run.name}.{run.data_arg}" for run in demos.values())
                raise DataError(
                    f"{source}: field 'tasks.{index}.args.{name}': 'demo' data exists only "
                    f"for these task arguments: {offered}"
                )
    evaluated = {model for entry in config.tasks for model in entry.models or config.models}
    for model, cutoff in config.knowledge_cutoffs.items():
        field = f"{source}: field 'knowledge_cutoffs.{model}'"
        if model not in evaluated:
            raise DataError(f"{field}: no task of the sweep evaluates {model!r}")
        _check_cutoff(field, {CUTOFF_ARG: cutoff})
    check_models(source, config)
    check_sweep(source, config)  # roles nobody reads, repeated runs, a log_dir that is a file
    return config


def _check_cutoff(field: str, args: dict[str, Any]) -> None:
    """The cutoff as every task reads it (``core.cutoff.parse_cutoff_arg``), named by field."""
    try:
        parse_cutoff_arg(args[CUTOFF_ARG], "the sweep")
    except ConfigError as error:
        reason = str(error).split(": ", 1)[-1]  # "argument 'knowledge_cutoff' got ..."
        raise DataError(f"{field}: {reason}") from error


def check_models(source: Path, config: SweepConfig) -> None:
    """Each model and role member must name a known provider (``<provider>/<model>``).

    Only the provider is looked up (no client is built): a dry run needs no API key, and a
    missing key is reported by the provider when the run starts.

    Raises:
        DataError: naming the sweep file, the field and the model.
    """
    for field, model in named_models(config):
        provider, slash, _ = model.partition("/")
        if not slash:
            raise DataError(f"{source}: field '{field}': {model!r} is not <provider>/<model>")
        if not provider_is_registered(provider):
            raise DataError(
                f"{source}: field '{field}': unknown model provider {provider!r} in {model!r}"
            )


@functools.cache
def provider_is_registered(provider: str) -> bool:
    """Whether Inspect knows the model provider ``provider`` (built in, or registered by an
    installed package's ``inspect_ai`` entry point, e.g. ``baseline``), by Inspect's public
    registry lookup: ``registry_create`` raises ``LookupError`` for a name it does not know and
    anything else (here: the provider class asking for its model name) for one it does."""
    from inspect_ai.util import registry_create

    for name in [provider, *(f"{point.name}/{provider}" for point in _inspect_entry_points())]:
        try:
            registry_create("modelapi", name)
        except LookupError:
            continue
        except Exception:
            return True
        return True
    return False


def _inspect_entry_points() -> list[EntryPoint]:
    """Installed packages' Inspect entry points, loaded (as Inspect loads them) so that their
    providers are registered."""
    points = list(entry_points(group="inspect_ai"))
    for point in points:
        point.load()
    return points


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
    """The task arguments with ``demo`` replaced by the family's demo data (a stable folder)."""
    args = dict(run.args)
    demo = _demo_runs().get(run.task)
    # _demo_runs keeps only runs with both fields; mypy needs them narrowed here.
    if demo and demo.data_arg and demo.write_data and args.get(demo.data_arg) == DEMO_DATA_VALUE:
        args[demo.data_arg] = str(demo.write_data(demo_data_dir() / run.task))
    return args


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

    headlines = {name: spec.headline_metrics[0] for name, spec in task_specs().items()}
    planned = [(run.task, run.model, resolve_args(run)) for run in runs]
    return sweep_outcome(config.log_dir, planned, interrupted, headlines)


def _run_eval_set(
    config: SweepConfig,
    runs: list[PlannedRun],
    shard: tuple[int, int] | None,
    display: str | None,
) -> None:
    eval_set(
        tasks=build_tasks(runs),
        log_dir=config.log_dir,
        log_dir_allow_dirty=shard is not None,  # other shards' logs share the folder
        epochs=config.epochs,
        limit=config.limit,
        max_connections=config.max_connections,
        max_samples=config.max_samples,
        max_tasks=config.max_tasks,
        batch=config.batch,
        retry_attempts=config.retry_attempts,
        retry_on_error=config.retry_on_error or None,
        fail_on_error=config.fail_on_error,
        log_buffer=config.log_buffer,
        tags=[SWEEP_TAG, *config.tags],
        metadata=config.metadata or None,
        display=display,  # type: ignore[arg-type]
    )
