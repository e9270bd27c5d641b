"""Runs -> per-task leaderboards: headline metrics with CIs, sample counts, failure rates, usage.

One table per board (``boards.py``: a task, or the runs of a task's headline variant such as
TastyBench's ``schedule=matched``, never ranked with the others). Rows are model x
configuration (the newest complete run of each, see ``runs.newest_per_row``), ranked by the
first metric column (or the controlled headline beside it: ``controlled.py``); a partial run
(fewer samples scored than asked for) is marked and listed unranked below the ranked rows
unless ``include_partial``. Columns are the few headline metrics of the board (the family's
``eval.yaml``) or the ``--metric`` names asked for, each with its 95% interval where the log
has one: ``<metric>_ci_low``/``<metric>_ci_high`` as the task computed them (``cells.py``:
older ``<metric>/ci_low`` logs read too), else ``<metric>_stderr`` as a normal interval;
beside them every task's answer-shape figures ``unparsed_rate`` and ``reasked_rate`` (a dash
where a log lacks them). The full metric set of every run goes to CSV through Inspect's own
``evals_df``.
"""

from __future__ import annotations

import difflib
import math
from pathlib import Path

from research_taste.reporting.boards import boards
from research_taste.reporting.cells import DASH, cell, fmt
from research_taste.reporting.controlled import (
    controlled_for,
    controlled_text,
    ranking_metric,
    recognition_columns,
    table_notes,
)
from research_taste.reporting.families import TaskReportSpec, task_specs
from research_taste.reporting.paths import scrub_text
from research_taste.reporting.recognition import recognition_text
from research_taste.reporting.runs import LOCATION_ARG_SUFFIXES, Run
from research_taste_evals.core.data import DataError

ANSWER_SHAPE = ("unparsed_rate", "reasked_rate")  # beside every headline (issue #17)
UNRANKED = "–"


def known_metrics(runs: list[Run]) -> list[str]:
    """Every metric name the runs report, in first-seen order."""
    names: list[str] = []
    for run in runs:
        names.extend(name for name in run.metrics if name not in names)
    return names


def check_metric_names(requested: list[str] | None, known: list[str]) -> None:
    """A ``--metric`` no run reports, in one short sentence with the closest known names (a
    folder's runs may report hundreds of metrics: the sentence never lists them all).

    Raises:
        DataError: naming the flag, the unknown name and up to three close ones.
    """
    for name in requested or []:
        if name not in known:
            close = difflib.get_close_matches(name, known, 3, 0.6)
            hint = f"did you mean {' or '.join(close)}?" if close else "see metrics.csv of a report"
            raise DataError(f"--metric {name}: no run reports it; {hint}")


def check_metrics(requested: list[str] | None, runs: list[Run]) -> None:
    """:func:`check_metric_names` against every metric the runs report."""
    check_metric_names(requested, known_metrics(runs))


def columns_for(task: str, runs: list[Run], requested: list[str] | None) -> list[str]:
    """The metric columns of a task's table (its first board's: ``boards.Board.columns``)."""
    found = [board for board in boards(runs) if board.task == task]
    return found[0].columns(requested) if found else list(task_specs()[task].headline_metrics)


def answer_shape(run: Run, name: str) -> str:
    """``unparsed_rate`` / ``reasked_rate`` of a run, or a dash where its log lacks it."""
    value = run.metrics.get(name)
    return DASH if value is None else fmt(value)


def failure_text(run: Run, spec: TaskReportSpec) -> str:
    """The task's other failure counts (those beyond the answer-shape figures), or a dash."""
    parts = [
        f"{name}={fmt(run.metrics[name])}"
        for name in spec.failure_metrics
        if name in run.metrics and name not in ANSWER_SHAPE
    ]
    errored = run.total_samples - run.completed_samples
    if errored:
        parts.insert(0, f"errored_samples={errored}")
    return " ".join(parts) or DASH


def ranked(rows: list[Run], metric: str | None, include_partial: bool) -> list[tuple[str, Run]]:
    """Rows in leaderboard order with their rank (higher ``metric`` first, undefined last).

    Equal values share a rank and the next value's rank counts them all ("1, 1, 3"); rows
    whose value is undefined share the last rank.

    Partial runs are ranked only with ``include_partial``; otherwise they follow the ranked
    rows with the rank ``–``.
    """

    def order(run: Run) -> tuple[int, float, tuple[str, str, str]]:
        value = run.metrics.get(metric) if metric else None
        defined = value is not None and not math.isnan(value)
        return (0 if defined else 1, -(value or 0.0) if defined else 0.0, run.key)

    ranks = sorted((run for run in rows if include_partial or not run.partial), key=order)
    rest = [run for run in rows if not (include_partial or not run.partial)]
    out: list[tuple[str, Run]] = []
    for position, run in enumerate(ranks, start=1):
        tied = out and order(run)[:2] == order(ranks[position - 2])[:2]
        out.append((out[-1][0] if tied else str(position), run))
    return out + [(UNRANKED, run) for run in sorted(rest, key=order)]


