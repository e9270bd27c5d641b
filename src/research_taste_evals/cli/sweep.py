"""``research-taste sweep``: run a models x tasks grid from a YAML file with Inspect's eval_set.

``eval_set`` retries failed runs, keeps the finished samples of an interrupted run and skips the
runs already complete in the log folder, so a scheduled sweep is simply run again. A sweep can
be split into shards that separate processes (or machines) run into one shared log folder; each
shard is an ordinary eval set over its part of the grid, so retries and skipping still apply.
``research-taste report`` then reads the folder (the union of every shard).
"""

from __future__ import annotations

import contextvars
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import yaml
from inspect_ai import Task, eval_set, task_with
from inspect_ai._util.entrypoints import ensure_entry_points
from inspect_ai._util.registry import RegistryInfo, registry_find, registry_unqualified_name
from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.model._model import init_active_model, init_model_roles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_taste_evals.cli.sweep_checks import check_sweep
from research_taste_evals.core.data import (
    DataError,
    cache_dir,
    describe_validation_error,
    describe_yaml_error,
)
from research_taste_evals.core.demo import DemoRun

# Sample-level retries of a transient error (a malformed or dropped provider response) before
# the sample counts as errored; Inspect's own default is no retry.
DEFAULT_RETRY_ON_ERROR = 3
# A task's data argument with this value is replaced by demo data its family's demo.py writes.
DEMO_DATA_VALUE = "demo"
# Every sweep run carries this tag, so reports can tell sweep logs from ad-hoc runs.
SWEEP_TAG = "sweep"
# Task arguments that name the data a run reads: with one, --dry-run counts the samples there.
DATA_ARG_SUFFIXES = ("_path", "_file")

ModelRoles = dict[str, str | list[str]]


class SweepTask(BaseModel):
    """One task of the grid, with its arguments and (optionally) its own models and roles."""

    model_config = ConfigDict(extra="forbid")

    task: str
    args: dict[str, Any] = Field(default_factory=dict)
    models: list[str] | None = Field(default=None, min_length=1)
    model_roles: ModelRoles | None = None


class SweepConfig(BaseModel):
    """A sweep file: which models run which tasks, how, and where the logs go."""

    model_config = ConfigDict(extra="forbid")

    log_dir: str
    tasks: list[SweepTask] = Field(min_length=1)
    models: list[str] = Field(default_factory=list)
    model_roles: ModelRoles = Field(default_factory=dict)
    epochs: int | None = Field(default=None, ge=1)
    limit: int | None = Field(default=None, ge=1)
    max_connections: int | None = Field(default=None, ge=1)
    max_samples: int | None = Field(default=None, ge=1)
    max_tasks: int | None = Field(default=None, ge=1)
    batch: bool | int | None = None
    retry_attempts: int | None = Field(default=None, ge=0)
    retry_on_error: int = Field(default=DEFAULT_RETRY_ON_ERROR, ge=0)
    fail_on_error: bool | float | None = None
    # Samples written to the log between flushes: what survives a killed process to be resumed.
    log_buffer: int | None = Field(default=None, ge=1)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class PlannedRun:
    """One cell of the grid: a task with its arguments, run by one model."""

    task: str
    args: dict[str, Any]
    model: str
    model_roles: ModelRoles


def _demo_runs() -> dict[str, DemoRun]:
    """Per task, the family's demo run that writes demo data (for ``<data_arg>: demo``)."""
    from research_taste_evals.cli.demo import DEMO_RUNS

    return {run.name: run for run in DEMO_RUNS if run.data_arg and run.write_data}


def demo_data_dir() -> Path:
    """A stable folder for demo data, so reruns see identical task arguments (and skip)."""
    return cache_dir() / "demo-data"


def _tasks_by_name() -> dict[str, Any]:
    from research_taste_evals._registry import TASKS

    return {fn.__name__: fn for fn in TASKS}


