"""Logs -> runs: read every log header in a folder, keep the ones fit for a leaderboard.

A log is excluded, with the reason, when it judges a round (the report's Rounds section reads
those: ``rounds.py``), when it errored or is incomplete, when it is of a task
this package does not register, when its task version is not the current one (numbers of
different versions are not comparable), or when it comes from the test suite. A test log is
recognised by a model (evaluated or in any role) of Inspect's mock provider (``mockllm/...``,
which only tests use) or by a ``test`` tag. The suite's other runs (offline baselines) cannot
reach a user's folder: tests/conftest.py sends every default log to a scratch folder.
Headers are read first (``read_eval_log(header_only=True)``); a run's figures are those its
header's results hold (``core.task_metric.log_results``): the report never computes a figure
again from a log's samples. A folder may hold the logs of several sweep shards and of several
dates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from research_taste.completeness import PARTIAL, run_completeness
from research_taste.reporting.families import TaskReportSpec, task_specs
from research_taste.reporting.paths import header_paths, scrub_text, scrub_value
from research_taste_evals.core.demo import is_demo_data
from research_taste_evals.core.provenance import PROVENANCE_KEY
from research_taste_evals.core.task_metric import log_results

TEST_TAG = "test"
ROUND_REASON = "a round's judgment: reported in the Rounds section (docs/rounds.md)"
MOCK_PROVIDER_PREFIX = "mockllm/"
# Task arguments that say where data lives: a row's configuration holds only their last part
# (the file or folder name), so runs on the same data in different folders belong in one row
# while runs on different files (two ``representations_path``s) are two rows (issue 34).
LOCATION_ARG_SUFFIXES = ("_path", "_dir", "_file")
DEMO_DATA = "demo"  # a data argument naming the demo data the family writes
LOCAL_SOURCE = "local:"  # provenance data_source of a local file (core.data.resolve_data)


@dataclass(frozen=True)
class Run:
    """One successful log of a current task version: a leaderboard row candidate."""

    task: str
    model: str
    roles: dict[str, list[str]]
    config: dict[str, Any]
    metrics: dict[str, float]
    total_samples: int
    completed_samples: int
    tokens: int
    cost: float | None
    created: str
    started: str
    completed: str
    version: str
    log: str
    tags: tuple[str, ...] = ()
    task_args: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    packages: dict[str, str] = field(default_factory=dict)
    # The log's path below the log folder (``/``-separated): links and the bundle use it.
    relpath: str = ""
    # Fewer samples scored than asked for (``core.completeness``): marked, never ranked by default.
    partial: bool = False
    # The local absolute paths the log's header records (``reporting.paths``): task arguments
    # and configuration above already show them as ``<local>/<name>``; the report scrubs these
    # from everything it publishes.
    local_paths: tuple[str, ...] = ()

    @property
    def counts(self) -> str:
        """``completed/total`` samples, with ``partial`` when some are missing."""
        counts = f"{self.completed_samples}/{self.total_samples}"
        return f"{counts} partial" if self.partial else counts

    @property
    def config_text(self) -> str:
        """``k=v`` pairs of the configuration and roles, for tables."""
        parts = [f"{key}={value}" for key, value in sorted(self.config.items())]
        parts += [f"{role}={'+'.join(models)}" for role, models in sorted(self.roles.items())]
        return " ".join(parts)

    @property
    def key(self) -> tuple[str, str, str]:
        """(task, model, configuration): one leaderboard row."""
        config = json.dumps([self.config, self.roles], sort_keys=True, default=str)
        return self.task, self.model, config


@dataclass(frozen=True)
class Excluded:
    """A log left out of every table, and why."""

    log: str
    task: str
    model: str
    reason: str
    location: str = ""  # as Inspect listed it (the viewer bundle reads a round's logs from it)
    round_folder: str = ""  # a round judgment's round argument, as the run was given it


def _short(task: str) -> str:
    return task.split("/")[-1]


def suite_log_reason(log: EvalLog) -> str | None:
    """Why ``log`` counts as a test-suite log, or None."""
    models = [log.eval.model, *(m for role in _role_models(log).values() for m in role)]
    if any(model.startswith(MOCK_PROVIDER_PREFIX) for model in models):
        return f"test log: model {log.eval.model} is Inspect's mock provider"
    if TEST_TAG in (log.eval.tags or []):
        return f"test log: tagged {TEST_TAG!r}"
    return None


def _role_models(log: EvalLog) -> dict[str, list[str]]:
    roles: dict[str, list[str]] = {}
    for role, configs in (log.eval.model_roles or {}).items():
        listed = configs if isinstance(configs, list) else [configs]
        roles[role] = [config.model for config in listed]
    return roles


def exclusion_reason(log: EvalLog, specs: dict[str, TaskReportSpec]) -> str | None:
    """Why ``log`` must stay out of the leaderboards, or None when it is fit."""
    reason = suite_log_reason(log)
    if reason:
        return reason
    if (log.eval.metadata or {}).get("round"):
        return ROUND_REASON
    if log.status == "error":
        message = log.error.message.strip().splitlines()[0] if log.error else "no message"
        return f"errored: {message}{_counts_note(log)}"
    if log.status != "success" or log.results is None:
        return f"incomplete: status {log.status}{_counts_note(log)}"
    task = _short(log.eval.task)
    if task not in specs:
        return f"unknown task {task!r} (not declared in any family eval.yaml)"
    current = specs[task].version
    if str(log.eval.task_version) != current:
        return f"task version {log.eval.task_version}, current is {current}"
    return None


def _counts_note(log: EvalLog) -> str:
    if log.results is None:
        return ""
    done = run_completeness(log)
    return f" (partial: {done['samples_completed']}/{done['samples_total']} samples)"


def _metrics(log: EvalLog) -> dict[str, float]:
    # The figures the log holds, as the run computed them (core/task_metric.py).
    return log_results(log)


def run_of(log: EvalLog, location: str, relpath: str = "") -> Run:
    """The run of a log that passed :func:`exclusion_reason` (its local paths as placeholders)."""
    assert log.results is not None
    paths = header_paths(log)
    raw = {key: value for key, value in (log.eval.task_args or {}).items() if value is not None}
    args = scrub_value(raw, paths)
    task = _short(log.eval.task)
    # the command that reproduces the run says `demo` where `-T <arg>=demo` wrote the data
    commanded = {k: DEMO_DATA if is_demo_data(task, raw[k]) else v for k, v in args.items()}
    usage = log.stats.model_usage.values()
    costs = [u.total_cost for u in usage if u.total_cost is not None]
    loaded = loaded_data_name(log)
    return Run(
        task=task,
        model=log.eval.model,
        roles=_role_models(log),
        config={k: _configured(k, v, loaded) for k, v in args.items()},
        metrics=_metrics(log),
        total_samples=log.results.total_samples,
        completed_samples=log.results.completed_samples,
        tokens=sum(u.total_tokens for u in usage),
        cost=sum(costs) if costs else None,
        created=log.eval.created,
        started=log.stats.started_at,
        completed=log.stats.completed_at,
        version=str(log.eval.task_version),
        log=location,
        tags=tuple(log.eval.tags or ()),
        task_args=commanded,
        options={
            key: value
            for key, value in (("epochs", log.eval.config.epochs), ("limit", log.eval.config.limit))
            if value is not None
        },
        packages=dict(log.eval.packages or {}),
        relpath=relpath,
        partial=bool(run_completeness(log)[PARTIAL]),
        local_paths=tuple(sorted(paths)),
    )


def _last_part(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def loaded_data_name(log: EvalLog) -> tuple[str, ...]:
    """The data file the run loaded, as its provenance records it (``data_source``
    ``local:<path>``): the path's parts, file name last, or () when it loaded no local file."""
    block = (log.eval.metadata or {}).get(PROVENANCE_KEY) or {}
    source = block.get("data_source") if isinstance(block, dict) else None
    if not isinstance(source, str) or not source.startswith(LOCAL_SOURCE):
        return ()
    path = source.removeprefix(LOCAL_SOURCE).split(" ", 1)[0]  # "<path> sha256:..." too
    return tuple(part for part in path.replace("\\", "/").split("/") if part)