def varying_keys(rows: list[Run]) -> set[str]:
    """Configuration keys whose value differs between rows (the ones worth a column)."""
    keys = {key for run in rows for key in run.config}
    return {key for key in keys if len({repr(run.config.get(key)) for run in rows}) > 1}


def config_label(run: Run, keys: set[str]) -> str:
    """The configuration values that tell this row apart, plus the model roles."""
    parts = [f"{key}={value}" for key, value in sorted(run.config.items()) if key in keys]
    parts += [f"{role}={'+'.join(models)}" for role, models in sorted(run.roles.items())]
    return " ".join(parts) or "-"


def table_rows(
    task: str, rows: list[Run], metrics: list[str], include_partial: bool = False
) -> list[list[str]]:
    """Header plus one ranked line of cells per row (the Markdown tables)."""
    spec = task_specs()[task]
    keys = varying_keys(rows)
    control = controlled_for(task, metrics)  # beside the raw headline, with its n
    controlled = [control.column] if control else []
    recognition = recognition_columns(task)  # every dated table
    header = ["rank", "model", "configuration", "samples", *metrics[:1], *controlled]
    header += recognition
    header += [*metrics[1:], *ANSWER_SHAPE, "other failures", "tokens", "cost (USD)", "date"]
    lines = [header]
    by = ranking_metric(task, rows, metrics, include_partial)
    for rank, run in ranked(rows, by, include_partial):
        lines.append(
            [
                rank,
                run.model,
                config_label(run, keys),
                run.counts,
                *(cell(run, name).text() for name in metrics[:1]),
                *([controlled_text(run, control)] if control else []),
                *(recognition_text(run, name) for name in recognition),
                *(cell(run, name).text() for name in metrics[1:]),
                *(answer_shape(run, name) for name in ANSWER_SHAPE),
                failure_text(run, spec),
                str(run.tokens),
                f"{run.cost:.2f}" if run.cost is not None else "not reported",
                run.created[:10],
            ]
        )
    return lines


def partial_note(rows: list[Run], include_partial: bool) -> str:
    """One sentence on the partial rows of a table (empty when there are none)."""
    partial = [run for run in rows if run.partial]
    if not partial:
        return ""
    listed = ", ".join(
        f"{run.model} ({run.completed_samples}/{run.total_samples})" for run in partial
    )
    how = (
        "ranked with the others (--include-partial)"
        if include_partial
        else ("not ranked (--include-partial ranks them)")
    )
    return f"Partial runs (fewer samples scored than asked for), {how}: {listed}."


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


def leaderboards_markdown(
    rows: list[Run], requested: list[str] | None = None, include_partial: bool = False
) -> str:
    """One section per board (``boards.py``: a task, or a task's headline variant): its title,
    table and the note on partial runs."""
    sections = []
    for board in boards(rows):
        spec = task_specs()[board.task]
        metrics = board.columns(requested)
        note = partial_note(board.rows, include_partial)
        order = table_notes(board.task, board.rows, metrics, include_partial)
        sections.append(
            f"### {board.name} ({spec.title}, version {spec.version})\n\n"
            + (f"{order}\n\n" if order else "")
            + markdown_table(table_rows(board.task, board.rows, metrics, include_partial))
            + (f"\n\n{note}" if note else "")
        )
    return "\n\n".join(sections) + "\n"


def write_full_csv(runs: list[Run], out: Path) -> Path:
    """Every metric of every run (and the log's configuration) via Inspect's ``evals_df``.

    The ``log`` column holds the path below the log folder, location arguments
    (``*_path``/``*_dir``/``*_file``) only their last part, and every other local absolute
    path (provenance ``data_source``, cache files) ``<local>/<name>``: no path of the
    building machine.
    """
    from inspect_ai.analysis import evals_df

    frame = evals_df([run.log for run in runs], quiet=True)
    relpaths = {run.log: run.relpath for run in runs}
    relpaths.update({run.log.removeprefix("file://"): run.relpath for run in runs})
    if "log" in frame.columns:
        frame["log"] = [relpaths.get(str(value), str(value)) for value in frame["log"]]
    for column in frame.columns:
        if column.startswith("task_arg_") and column.endswith(LOCATION_ARG_SUFFIXES):
            frame[column] = [_last_part(value) for value in frame[column]]
    paths = sorted({path for run in runs for path in run.local_paths})
    for column in frame.columns:  # text columns (object or Arrow strings)
        values = list(frame[column])
        if any(isinstance(value, str) for value in values):
            frame[column] = [
                scrub_text(value, paths) if isinstance(value, str) else value for value in values
            ]
    frame.to_csv(out, index=False)
    return out


def _last_part(value: object) -> object:
    if isinstance(value, str) and ("/" in value or "\\" in value):
        return value.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return value
