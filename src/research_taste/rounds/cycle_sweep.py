"""The sweep that judges the cycle's rounds: a sweep file (``sweeps/rounds.yaml``) whose task
entries each name a round glob (``round: rounds/*``), run by the sweep machinery
(``cli/sweep.py``: Inspect's ``eval_set``, finished runs skipped) on the rounds the cycle picks.

The same file runs alone as ``research-taste sweep sweeps/rounds.yaml`` (its glob expanded by
``cli/sweep_load.expand_round_globs``); in the cycle each entry is expanded to the cycle's own
rounds still within their ``judge_by`` (the cycle's ``rounds_dir`` takes the glob's place) and
the logs go to the cycle's ``log_dir``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from research_taste.cli.sweep_load import ROUND_GLOB, validate_sweep
from research_taste.cli.sweep_schema import SweepConfig, read_sweep_yaml
from research_taste_evals.core.data import DataError
from research_taste_evals.core.rounds import read_manifest


def _round_entries(source: Path) -> tuple[dict[str, Any], list[tuple[dict[str, Any], str]]]:
    """The sweep file's content and each task entry (without its glob) with its round task's
    round argument; every entry must name a round glob on a round task."""
    from research_taste_evals.core.families import task_specs

    raw = read_sweep_yaml(source)
    if not isinstance(raw, dict) or not isinstance(raw.get("tasks"), list) or not raw["tasks"]:
        raise DataError(f"{source}: field 'tasks': the cycle's sweep needs a list of task entries")
    judges = sorted(name for name, spec in task_specs().items() if spec.rounds is not None)
    entries = []
    for index, entry in enumerate(raw["tasks"]):
        field = f"{source}: field 'tasks.{index}"
        if not isinstance(entry, dict) or ROUND_GLOB not in entry:
            raise DataError(
                f"{field}.{ROUND_GLOB}': the cycle's sweep judges rounds: every task entry names "
                f"a round glob (e.g. `round: rounds/*`) on a round task ({', '.join(judges)})"
            )
        spec = task_specs().get(str(entry.get("task")))
        if spec is None or spec.rounds is None or spec.data_arg is None:
            raise DataError(
                f"{field}.task': {entry.get('task')!r} judges no round; the cycle's sweep "
                f"needs a round task ({', '.join(judges)})"
            )
        if spec.data_arg in (entry.get("args") or {}):
            raise DataError(
                f"{field}.args.{spec.data_arg}': the cycle gives each round; drop it (the entry's "
                f"{ROUND_GLOB} glob stands for the cycle's rounds)"
            )
        rest = {key: value for key, value in entry.items() if key != ROUND_GLOB}
        entries.append((rest, spec.data_arg))
    return raw, entries


def _requires(task: str) -> str | None:
    from research_taste_evals.core.families import task_specs

    support = task_specs()[task].rounds
    return None if support is None else support.requires


def check_cycle_sweep(source: Path) -> None:
    """Check the sweep file as the sweep command does (models, roles, task arguments, the
    providers' keys), before any round exists.

    Raises:
        DataError: one sentence naming the file and the field.
    """
    from research_taste.cli.sweep_checks import check_credentials

    raw, entries = _round_entries(source)
    config = validate_sweep(source, {**raw, "tasks": [rest for rest, _ in entries]})
    check_credentials(source, config)  # a missing API key, before the night's requests


def cycle_sweep(source: Path, log_dir: str, rounds: list[Path]) -> SweepConfig | None:
    """The sweep over ``rounds``: each entry once per round it can judge (its spec's
    ``requires``: e.g. PaperWeakness only on a round that froze paper texts), its logs in
    ``log_dir``; None when nothing is left to judge."""
    raw, entries = _round_entries(source)
    tasks = [
        {**rest, "args": {**(rest.get("args") or {}), arg: str(folder)}}
        for rest, arg in entries
        for folder in rounds
        if (needed := _requires(str(rest["task"]))) is None or needed in read_manifest(folder)
    ]
    if not tasks:
        return None
    # the log folder holds the other rounds' judgments and every scored log too
    shared = {"log_dir": log_dir, "log_dir_allow_dirty": True}
    return validate_sweep(source, {**raw, **shared, "tasks": tasks})
