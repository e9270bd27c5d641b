"""``research-taste demo``: every task, offline, on demo data the project writes, with baselines.

Each family's ``demo.py`` defines ``DEMO_RUNS``
(:class:`research_taste_evals.core.demo.DemoRun`); the demo collects them from every family
folder that has one (:data:`DEMO_FAMILIES`), writes the demo data under ``<log_dir>/demo-data``
(the same folder every run, so a task's arguments, and with them its row in a leaderboard, do
not change from run to run), runs each task against its ``baseline/...`` model with Inspect,
writes the logs to the log directory and prints one short line per task (its headline with its
CI and n) and the ``research-taste report`` command that shows every other figure.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, headline_metric

from research_taste_evals.core.demo import DEMO_DATA_FOLDER, DemoRun, family_demo_modules
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.round_manifest import resolve_command
from research_taste_evals.core.rounds import load_round

DEFAULT_LOG_DIR = "logs"
# The demo's data goes in <log dir>/demo-data (core.demo's folder name, so a report reads it as
# demo data); Inspect lists only its own log files there.
# Every family folder's demo.py, each with a DEMO_RUNS tuple (found from the folders).
DEMO_FAMILIES: tuple[ModuleType, ...] = family_demo_modules()


def demo_runs(families: tuple[ModuleType, ...] = DEMO_FAMILIES) -> tuple[DemoRun, ...]:
    """Every family's demo runs, in family order; a task name may appear only once."""
    runs: list[DemoRun] = []
    for family in families:
        runs.extend(family.DEMO_RUNS)
    names = [run.name for run in runs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"demo task name(s) defined twice: {duplicates}")
    return tuple(runs)


DEMO_RUNS: tuple[DemoRun, ...] = demo_runs()


def _number(value: float) -> str:
    return "nan" if isinstance(value, float) and math.isnan(value) else f"{value:.3f}"


def headline_text(log: EvalLog) -> str:
    """``<headline>=<value> [<ci_low>, <ci_high>] n=<scored samples>`` (or ``± <stderr>``).

    The headline is the task's ``Task(headline_metric=...)`` (Inspect's ``headline_metric``;
    a log without one: the first metric of its score group); its CI is the group's
    ``<name>_ci_low``/``_ci_high`` (or ``<name>/ci_low``/``/ci_high``), else its ``_stderr``.
    """
    found = headline_metric(log)
    if found is None:
        return ""
    metrics = {name: m.value for name, m in found.score.metrics.items()}
    text = f"{found.name}={_number(found.metric.value)}"
    name = found.name
    for low, high in ((f"{name}_ci_low", f"{name}_ci_high"), (f"{name}/ci_low", f"{name}/ci_high")):
        if low in metrics and high in metrics:
            text += f" [{_number(metrics[low])}, {_number(metrics[high])}]"
            break
    else:
        stderr = metrics.get(f"{found.name}_stderr")
        if isinstance(stderr, float) and not math.isnan(stderr):  # undefined: not shown as ± nan
            text += f" ± {_number(stderr)}"
    return f"{text} n={found.score.scored_samples}"


def summarize(logs: list[EvalLog]) -> list[str]:
    """One short line a log, in columns as wide as their longest entry: task, model, status,
    and the headline with its CI and n."""
    rows = []
    for log in logs:
        error = f"  error: {log.error.message.splitlines()[0][:120]}" if log.error else ""
        task = log.eval.task.rsplit("/", 1)[-1]
        rows.append((task, log.eval.model, log.status, f"{headline_text(log)}{error}"))
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(3)]
    return [
        " ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True))
        + f" {row[3]}"
        for row in rows
    ]


def closing(log_dir: str, logs: Sequence[EvalLog] = ()) -> str:
    """The demo's last lines: where the logs are, the commands that show every figure, and, for
    each round judged, the commands that resolve it on its simulated venue and score it (run
    them before the report to see the round's figures)."""
    rounds = sorted(
        {str(log.eval.task_args["round"]) for log in logs if log.eval.task_args.get("round")}
    )
    steps = "".join(
        f"\nround {folder}: {resolve_command(load_round(folder).manifest, folder)} && "
        f"research-taste round score {folder} --log-dir {log_dir}"
        for folder in rounds
    )
    return (
        f"logs written to {log_dir}/ (every figure: {report_command(log_dir)}; "
        f"the logs themselves: inspect view --log-dir {log_dir}){steps}"
    )


def report_command(log_dir: str) -> str:
    """The report command the demo prints, runnable as printed (``--out`` is required)."""
    return f"research-taste report {log_dir} --out reports/demo"


def run_demo(log_dir: str = DEFAULT_LOG_DIR, only: list[str] | None = None) -> list[EvalLog]:
    """Run the demo tasks and return their logs (one per task)."""
    # The demo promises to work with no network: never let a library reach for the Hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    runs = [run for run in DEMO_RUNS if only is None or run.name in only]
    unknown = sorted(set(only or []) - {run.name for run in DEMO_RUNS})
    if unknown:
        raise ConfigError(
            f"--task {', '.join(unknown)}: no such demo task; give one of "
            f"{', '.join(run.name for run in DEMO_RUNS)}"
        )
    data_dir = Path(log_dir) / DEMO_DATA_FOLDER
    logs = []
    for run in runs:
        task = run.build(data_dir)
        logs.extend(
            inspect_eval(
                task,
                model=run.model,
                model_roles=run.model_roles or None,
                log_dir=log_dir,
                display="none",
            )
        )
    return logs
