"""What a sweep left unfinished, read from its log folder, and the exit code that says so.

Inspect's ``eval_set`` reports an interrupted (Ctrl-C) run as a success in some paths ("Completed
all tasks ... successfully" while a log is ``cancelled``), and never reports a run that did not
start. So the sweep does not trust the returned flag: it reads the newest log of every planned
run in the log folder and calls a run finished only when it ended ``success`` with every sample
scored (:func:`research_taste.completeness.run_completeness`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from research_taste.completeness import (
    SAMPLES_COMPLETED,
    SAMPLES_TOTAL,
    run_completeness,
)

# The shell's status for a process ended by SIGINT (128 + 2): what an interrupted sweep exits with.
INTERRUPTED_EXIT = 130
FAILED_EXIT = 1
CANCELLED = "cancelled"


@dataclass(frozen=True)
class RunStatus:
    """One planned run as its newest log shows it."""

    task: str
    model: str
    status: str  # the log's status, or "not started"
    completed: int
    total: int | None
    headline: str = ""  # the task's first headline metric, "name=value", when the log has it
    round_name: str = ""  # a round task's round (its folder's name): one run per round

    @property
    def finished(self) -> bool:
        return self.status == "success" and self.total is not None and self.completed >= self.total

    @property
    def run(self) -> str:
        """The task, and for a round task the round it judges."""
        return f"{self.task} on {self.round_name}" if self.round_name else self.task

    def line(self) -> str:
        total = "?" if self.total is None else str(self.total)
        return f"  {self.run}  {self.model}  {self.status}, {self.completed}/{total} samples"


@dataclass(frozen=True)
class SweepOutcome:
    """Every planned run's status; true when all finished (the old boolean result)."""

    runs: list[RunStatus] = field(default_factory=list)
    interrupted: bool = False

    @property
    def unfinished(self) -> list[RunStatus]:
        return [run for run in self.runs if not run.finished]

    @property
    def success(self) -> bool:
        return not self.interrupted and not self.unfinished

    def __bool__(self) -> bool:
        return self.success

    def table(self) -> str:
        """One row per run: task, model, status, samples done/planned, headline metric."""
        header = ("run", "model", "status", "samples", "headline")
        rows = [
            (
                run.run,
                run.model,
                run.status,
                f"{run.completed}/{'?' if run.total is None else run.total}",
                run.headline or "-",
            )
            for run in self.runs
        ]
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
        return "\n".join(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
            + "  "
            + row[-1]
            for row in [header, *rows]
        )

    def exit_code(self) -> int:
        if self.interrupted:
            return INTERRUPTED_EXIT
        return 0 if self.success else FAILED_EXIT

    def summary(self, resume_command: str) -> str:
        """What is unfinished and how to resume (empty when the sweep finished)."""
        if self.success:
            return ""
        head = "interrupted" if self.interrupted else "did not finish"
        lines = [
            f"sweep {head}: {len(self.unfinished)} of {len(self.runs)} runs unfinished:",
            *(run.line() for run in self.unfinished),
            f"Resume with: {resume_command}",
            "(finished runs are skipped and the completed samples of an interrupted run are "
            "kept, so only the unfinished work runs again)",
        ]
        return "\n".join(lines)


def _task_name(log: EvalLog) -> str:
    return log.eval.task.rsplit("/", 1)[-1]


def _newest_logs(log_dir: str) -> dict[tuple[str, str], list[EvalLog]]:
    """Header-only logs per (task, model), newest first."""
    found: dict[tuple[str, str], list[EvalLog]] = {}
    if not Path(log_dir).exists():
        return found
    infos = sorted(list_eval_logs(log_dir), key=lambda info: info.mtime or 0, reverse=True)
    for info in infos:
        log = read_eval_log(info, header_only=True)
        found.setdefault((_task_name(log), log.eval.model), []).append(log)
    return found


def _matches(log: EvalLog, args: dict[str, object]) -> bool:
    logged = log.eval.task_args or {}
    return all(str(logged.get(key)) == str(value) for key, value in args.items())


def headline_value(log: EvalLog, metric: str | None) -> str:
    """``"metric=value"`` from the log's results, or "" when it has none."""
    if metric is None or log.results is None:
        return ""
    for score in log.results.scores:
        if metric in score.metrics:
            value = score.metrics[metric].value
            return f"{metric}={value:.3f}" if isinstance(value, int | float) else ""
    return ""


def sweep_outcome(
    log_dir: str,
    planned: Sequence[tuple[str, str, dict[str, object]]],
    interrupted: bool,
    headlines: Mapping[str, str] | None = None,
    round_args: Mapping[str, str] | None = None,
) -> SweepOutcome:
    """The status of each planned ``(task, model, resolved args)`` run from the log folder;
    ``headlines`` names, per task, the metric shown in the table, and ``round_args``, per round
    task, the argument naming its round (each run is then labelled with its round).

    ``interrupted`` is also set when any planned run's newest log was ``cancelled``.
    """
    logs = _newest_logs(log_dir)
    runs = []
    for task, model, args in planned:
        arg = (round_args or {}).get(task)
        round_name = Path(str(args[arg])).name if arg and args.get(arg) else ""
        candidates = logs.get((task, model), [])
        log = next((c for c in candidates if _matches(c, args)), None)
        if log is None:
            runs.append(RunStatus(task, model, "not started", 0, None, round_name=round_name))
            continue
        counts = run_completeness(log)
        headline = headline_value(log, (headlines or {}).get(task))
        completed, total = counts[SAMPLES_COMPLETED], counts[SAMPLES_TOTAL]
        runs.append(RunStatus(task, model, log.status, completed, total, headline, round_name))
    interrupted = interrupted or any(run.status == CANCELLED for run in runs)
    return SweepOutcome(runs=runs, interrupted=interrupted)