def load_sweep(path: str | Path) -> SweepConfig:
    """Read and validate a sweep file; errors name the file and the field."""
    source = Path(path)
    try:
        raw = yaml.safe_load(source.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataError(f"{source}: cannot read: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise DataError(f"{source}: cannot read: not UTF-8 text: byte {error.start}") from error
    except yaml.YAMLError as error:
        raise DataError(f"{source}: invalid YAML {describe_yaml_error(error)}") from error
    if raw is None:
        raise DataError(f"{source}: the sweep file is empty (needs log_dir, tasks and models)")
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as error:
        raise DataError(f"{source}: {describe_validation_error(error)}") from error
    known = _tasks_by_name()
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
        accepted = inspect.signature(known[entry.task]).parameters
        unknown_args = sorted(set(entry.args) - set(accepted))
        if unknown_args:
            raise DataError(
                f"{source}: field 'tasks.{index}.args': {entry.task} has no argument(s) "
                f"{unknown_args}; its arguments: {sorted(accepted)}"
            )
        demo = demos.get(entry.task)
        for name, value in entry.args.items():
            if value == DEMO_DATA_VALUE and (demo is None or name != demo.data_arg):
                offered = sorted(f"{run.name}.{run.data_arg}" for run in demos.values())
                raise DataError(
                    f"{source}: field 'tasks.{index}.args.{name}': 'demo' data exists only "
                    f"for these task arguments: {offered}"
                )
    check_models(source, config)
    check_sweep(source, config)  # roles nobody reads, repeated runs, a log_dir that is a file
    return config


def _named_models(config: SweepConfig) -> list[tuple[str, str]]:
    """(field, model) for every model and role member the file names, top level and per task."""
    named = [(f"models.{i}", model) for i, model in enumerate(config.models)]
    scopes: list[tuple[str, ModelRoles]] = [("model_roles", config.model_roles)]
    for index, entry in enumerate(config.tasks):
        named += [(f"tasks.{index}.models.{i}", m) for i, m in enumerate(entry.models or [])]
        scopes.append((f"tasks.{index}.model_roles", entry.model_roles or {}))
    for prefix, roles in scopes:
        for role, members in roles.items():
            if isinstance(members, list):
                named += [(f"{prefix}.{role}.{i}", model) for i, model in enumerate(members)]
            else:
                named.append((f"{prefix}.{role}", members))
    return named


def check_models(source: Path, config: SweepConfig) -> None:
    """Each model and role member must name a known provider (``<provider>/<model>``).

    Only the provider is looked up (no client is built): a dry run needs no API key, and a
    missing key is reported by the provider when the run starts.

    Raises:
        DataError: naming the sweep file, the field and the model.
    """
    ensure_entry_points()  # providers registered by installed packages (e.g. baseline/)
    for field, model in _named_models(config):
        provider, slash, _ = model.partition("/")
        if not slash:
            raise DataError(f"{source}: field '{field}': {model!r} is not <provider>/<model>")
        if not registry_find(partial(_is_model_api, provider)):
            raise DataError(
                f"{source}: field '{field}': unknown model provider {provider!r} in {model!r}"
            )


def _is_model_api(provider: str, info: RegistryInfo) -> bool:
    return info.type == "modelapi" and registry_unqualified_name(info) == provider


def plan(config: SweepConfig, shard: tuple[int, int] | None = None) -> list[PlannedRun]:
    """The grid in file order; with ``shard=(i, n)`` only every n-th run starting at the i-th."""
    runs = [
        PlannedRun(
            task=entry.task,
            args=entry.args,
            model=model,
            model_roles=entry.model_roles if entry.model_roles is not None else config.model_roles,
        )
        for entry in config.tasks
        for model in entry.models or config.models
    ]
    if shard is None:
        return runs
    index, count = shard
    return runs[index - 1 :: count]


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

    Built in an empty context: Inspect leaves the last eval's active model set in the calling
    context, and a task that checks its roles when built by ``inspect eval`` (lft) would take
    that for its own eval, whose roles are bound only later (``task_with``).
    """
    return contextvars.Context().run(_tasks_by_name()[run.task], **resolve_args(run))


def build_tasks(runs: list[PlannedRun]) -> list[Task]:
    """One Inspect task per planned run, with its model and roles bound to it."""
    tasks = []
    for run in runs:
        # Built with the run's model and roles active (as Inspect builds a task named on its
        # command line), so a constructor's role check (core/roles.py) sees this run's roles.
        task = contextvars.Context().run(_construct, _tasks_by_name()[run.task], run)
        if run.model_roles:
            tasks.append(task_with(task, model=run.model, model_roles=dict(run.model_roles)))
        else:
            tasks.append(task_with(task, model=run.model))
    return tasks


def _construct(task_fn: Callable[..., Task], run: PlannedRun) -> Task:
    """Call a task constructor with ``run``'s model and roles active (call in a copied context)."""
    roles = {
        role: [get_model(m) for m in members] if isinstance(members, list) else get_model(members)
        for role, members in run.model_roles.items()
    }
    init_model_roles(roles)
    init_active_model(get_model(run.model), GenerateConfig())
    return task_fn(**resolve_args(run))


def run_sweep(
    config: SweepConfig, shard: tuple[int, int] | None = None, display: str | None = None
) -> bool:
    """Run the sweep (or one shard of it); True when every run succeeded."""
    runs = plan(config, shard)
    if not runs:
        return True
    success, _ = eval_set(
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
    return bool(success)


def _sample_count(run: PlannedRun) -> tuple[int | None, str]:
    """Samples of a planned run: counted from local (or demo) data, else the eval.yaml figure."""
    from research_taste_evals.reporting.families import task_specs

    declared = task_specs()[run.task].dataset_samples if run.task in task_specs() else None
    if not any(key.endswith(DATA_ARG_SUFFIXES) for key in run.args):
        return declared, "eval.yaml"
    return len(construct(run).dataset), "data"


def estimate_calls(run: PlannedRun, samples: int, config: SweepConfig) -> float:
    """Model calls of a run: samples x epochs x (calls of the model + of each role member).

    Calls per sample are the family's eval.yaml figures (typical with default arguments; parse
    retries and follow-ups add more), so this is an estimate for budgeting, not a bound.
    """
    from research_taste_evals.reporting.families import task_specs

    per_sample = task_specs()[run.task].model_calls_per_sample
    calls = per_sample.get("model", 1.0)
    for role, members in run.model_roles.items():
        calls += per_sample.get(role, 0.0) * (len(members) if isinstance(members, list) else 1)
    epochs = config.epochs or 1
    shown = min(samples, config.limit) if config.limit else samples
    return shown * epochs * calls


def dry_run_text(config: SweepConfig, shard: tuple[int, int] | None = None) -> str:
    """The planned (model, task, arguments) grid, samples and estimated model calls."""
    lines = [f"log_dir: {config.log_dir}"]
    total = 0.0
    for run in plan(config, shard):
        samples, origin = _sample_count(run)
        calls = estimate_calls(run, samples, config) if samples is not None else None
        total += calls or 0.0
        roles = " ".join(
            f"{role}={'+'.join(m) if isinstance(m, list) else m}"
            for role, m in sorted(run.model_roles.items())
        )
        args = " ".join(f"{k}={v}" for k, v in sorted(run.args.items()))
        lines.append(
            f"{run.model:<32} {run.task:<20} {args or '-'} {roles}".rstrip()
            + f"  samples={samples if samples is not None else '?'} ({origin})"
            + f"  ~calls={round(calls) if calls is not None else '?'}"
        )
    lines.append(f"{len(lines) - 1} runs, about {round(total)} model calls")
    return "\n".join(lines)
