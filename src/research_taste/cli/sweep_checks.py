"""Checks of a sweep file beyond its schema: roles, repeated runs, the log folder, API keys.

Each failure is one :class:`DataError` sentence naming the sweep file and the entry (``field
'tasks.1.model_roles.grder'``), raised before any run starts: a role nobody reads, a required
role missing, a quorum the grader panel cannot reach, a run listed twice, a ``log_dir`` that is
a file, or a provider that cannot be used (no API key, no client package). Roles, repeats and
the log folder are checked when the file is read (so ``--dry-run`` finds them too); keys only
before a real run, so a dry run needs none.
"""

from __future__ import annotations

import difflib
import inspect
import json
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_ai.model import get_model

from research_taste_evals.core.baselines import registered_baselines
from research_taste_evals.core.data import DataError
from research_taste_evals.core.errors import UserError, is_inspect_prerequisite_error
from research_taste_evals.core.failure_text import plain_message
from research_taste_evals.core.families import task_specs

if TYPE_CHECKING:
    from research_taste.cli.sweep_schema import ModelRoles, SweepConfig


def task_roles(task: str) -> tuple[str, ...]:
    """The model roles ``task`` reads besides the evaluated model, from the task's spec
    (``core/spec.py``); a role a task does not read would be ignored by Inspect, so a sweep
    naming one is almost always a typo or a wrong entry. An unknown task reads none (the
    sweep's own check names it)."""
    spec = task_specs().get(task)
    return tuple(role.role for role in spec.roles) if spec is not None else ()


# A remote log folder (s3://, ...) cannot be checked from here: eval_set reports it.
_REMOTE = "://"
BASELINE_PREFIX = "baseline/"


def check_sweep(source: Path, config: SweepConfig) -> None:
    """The checks that need no API key: roles, repeated runs and the log folder."""
    check_roles(source, config)
    check_required_roles(source, config)
    check_quorums(source, config)
    check_repeats(source, config)
    check_log_dir(f"{source}: field 'log_dir'", config.log_dir)


def _roles_text(roles: tuple[str, ...]) -> str:
    return ", ".join(f"'{r}'" for r in roles) if roles else "none"


def check_roles(source: Path, config: SweepConfig) -> None:
    """A task entry's ``model_roles`` must be roles the task reads; a top-level role, one that
    at least one of the tasks using the top-level roles reads.

    Raises:
        DataError: naming the field, the role, and the roles the task(s) read.
    """
    shared_users: set[str] = set()
    for index, entry in enumerate(config.tasks):
        reads = task_roles(entry.task)
        if entry.model_roles is None:
            shared_users.add(entry.task)
            continue
        for role in entry.model_roles:
            if role not in reads:
                raise DataError(
                    f"{source}: field 'tasks.{index}.model_roles.{role}': task {entry.task} "
                    f"reads no model role '{role}' (its roles: {_roles_text(reads)})"
                )
    read_by_any = sorted({role for task in shared_users for role in task_roles(task)})
    for role in config.model_roles:
        if role not in read_by_any:
            raise DataError(
                f"{source}: field 'model_roles.{role}': no task using the top-level roles "
                f"({', '.join(sorted(shared_users)) or 'none'}) reads a model role '{role}' "
                f"(their roles: {_roles_text(tuple(read_by_any))})"
            )


def check_required_roles(source: Path, config: SweepConfig) -> None:
    """A task entry whose required role (its spec's role without a default: an ``lft`` grader)
    is bound neither in the entry nor at the top level, nor given by the task argument that
    names its model or waives it.

    Raises:
        DataError: naming the entry, the role and the ways to give it.
    """
    for index, entry in enumerate(config.tasks):
        spec = task_specs().get(entry.task)
        roles = entry.model_roles if entry.model_roles is not None else config.model_roles
        for role in spec.roles if spec is not None else ():
            if role.default is not None or role.explicit is not None or role.role in roles:
                continue
            if entry.args.get(role.parameter or "") is not None:
                continue
            if role.waived_by is not None and entry.args.get(role.waived_by) is True:
                continue
            waiver = f" (or 'args: {{{role.waived_by}: true}}')" if role.waived_by else ""
            raise DataError(
                f"{source}: field 'tasks.{index}' ({entry.task}) has no '{role.role}' model "
                f"role: add 'model_roles: {{{role.role}: <model>}}' to the entry or the file"
                f"{waiver}"
            )


