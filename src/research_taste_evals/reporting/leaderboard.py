"""Runs -> per-task leaderboards: headline metrics with CIs, sample counts, failure rates, usage.

Rows are model x configuration (the newest run of each); columns are the few headline metrics
the task's family declares in its ``eval.yaml`` (or the ``--metric`` names asked for), each
with its 95% interval where the log has one: ``<metric>_ci_low``/``<metric>_ci_high`` as the
task computed them, else ``<metric>_stderr`` as a normal interval. The full metric set of every
run goes to CSV through Inspect's own ``evals_df``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from research_taste_evals.core.data import DataError
from research_taste_evals.reporting.families import TaskReportSpec, task_specs
from research_taste_evals.reporting.runs import Run

Z_95 = 1.959963984540054  # two-sided 95% normal quantile, for stderr-based intervals
CI_LOW, CI_HIGH, STDERR = "_ci_low", "_ci_high", "_stderr"


@dataclass(frozen=True)
class Cell:
    """One metric value of a row with its interval (None where the log has none)."""

    value: float | None
    low: float | None = None
    high: float | None = None

    def text(self) -> str:
        if self.value is None:
            return ""
        shown = fmt(self.value)
        if self.low is not None and self.high is not None:
            shown += f" [{fmt(self.low)}, {fmt(self.high)}]"
        return shown


def fmt(value: float | None) -> str:
    """Four significant digits; NaN (an undefined metric) shows as ``nan``, never 0."""
    if value is None:
        return ""
    return "nan" if math.isnan(value) else f"{value:.4g}"


def cell(run: Run, metric: str) -> Cell:
    """``metric`` of ``run`` with its 95% interval when the log holds one."""
    value = run.metrics.get(metric)
    if value is None:
        return Cell(None)
    low, high = run.metrics.get(metric + CI_LOW), run.metrics.get(metric + CI_HIGH)
    if low is not None and high is not None:
        return Cell(value, low, high)
    stderr = run.metrics.get(metric + STDERR)
    if stderr is not None and not math.isnan(stderr) and not math.isnan(value):
        return Cell(value, value - Z_95 * stderr, value + Z_95 * stderr)
    return Cell(value)


def known_metrics(runs: list[Run]) -> list[str]:
    """Every metric name the runs report, in first-seen order."""
    names: list[str] = []
    for run in runs:
        names.extend(name for name in run.metrics if name not in names)
    return names


def check_metrics(requested: list[str] | None, runs: list[Run]) -> None:
    """Raise, listing the known names, when a requested metric is in no run."""
    if not requested:
        return
    known = known_metrics(runs)
    unknown = [name for name in requested if name not in known]
    if unknown:
        raise DataError(f"unknown metric(s) {unknown}; known: {', '.join(sorted(known)) or 'none'}")


def columns_for(task: str, runs: list[Run], requested: list[str] | None) -> list[str]:
    """The metric columns of a task's table: the requested ones it reports, else its headline."""
    if requested:
        reported = set(known_metrics(runs))
        return [name for name in requested if name in reported]
    return list(task_specs()[task].headline_metrics)


def _failure_text(run: Run, spec: TaskReportSpec) -> str:
    parts = [
        f"{name}={fmt(run.metrics[name])}" for name in spec.failure_metrics if name in run.metrics
    ]
    errored = run.total_samples - run.completed_samples
    if errored:
        parts.insert(0, f"errored_samples={errored}")
    return " ".join(parts) or "-"


def varying_keys(rows: list[Run]) -> set[str]:
    """Configuration keys whose value differs between rows (the ones worth a column)."""
    keys = {key for run in rows for key in run.config}
    return {key for key in keys if len({repr(run.config.get(key)) for run in rows}) > 1}


def config_label(run: Run, keys: set[str]) -> str:
    """The configuration values that tell this row apart, plus the model roles."""
    parts = [f"{key}={value}" for key, value in sorted(run.config.items()) if key in keys]
    parts += [f"{role}={'+'.join(models)}" for role, models in sorted(run.roles.items())]
    return " ".join(parts) or "-"


def table_rows(task: str, rows: list[Run], metrics: list[str]) -> list[list[str]]:
    """Header plus one line of cells per row (shared by Markdown and HTML)."""
    spec = task_specs()[task]
    keys = varying_keys(rows)
    header = ["model", "configuration", "samples", *metrics, "unparsed / unscored"]
    header += ["tokens", "cost (USD)", "date"]
    lines = [header]
    for run in rows:
        lines.append(
            [
                run.model,
                config_label(run, keys),
                f"{run.completed_samples}/{run.total_samples}",
                *(cell(run, name).text() for name in metrics),
                _failure_text(run, spec),
                str(run.tokens),
                f"{run.cost:.2f}" if run.cost is not None else "not reported",
                run.created[:10],
            ]
        )
    return lines


def markdown_table(lines: list[list[str]]) -> str:
    """A Markdown pipe table; ``|`` inside cells is escaped."""
    escaped = [[value.replace("|", "\\|") for value in line] for line in lines]
    out = ["| " + " | ".join(escaped[0]) + " |", "|" + "---|" * len(escaped[0])]
    out += ["| " + " | ".join(line) + " |" for line in escaped[1:]]
    return "\n".join(out)


def tasks_in(rows: list[Run]) -> list[str]:
    """Tasks with rows, in the order the families declare them."""
    present = {run.task for run in rows}
    return [task for task in task_specs() if task in present]


def leaderboards_markdown(rows: list[Run], requested: list[str] | None = None) -> str:
    """One section per task: its title, CI note and table."""
    sections = []
    for task in tasks_in(rows):
        task_rows = [run for run in rows if run.task == task]
        spec = task_specs()[task]
        metrics = columns_for(task, task_rows, requested)
        sections.append(
            f"### {task} ({spec.title}, version {spec.version})\n\n"
            + markdown_table(table_rows(task, task_rows, metrics))
        )
    return "\n\n".join(sections) + "\n"


def write_full_csv(runs: list[Run], out: Path) -> Path:
    """Every metric of every run (and the log's configuration) via Inspect's ``evals_df``."""
    from inspect_ai.analysis import evals_df

    frame = evals_df([run.log for run in runs], quiet=True)
    frame.to_csv(out, index=False)
    return out
