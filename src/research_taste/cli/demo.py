"""``research-taste demo``: every task, offline, on demo data the project writes, with baselines.

Each family's ``demo.py`` defines ``DEMO_RUNS`` (:class:`research_taste_evals.core.demo.DemoRun`);
the demo collects them from every family in :data:`DEMO_FAMILIES`, writes the demo data under
``<log_dir>/demo-data`` (the same folder every run, so a task's arguments, and with them its row
in a leaderboard, do not change from run to run), runs each task against its ``baseline/...``
model with Inspect, writes the logs to the log directory and prints one line per task.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from types import ModuleType

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from research_taste_evals.aaar import demo as aaar_demo
from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.ideapairs import demo as ideapairs_demo
from research_taste_evals.lft import demo as lft_demo
from research_taste_evals.reviewcritique import demo as reviewcritique_demo
from research_taste_evals.scijudge import demo as scijudge_demo
from research_taste_evals.tastybench import demo as tastybench_demo

DEFAULT_LOG_DIR = "logs"
DEMO_DATA_FOLDER = "demo-data"  # under the log dir; Inspect lists only its own log files there
# Every family's demo module, each with a DEMO_RUNS tuple; a new family adds its module here.
DEMO_FAMILIES: tuple[ModuleType, ...] = (
    aaar_demo,
    reviewcritique_demo,
    lft_demo,
    tastybench_demo,
    ideapairs_demo,
    scijudge_demo,
)


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


def is_headline(metric_name: str) -> bool:
    """Overall figures only: per-group breakdowns, standard errors and CI bounds stay in the log."""
    return "/" not in metric_name and not metric_name.endswith(("_stderr", "_ci_low", "_ci_high"))


def summarize(log: EvalLog) -> str:
    """One line: task, model, status, and the overall metrics of each scorer."""
    parts = []
    if log.results is not None:
        for eval_score in log.results.scores:
            for name, eval_metric in eval_score.metrics.items():
                if not is_headline(name):
                    continue
                value = eval_metric.value
                shown = "nan" if isinstance(value, float) and math.isnan(value) else f"{value:.3f}"
                parts.append(f"{name}={shown}")
    error = f"  error: {log.error.message}" if log.error else ""
    task = log.eval.task.rsplit("/", 1)[-1]
    return f"{task:<18} {log.eval.model:<30} {log.status:<8} {' '.join(parts)}{error}"


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
