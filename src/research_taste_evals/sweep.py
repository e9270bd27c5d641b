"""``research-taste sweep``: run a models x tasks grid from a YAML file with Inspect's eval_set.

``eval_set`` retries failed runs and skips the ones already complete in the log folder, so a
scheduled sweep can simply be run again; ``research-taste leaderboard`` then reads the folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from inspect_ai import Task, eval_set
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_taste_evals.core.data import DataError

# Inspect's sample-level retry: a transient bad response (a malformed or empty 200 body, which
# the provider does not retry) re-runs that sample instead of ending the whole run.
SAMPLE_RETRIES_ON_ERROR = 3


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
    retry_on_error: int = Field(default=SAMPLE_RETRIES_ON_ERROR, ge=0)


def load_sweep(path: str | Path) -> SweepConfig:
    """Read and validate a sweep file; errors name the file and the field."""
    source = Path(path)
    try:
        raw = yaml.safe_load(source.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataError(f"{source}: cannot read: {error}") from error
    except yaml.YAMLError as error:
        raise DataError(f"{source}: invalid YAML: {error}") from error
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise DataError(f"{source}: field '{where}': {problem['msg']}") from error
    known = _tasks_by_name()
    for index, entry in enumerate(config.tasks):
        if entry.task not in known:
            raise DataError(
                f"{source}: field 'tasks.{index}.task': unknown task {entry.task!r}; "
                f"known: {sorted(known)}"
            )
    return config


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
        retry_on_error=config.retry_on_error or None,
    )
    return bool(success)