def _configured(key: str, value: Any, loaded: tuple[str, ...] = ()) -> Any:
    """A task argument as a row's configuration holds it: a location by its last part, and the
    data argument by the file the run loaded (issue 42: ``data_path=demo`` and
    ``data_path=<folder>/equation.demo.json`` read the same file and are one row). The data
    argument is the location whose value is ``demo`` or a part of the loaded file's path."""
    if not (key.endswith(LOCATION_ARG_SUFFIXES) and isinstance(value, str)):
        return value
    name = _last_part(value)
    if loaded and (value == DEMO_DATA or name in loaded):
        return loaded[-1]
    return name


def read_runs(log_dir: str) -> tuple[list[Run], list[Excluded]]:
    """Every fit run in ``log_dir`` (recursively: shards, dates) and every excluded log."""
    specs = task_specs()
    runs: list[Run] = []
    excluded: list[Excluded] = []
    root = _strip_scheme(_absolute(log_dir))
    for info in list_eval_logs(log_dir, recursive=True):
        try:
            log = read_eval_log(info, header_only=True)
        except Exception as error:  # a truncated or foreign file must not sink the report
            unreadable = scrub_text(f"unreadable log: {error}", [root])
            excluded.append(Excluded(relative_location(root, info.name), "?", "?", unreadable))
            continue
        reason = exclusion_reason(log, specs)
        where = relative_location(root, info.name)
        if reason is None:
            runs.append(run_of(log, info.name, where))
        else:
            reason = scrub_text(reason, header_paths(log) | {root})
            task = _short(log.eval.task)
            folder = str((log.eval.task_args or {}).get("round") or "")
            excluded.append(Excluded(where, task, log.eval.model, reason, info.name, folder))
    return runs, excluded


def _absolute(location: str) -> str:
    if "://" in location:
        return location
    return Path(location).expanduser().resolve().as_posix()


def _strip_scheme(location: str) -> str:
    return location.removeprefix("file://").rstrip("/")


def relative_location(root: str, location: str) -> str:
    """``location`` (a log Inspect listed under ``root``) as a ``/`` path below ``root``."""
    path = unquote(_strip_scheme(location)) if location.startswith("file://") else location
    path = _strip_scheme(path)
    if not path.startswith(root + "/"):
        return path.rsplit("/", 1)[-1]  # listed outside the folder (a symlink): its name
    return path[len(root) + 1 :]


def newest_per_row(runs: list[Run]) -> list[Run]:
    """The run shown for each (task, model, configuration), sorted for stable tables.

    A complete run always wins over a partial one (a newer run that lost samples never
    replaces a complete run); among runs equally complete, the newest wins.
    """
    best: dict[tuple[str, str, str], Run] = {}
    for run in runs:
        shown = best.get(run.key)
        if shown is None or (not run.partial, run.created) > (not shown.partial, shown.created):
            best[run.key] = run
    return sorted(best.values(), key=lambda run: run.key)
