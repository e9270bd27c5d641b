"""Evaluation reports in the inspect_evals convention, regenerated from logs.

Per task: the results table (full model names, configuration, headline metrics, samples, time),
the eval version, the exact ``inspect eval`` command of every row, and the paper's numbers
beside ours (or the family's stated reason there are none). A family README's "Evaluation
Report" section is this text.
"""

from __future__ import annotations

import shlex
from datetime import datetime

from research_taste.reporting.controlled import controlled_for, controlled_text
from research_taste.reporting.families import TaskReportSpec, task_specs
from research_taste.reporting.leaderboard import (
    cell,
    config_label,
    fmt,
    markdown_table,
    tasks_in,
    varying_keys,
)
from research_taste.reporting.runs import Run

PACKAGE = "research_taste_evals"


def duration(run: Run) -> str:
    """Wall time of the run as ``H:MM:SS`` (empty when the log lacks a time)."""
    try:
        seconds = (
            datetime.fromisoformat(run.completed) - datetime.fromisoformat(run.started)
        ).total_seconds()
    except ValueError:
        return ""
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def inspect_command(run: Run) -> str:
    """The ``inspect eval`` command that reproduces ``run`` (task args as the log recorded)."""
    parts = ["inspect", "eval", f"{PACKAGE}/{run.task}", "--model", run.model]
    for role, models in sorted(run.roles.items()):
        value = models[0] if len(models) == 1 else ",".join(models)
        parts += ["--model-role", f"{role}={value}"]
    for key, value in sorted(run.task_args.items()):
        parts += ["-T", f"{key}={value}"]
    for key, value in sorted(run.options.items()):
        parts += [f"--{key}", str(value)]
    return shlex.join(parts)


def paper_section(spec: TaskReportSpec, metrics: list[str]) -> str:
    """The paper's numbers as a table in our metric names, or the reason there are none."""
    paper = spec.paper
    if not paper.results:
        return f"Paper's numbers: none. {paper.reason}".strip()
    # The headline metrics the paper reports first, then every other figure of its rows (the
    # P and R beside an F1 headline, a ROUGE-1 beside ROUGE-L), so no paper number is dropped.
    reported = [key for row in paper.results for key in row if key != "model"]
    shown = [m for m in metrics if m in reported]
    shown += [key for key in dict.fromkeys(reported) if key not in shown]
    shown = shown or metrics
    lines = [["model (paper)", *shown]]
    for row in paper.results:
        lines.append([str(row.get("model", "")), *(str(row.get(m, "")) for m in shown)])
    scale = " Ours are fractions of 1: multiply by 100." if "percent" in paper.source else ""
    return f"Paper's numbers ({paper.source}):{scale}\n\n{markdown_table(lines)}"


def task_report(task: str, rows: list[Run]) -> str:
    """One task's Evaluation Report section."""
    spec = task_specs()[task]
    metrics = list(spec.headline_metrics)
    keys = varying_keys(rows)
    control = controlled_for(task, metrics)  # beside the raw headline, with its n
    controlled = [control.column] if control else []
    lines = [["Model", "Configuration", *metrics[:1], *controlled, *metrics[1:], "Samples", "Time"]]
    for run in rows:
        lines.append(
            [
                run.model,
                config_label(run, keys),
                *(cell(run, name).text() for name in metrics[:1]),
                *([controlled_text(run, control)] if control else []),
                *(cell(run, name).text() for name in metrics[1:]),
                f"{run.completed_samples}/{run.total_samples}",
                duration(run),
            ]
        )
    dates = sorted(run.created[:10] for run in rows)
    inspect_versions = sorted({run.packages.get("inspect_ai", "?") for run in rows})
    commands = "\n".join(inspect_command(run) for run in rows)
    failures = [
        f"{run.model}: " + ", ".join(f"{m}={fmt(run.metrics[m])}" for m in spec.failure_metrics)
        for run in rows
        if any(m in run.metrics for m in spec.failure_metrics)
    ]
    parts = [
        f"### Evaluation Report: `{task}`",
        f"Eval version {spec.version} ({spec.title}); runs of {dates[0]} to {dates[-1]}, "
        f"inspect_ai {', '.join(inspect_versions)}. Intervals are 95% where the log has them.",
        markdown_table(lines),
        f"Unparsed / unscored: {'; '.join(failures)}." if failures else "",
        f"Commands:\n\n```bash\n{commands}\n```",
        paper_section(spec, metrics),
    ]
    return "\n\n".join(part for part in parts if part)


def eval_report_markdown(rows: list[Run]) -> str:
    """Every task's Evaluation Report, in family order."""
    sections = [task_report(task, [r for r in rows if r.task == task]) for task in tasks_in(rows)]
    return "# Evaluation Reports\n\n" + "\n\n".join(sections) + "\n"