def panel_repeats(task: str) -> int | None:
    """The default ``grader_repeats`` of a task whose grader panel needs ``quorum`` valid grades
    of (grader models x ``grader_repeats``), read from the task's signature (no list of such
    tasks); None for a task without both arguments, or an unknown one."""
    from research_taste_evals._registry import TASKS

    fn = next((found for found in TASKS if found.__name__ == task), None)
    parameters = inspect.signature(inspect.unwrap(fn)).parameters if fn is not None else {}
    if "quorum" not in parameters or "grader_repeats" not in parameters:
        return None
    return int(parameters["grader_repeats"].default)


def check_quorums(source: Path, config: SweepConfig) -> None:
    """A quorum the panel cannot reach: refused here, since at run time it stops every sample
    inside Inspect's task display (a traceback panel, not this sentence).

    Raises:
        DataError: naming the sweep file, the entry's ``args.quorum`` and the panel's size.
    """
    for index, entry in enumerate(config.tasks):
        quorum = entry.args.get("quorum")
        default_repeats = panel_repeats(entry.task)
        if quorum is None or default_repeats is None:
            continue
        roles = entry.model_roles if entry.model_roles is not None else config.model_roles
        graders = roles.get("grader")
        members = len(graders) if isinstance(graders, list) else 1  # none: the evaluated model
        repeats = int(entry.args.get("grader_repeats", default_repeats))
        if not 1 <= int(quorum) <= members * repeats:
            raise DataError(
                f"{source}: field 'tasks.{index}.args.quorum': {quorum} valid grades cannot come "
                f"from a panel of {members} grader model(s) x grader_repeats {repeats}; give a "
                f"quorum of 1..{members * repeats} or more graders"
            )


def _run_key(task: str, args: dict, model: str, roles: ModelRoles) -> str:
    return json.dumps([task, args, model, roles], sort_keys=True, default=str)


def check_repeats(source: Path, config: SweepConfig) -> None:
    """The same task, arguments, model and roles listed twice would run (and count) twice.

    Raises:
        DataError: naming both task entries and the repeated run.
    """
    if len(set(config.models)) < len(config.models):
        raise DataError(f"{source}: field 'models': a model is listed twice")
    first: dict[str, int] = {}
    for index, entry in enumerate(config.tasks):
        roles = entry.model_roles if entry.model_roles is not None else config.model_roles
        for model in entry.models or config.models:
            key = _run_key(entry.task, entry.args, model, roles)
            if key in first:
                where = (
                    f"entry 'tasks.{index}' lists the model twice"
                    if first[key] == index
                    else f"entries 'tasks.{first[key]}' and 'tasks.{index}' both run it"
                )
                raise DataError(
                    f"{source}: task {entry.task} with model {model} and the same arguments "
                    f"and roles is listed twice: {where}; remove one"
                )
            first[key] = index


def check_log_dir(where: str, log_dir: str) -> None:
    """``log_dir`` must be a folder, or not exist yet (it is created); ``where`` names it.

    Raises:
        DataError: ``log_dir`` is an existing file.
    """
    if _REMOTE in log_dir:
        return
    path = Path(log_dir).expanduser()
    if path.exists() and not path.is_dir():
        raise DataError(f"{where}: {path} is a file, not a folder (logs go in a folder)")


def named_models(config: SweepConfig) -> list[tuple[str, str]]:
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


def check_credentials(source: Path | str, config: SweepConfig) -> None:
    """Build every model and role member (no call): a missing API key or client package is
    reported now, naming the entry, not by the provider once the runs start.

    Raises:
        DataError: naming the sweep file, the field, the model and the provider's complaint.
    """
    for field, model in named_models(config):
        try:
            get_model(model)
        except UserError as error:  # e.g. a misspelt baseline model: name the field
            raise DataError(f"{source}: field '{field}': {_unknown_model(model, error)}") from error
        except Exception as error:
            if not is_inspect_prerequisite_error(error):
                raise
            reason = plain_message(error)
            raise DataError(f"{source}: field '{field}': {model}: {reason}") from error


def _unknown_model(model: str, error: UserError) -> str:
    """A short sentence for a model the package refused: the close baseline names, not all."""
    if not model.startswith(BASELINE_PREFIX):
        return str(error)
    name = model.removeprefix(BASELINE_PREFIX)
    close = difflib.get_close_matches(name, list(registered_baselines()), n=3, cutoff=0.7)
    hint = (
        f"did you mean {' or '.join(BASELINE_PREFIX + c for c in close)}?"
        if close
        else "research-taste list names them"
    )
    return f"unknown baseline model '{model}': {hint}"
