"""Reading a sweep file: the checks that run before any task is built or model called.

:func:`load_sweep` validates the file's shape (sweep_schema), its tasks, task arguments, cutoffs,
``demo`` data arguments (core.demo, as ``inspect eval -T`` checks them) and model providers;
every refusal is one sentence naming the file and the field.
"""

from __future__ import annotations

import datetime as dt
import functools
import glob
import inspect
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from research_taste.cli.sweep_checks import check_sweep, named_models
from research_taste.cli.sweep_schema import SweepConfig, read_sweep_yaml
from research_taste_evals.core.cutoff import CUTOFF_ARG, parse_cutoff_arg
from research_taste_evals.core.data import DataError, describe_validation_error
from research_taste_evals.core.demo import check_demo_arguments
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.task_args import check_task_arguments


def tasks_by_name() -> dict[str, Any]:
    """Every task function of the package (``_registry.TASKS``), by name."""
    from research_taste_evals._registry import TASKS

    return {fn.__name__: fn for fn in TASKS}


def load_sweep(path: str | Path) -> SweepConfig:
    """Read and validate a sweep file; errors name the file and the field."""
    source = Path(path)
    raw = read_sweep_yaml(source)  # unquoted dates stay text: a cutoff reaches logs as text
    if raw is None:
        raise DataError(f"{source}: the sweep file is empty (needs log_dir, tasks and models)")
    raw = expand_round_globs(source, raw)
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as error:
        raise DataError(f"{source}: {describe_validation_error(error)}") from error
    known = tasks_by_name()
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
        try:  # `demo` where the task has no demo data: refused as `-T ...=demo` refuses it
            task = inspect.unwrap(known[entry.task])
            check_demo_arguments(task.__module__, entry.task, entry.args)
        except ConfigError as error:
            raise DataError(f"{source}: field 'tasks.{index}.args': {error}") from error
    evaluated = {model for entry in config.tasks for model in entry.models or config.models}
    for model, cutoff in config.knowledge_cutoffs.items():
        field = f"{source}: field 'knowledge_cutoffs.{model}'"
        if model not in evaluated:
            raise DataError(f"{field}: no task of the sweep evaluates {model!r}")
        _check_cutoff(field, {CUTOFF_ARG: cutoff})
    check_models(source, config)
    check_sweep(source, config)  # roles nobody reads, repeated runs, a log_dir that is a file
    return config


ROUND_GLOB = "round"
GLOB_MAGIC = ("*", "?", "[")


def expand_round_globs(
    source: Path, raw: Any, now: dt.datetime | None = None, root: Path | None = None
) -> Any:
    """Each task entry naming ``round: <glob>`` (e.g. ``rounds/*``, relative to ``root``, the
    working directory as for ``data_path``, or absolute) becomes one entry per matching round
    folder still worth judging (:func:`judgeable`), its round argument (the round task's
    ``data_arg``) that folder: the sweep names its reference models once and they judge every
    open round.

    Raises:
        DataError: a glob on a task that judges no round, a glob that is not text, empty, or
            given as ``args.<round argument>``, no round worth judging, or an entry giving the
            round argument too (one sentence naming the file and the field).
    """
    from research_taste_evals.core.families import task_specs

    if not isinstance(raw, dict) or not isinstance(raw.get("tasks"), list):
        return raw  # the schema check names what is wrong
    moment, base = now or dt.datetime.now(dt.UTC), root or Path.cwd()
    tasks: list[Any] = []
    for index, entry in enumerate(raw["tasks"]):
        spec = task_specs().get(str(entry.get("task"))) if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or ROUND_GLOB not in entry:
            _refuse_glob_in_args(source, index, entry, spec)
            tasks.append(entry)
            continue
        field = f"{source}: field 'tasks.{index}.{ROUND_GLOB}'"
        rest = {key: value for key, value in entry.items() if key != ROUND_GLOB}
        args = dict(rest.get("args") or {})
        if spec is None or spec.rounds is None or spec.data_arg is None:
            judges = sorted(name for name, s in task_specs().items() if s.rounds is not None)
            raise DataError(
                f"{field}: task {entry.get('task')!r} judges no round; a round glob needs a "
                f"round task ({', '.join(judges)})"
            )
        arg = spec.data_arg
        if arg in args:
            raise DataError(f"{field}: give the round glob or args.{arg}, not both")
        pattern = entry[ROUND_GLOB]
        if not isinstance(pattern, str) or not pattern.strip():
            raise DataError(
                f"{field}: the round glob must be a non-empty path pattern such as 'rounds/*' "
                f"(got {pattern!r})"
            )
        found = [Path(path) for path in round_folders(pattern, base)]
        open_, skipped = judgeable(found, moment)
        if not open_:
            why = "; ".join(f"{n} {reason}" for reason, n in skipped.items() if n) or "none"
            raise DataError(
                f"{field}: no round matching {pattern!r} is left to judge ({len(found)} "
                f"round(s) match: {why})"
            )
        for path in open_:
            relative = root is None and not Path(pattern).is_absolute()
            folder = str(path.relative_to(base)) if relative else str(path)
            tasks.append({**rest, "args": {**args, arg: folder}})
    return {**raw, "tasks": tasks}


def round_folders(pattern: str, base: Path) -> list[str]:
    """The round folders ``pattern`` matches, relative to ``base`` or absolute (sorted)."""
    from research_taste_evals.core.rounds import is_round

    absolute = Path(pattern).is_absolute()
    matches = glob.glob(pattern) if absolute else glob.glob(pattern, root_dir=base)
    paths = [Path(match) if absolute else base / match for match in matches]
    return sorted(str(path) for path in paths if is_round(path))


def judgeable(rounds: list[Path], moment: dt.datetime) -> tuple[list[Path], dict[str, int]]:
    """The rounds still worth judging at ``moment``, and how many are not, by reason: past
    their ``judge_by``, or every paired item labelled or dropped in the newest labels version
    (a judgment then decides nothing before its label: round.json's ``pending_items``)."""
    from research_taste_evals.core.rounds import parse_time, read_manifest

    skipped = {"past their judge_by": 0, "with every paired item labelled": 0}
    open_: list[Path] = []
    for path in rounds:
        manifest = read_manifest(path)
        by = parse_time(manifest.get("judge_by"))
        versions = manifest.get("label_versions") or []
        if by is not None and by <= moment:
            skipped["past their judge_by"] += 1
        elif versions and versions[-1].get("pending_items") == 0:
            skipped["with every paired item labelled"] += 1
        else:
            open_.append(path)
    return open_, skipped


def _refuse_glob_in_args(source: Path, index: int, entry: Any, spec: Any) -> None:
    """A round task's round argument holding a glob belongs in the entry's ``round:`` key."""
    if spec is None or spec.rounds is None or spec.data_arg is None:
        return
    args = entry.get("args") if isinstance(entry, dict) else None
    value = args.get(spec.data_arg) if isinstance(args, dict) else None
    if isinstance(value, str) and any(mark in value for mark in GLOB_MAGIC):
        raise DataError(
            f"{source}: field 'tasks.{index}.args.{spec.data_arg}': {value!r} is a glob; a "
            f"glob of rounds goes in the entry's own '{ROUND_GLOB}:' key (round: {value!r}), "
            f"args.{spec.data_arg} names one round folder"
        )


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
