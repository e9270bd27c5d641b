"""The sweep file's schema (``research-taste sweep``): models, tasks, roles and run settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

from research_taste_evals.core.data import DataError, describe_yaml_error

# Sample-level retries of an error Inspect's call retries do not cover (a malformed 200 body
# raises and fails the sample; docs/running.md) before the sample counts as errored; Inspect's
# own default is no retry. With the cache on, each retry re-reads every call that finished, so
# a sample of n calls at a malformed share m needs about n*m/(1-m) retries: 20 survive
# m = 20% on 30 calls with a margin of four standard deviations (mean 7.5, sd 3.1).
DEFAULT_RETRY_ON_ERROR = 20

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
    # Run into a log folder that holds other logs too (Inspect's ``log_dir_allow_dirty``), e.g.
    # docs/rounds.md's ``logs/rounds`` beside hand-run judgments and scored logs; the sweep
    # still reads back only its own runs. Also ``research-taste sweep --log-dir-allow-dirty``.
    log_dir_allow_dirty: bool = False
    tasks: list[SweepTask] = Field(min_length=1)
    models: list[str] = Field(default_factory=list)
    model_roles: ModelRoles = Field(default_factory=dict)
    # Per model name, its model arguments (``-M``), wherever it runs: evaluated or in a role.
    model_args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    # Per evaluated model, its knowledge cutoff (YYYY-MM or YYYY-MM-DD, quoted or not: the file
    # is read with dates as text, ``read_sweep_yaml``): passed as ``knowledge_cutoff`` to
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
    # Inspect's cache of model calls (``--cache``): on, a retried or resumed sample pays for no
    # call that had finished. ``false`` runs without it (every call paid again on a retry).
    cache: bool = True
    fail_on_error: bool | float | None = None
    # Samples written to the log between flushes: what survives a killed process to be resumed.
    log_buffer: int | None = Field(default=None, ge=1)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    # Per model name, its price per million input and output tokens (``--dry-run`` cost).
    prices: dict[str, Price] = Field(default_factory=dict)


_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _DatesAsText(yaml.SafeLoader):
    """``yaml.SafeLoader`` without YAML's implicit dates: ``2024-12-31`` stays that text."""


_DatesAsText.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def read_sweep_yaml(path: Path) -> Any:
    """A sweep file's YAML with every unquoted date kept as its text (issue 34).

    A ``datetime.date`` task argument is logged by Inspect as ``date`` (so a finished run
    would never be recognised on re-run, and the reports could not read it back), and an
    impossible unquoted date (``2025-13-01``) would make PyYAML raise mid-parse; as text, a
    knowledge cutoff is checked by ``core.cutoff.parse_cutoff_arg`` and named by its field.

    Raises:
        DataError: the file cannot be read, or is not YAML (naming line and column).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"{path}: cannot read: {error}") from error
    loader = _DatesAsText(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _refuse_repeated_keys(path, node, "")
        return loader.construct_document(node)
    except yaml.YAMLError as error:
        raise DataError(f"{path}: invalid YAML {describe_yaml_error(error)}") from error
    finally:
        loader.dispose()


def _refuse_repeated_keys(path: Path, node: yaml.Node, field: str) -> None:
    """A key given twice in one mapping (YAML would keep the last silently), named by field:
    ``knowledge_cutoffs:`` naming one model twice would otherwise give it the second cutoff.

    Raises:
        DataError: naming the file, the mapping's field, the key and both lines.
    """
    if isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _refuse_repeated_keys(path, item, f"{field}.{index}" if field else str(index))
    if not isinstance(node, yaml.MappingNode):
        return
    seen: dict[str, int] = {}
    for key, value in node.value:
        name = str(key.value) if isinstance(key, yaml.ScalarNode) else None
        line = key.start_mark.line + 1
        if name is not None and name in seen:
            named = f"{field}.{name}" if field else name
            lines = f"line {line}" if seen[name] == line else f"lines {seen[name]} and {line}"
            raise DataError(
                f"{path}: field '{named}': given twice ({lines}), and "
                "YAML would silently keep the last; give it once"
            )
        if name is not None:
            seen[name] = line
            _refuse_repeated_keys(path, value, f"{field}.{name}" if field else name)
