"""Evaluation reports in the inspect_evals convention, regenerated from logs.

Per task: the results table (full model names, configuration, headline metrics, samples, time),
the eval version, the exact ``inspect eval`` command of every row, and the paper's numbers
beside ours (or the family's stated reason there are none). A family README's "Evaluation
Report" section is this text.

A command gives every task argument in a form Inspect's ``-T`` parse (YAML) reads back as the
same value: a string YAML would read as something else (the day ``2024-12-31`` is a date to
YAML, and Inspect would then log the argument as ``date``) is written quoted,
``-T "knowledge_cutoff='2024-12-31'"``. An argument an older log recorded only as ``date``
(issue 34) is left out of the command, with a comment naming the forms that survive.
"""

from __future__ import annotations

import shlex
from datetime import datetime
from typing import Any

import yaml

from research_taste.reporting.boards import Board, boards
from research_taste.reporting.cells import cell, fmt
from research_taste.reporting.controlled import (
    controlled_for,
    controlled_text,
    recall_notes,
    recognition_columns,
)
from research_taste.reporting.families import TaskReportSpec, task_specs
from research_taste.reporting.leaderboard import (
    config_label,
    markdown_table,
    varying_keys,
)
from research_taste.reporting.recognition import recognition_text
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


# What Inspect logs for a task argument it cannot serialise: its type's name (issue 34).
UNRECORDED = ("date", "datetime")
SURVIVING_CUTOFF = "-T knowledge_cutoff=YYYY-MM or -T \"knowledge_cutoff='YYYY-MM-DD'\""


def task_arg_token(key: str, value: Any) -> str:
    """``key=value`` that Inspect's ``-T`` parse (``yaml.safe_load``) reads back as ``value``."""
    if isinstance(value, str) and ("," in value or yaml.safe_load(value) != value):
        return f"{key}='{value.replace(chr(39), chr(39) * 2)}'"  # a YAML single-quoted string
    return f"{key}={value}"


def _shell_word(word: str) -> str:
    """``word`` for a POSIX shell; a YAML-quoted ``-T`` value reads ``"key='value'"``."""
    quoted = shlex.quote(word)
    if quoted != word and "'" in word and not set(word) & set('"$`\\!'):
        return f'"{word}"'
    return quoted


def _unrecorded(run: Run) -> list[str]:
    return sorted(key for key, value in run.task_args.items() if value in UNRECORDED)


def inspect_command(run: Run) -> str:
    """The ``inspect eval`` command that reproduces ``run`` (task args as the log recorded)."""
    parts = ["inspect", "eval", f"{PACKAGE}/{run.task}", "--model", run.model]
    for role, models in sorted(run.roles.items()):
        value = models[0] if len(models) == 1 else ",".join(models)
        parts += ["--model-role", f"{role}={value}"]
    lost = _unrecorded(run)
    for key, value in sorted(run.task_args.items()):
        if key not in lost:
            parts += ["-T", task_arg_token(key, value)]
    for key, value in sorted(run.options.items()):
        parts += [f"--{key}", str(value)]
    command = " ".join(_shell_word(part) for part in parts)
    if lost:
        command += (
            f"  # the log holds no value for {', '.join(lost)} (Inspect recorded a date as "
            f"'date'): add it as {SURVIVING_CUTOFF}"
        )
    return command


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


def _row_name(run: Run, keys: set[str]) -> str:
    """``model (configuration)``: the row of the results table a figure belongs to."""
    config = config_label(run, keys)
    return run.model if config == "-" else f"{run.model} ({config})"


def task_report(board: Board) -> str:
    """One board's Evaluation Report section (a task, or a task's headline variant)."""
    task, rows, spec = board.task, board.rows, task_specs()[board.task]
    metrics = list(board.headline)
    keys = varying_keys(rows)
    control = controlled_for(task, metrics)  # beside the raw headline, with its n
    controlled = [control.column] if control else []
    recognition = recognition_columns(task)
    head = ["Model", "Configuration", *metrics[:1], *controlled, *recognition, *metrics[1:]]
    lines = [[*head, "Samples", "Time"]]
    for run in rows:
        lines.append(
            [
                run.model,
                config_label(run, keys),
                *(cell(run, name).text() for name in metrics[:1]),
                *([controlled_text(run, control)] if control else []),
                *(recognition_text(run, name) for name in recognition),
                *(cell(run, name).text() for name in metrics[1:]),
                f"{run.completed_samples}/{run.total_samples}",
                duration(run),
            ]
        )
    dates = sorted(run.created[:10] for run in rows)
    inspect_versions = sorted({run.packages.get("inspect_ai", "?") for run in rows})
    commands = "\n".join(inspect_command(run) for run in rows)
    failures = [  # by model and configuration: one line per row of the table above
        f"{_row_name(run, keys)}: "
        + ", ".join(f"{m}={fmt(run.metrics[m])}" for m in spec.failure_metrics if m in run.metrics)
        for run in rows
        if any(m in run.metrics for m in spec.failure_metrics)
    ]
    parts = [
        f"### Evaluation Report: `{task}`" + (f" ({board.variant})" if board.variant else ""),
        f"Eval version {spec.version} ({spec.title}); runs of {dates[0]} to {dates[-1]}, "
        f"inspect_ai {', '.join(inspect_versions)}. Intervals are 95% where the log has them.",
        recall_notes(task, rows),
        markdown_table(lines),
        f"Unparsed / unscored: {'; '.join(failures)}." if failures else "",
        f"Commands:\n\n```bash\n{commands}\n```",
        paper_section(spec, metrics),
    ]
    return "\n\n".join(part for part in parts if part)


def eval_report_markdown(rows: list[Run]) -> str:
    """Every board's Evaluation Report, in family order (``boards.py``)."""
    sections = [task_report(board) for board in boards(rows)]
    return "# Evaluation Reports\n\n" + "\n\n".join(sections) + "\n"
