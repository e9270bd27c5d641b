"""The sweep file's schema (``research-taste sweep``): models, tasks, roles and run settings."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Sample-level retries of a transient error (a malformed or dropped provider response) before
# the sample counts as errored; Inspect's own default is no retry.
DEFAULT_RETRY_ON_ERROR = 3

ModelRoles = dict[str, str | list[str]]


class SweepTask(BaseModel):
    """One task of the grid, with its arguments and (optionally) its own models and roles."""

    model_config = ConfigDict(extra="forbid")

    task: str
    args: dict[str, Any] = Field(default_factory=dict)
    models: list[str] | None = Field(default=None, min_length=1)
    model_roles: ModelRoles | None = None


class Price(BaseModel):
    """A model's price in dollars per million tokens (for ``--dry-run``'s cost estimate)."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class SweepConfig(BaseModel):
    """A sweep file: which models run which tasks, how, and where the logs go."""

    model_config = ConfigDict(extra="forbid")

    log_dir: str
    tasks: list[SweepTask] = Field(min_length=1)
    models: list[str] = Field(default_factory=list)
    model_roles: ModelRoles = Field(default_factory=dict)
    # Per model name, its model arguments (``-M``), wherever it runs: evaluated or in a role.
    model_args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    # Per evaluated model, its knowledge cutoff (YYYY-MM-DD): passed as ``knowledge_cutoff`` to
    # every task of the grid that takes it (a task entry's own ``knowledge_cutoff`` wins). The
    # only cutoff source for models Inspect's model database does not know (baseline/, local/).
    knowledge_cutoffs: dict[str, str] = Field(default_factory=dict)
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
    # Per model name, its price per million input and output tokens (``--dry-run`` cost).
    prices: dict[str, Price] = Field(default_factory=dict)
