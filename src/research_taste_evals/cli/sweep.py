"""``research-taste sweep``: run a models x tasks grid from a YAML file with Inspect's eval_set.

``eval_set`` retries failed runs and skips the ones already complete in the log folder, so a
scheduled sweep can simply be run again; ``research-taste leaderboard`` then reads the folder.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import yaml
from inspect_ai import Task, eval_set
from inspect_ai.model import get_model
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_taste_evals.core.data import (
    DataError,
    describe_validation_error,
    describe_yaml_error,
)


class SweepTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    args: dict[str, Any] = Field(default_factory=dict)


class SweepConfig(BaseModel):
    """A sweep file: which models run which tasks, and where the logs go."""

    model_config = ConfigDict(extra="forbid")

    log_dir: str
    models: list[str] = Field(min_length=1)
    tasks: list[SweepTask] = Field(min_length=1)
    model_roles: dict[str, str] = Field(default_factory=dict)
    epochs: int | None = None
    limit: int | None = None
    max_connections: int | None = None
    retry_attempts: int | None = None


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
        raise DataError(f"{source}: the sweep file is empty (needs log_dir, models and tasks)")
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as error:
        raise DataError(f"{source}: {describe_validation_error(error)}") from error
    known = _tasks_by_name()
    for index, entry in enumerate(config.tasks):
        if entry.task not in known:
            raise DataError(
                f"{source}: field 'tasks.{index}.task': unknown task {entry.task!r}; "
                f"known: {sorted(known)}"
            )
        check_task_args(source, index, entry, known[entry.task])
    check_models(source, config)
    return config


def check_task_args(source: Path, index: int, entry: SweepTask, task_fn: Any) -> None:
    """Every ``args`` key must be a parameter of the task (else the sweep fails mid-way).

    Raises:
        DataError: naming the sweep file, the task entry and the unknown argument.
    """
    parameters = inspect.signature(task_fn).parameters
    for name in entry.args:
        if name not in parameters:
            raise DataError(
                f"{source}: field 'tasks.{index}.args.{name}': task {entry.task!r} has no "
                f"argument {name!r}; known: {sorted(parameters)}"
            )


def check_models(source: Path, config: SweepConfig) -> None:
    """Each model and role model must name a known provider (``<provider>/<model>``).

    Raises:
        DataError: naming the sweep file, the field and Inspect's complaint.
    """
    named = [(f"models.{i}", model) for i, model in enumerate(config.models)]
    named += [(f"model_roles.{role}", model) for role, model in config.model_roles.items()]
    for field, model in named:
        try:
            get_model(model)
        except ValueError as error:  # unknown provider or no '/': a missing key is checked later
            raise DataError(f"{source}: field '{field}': {error}") from error


def _tasks_by_name() -> dict[str, Any]:
    from research_taste_evals._registry import TASKS

    return {fn.__name__: fn for fn in TASKS}


def build_tasks(config: SweepConfig) -> list[Task]:
    known = _tasks_by_name()
    return [known[entry.task](**entry.args) for entry in config.tasks]


def run_sweep(config: SweepConfig) -> bool:
    """Run the sweep; True when every run succeeded."""
    success, _ = eval_set(
        tasks=build_tasks(config),
        model=config.models,
        model_roles=config.model_roles or None,
        log_dir=config.log_dir,
        epochs=config.epochs,
        limit=config.limit,
        max_connections=config.max_connections,
        retry_attempts=config.retry_attempts,
    )
    return bool(success)
