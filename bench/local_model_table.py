"""The table of the packaged real model's sweep, computed from its committed logs.

    python bench/local_model_table.py                 # print the table
    python bench/local_model_table.py --write         # and replace it in docs/offline-real-model.md
    # after a new sweep: replace the committed logs with the sweep's, then the table
    research-taste sweep sweeps/local.yaml --log-dir logs/local-refresh && \
        python bench/local_model_table.py --import logs/local-refresh --write

Reads every ``.eval`` log under ``docs/local-model/logs`` (the logs of
``research-taste sweep sweeps/local.yaml``, copied there; ``--log-dir`` reads another folder) and
prints one row per task: samples completed/asked, the unparsed and re-asked rates (the metrics
``unparsed_rate`` / ``reasked_rate`` where the task logs them), the task's first headline metric
(from its family ``eval.yaml``), and the failures: the task's own failure metrics that are not 0,
samples that errored, and model calls that hit the context (``stop_reason="model_length"``: a
prompt longer than the model's context, counted in the log, never a crash).

``tests/test_local_model_table.py`` fails when the page differs from this script's output.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log, write_eval_log
from inspect_ai.model import ModelOutput

from research_taste.reporting.families import task_specs
from research_taste.reporting.paths import scrubbed_log

ROOT = Path(__file__).resolve().parents[1]
LOG_DIR = ROOT / "docs" / "local-model" / "logs"
README = ROOT / "docs" / "offline-real-model.md"
BEGIN = "<!-- local-model-table:begin (bench/local_model_table.py --write) -->"
END = "<!-- local-model-table:end -->"
UNPARSED, REASKED = "unparsed_rate", "reasked_rate"
OVERFLOW_STOP = "model_length"


@dataclass(frozen=True)
class Row:
    task: str
    model: str
    roles: str
    samples: str
    unparsed: str
    reasked: str
    headline: str
    failures: str


def fmt(value: float | None) -> str:
    if value is None:
        return "not logged"
    if math.isnan(value):
        return "nan"
    return f"{value:.3g}"


def _metrics(log: EvalLog) -> dict[str, float]:
    values: dict[str, float] = {}
    for score in log.results.scores if log.results else []:
        for name, metric in score.metrics.items():
            values.setdefault(name, float(metric.value))
    return values


def _outputs(log: EvalLog) -> list[ModelOutput]:
    return [
        event.output
        for sample in log.samples or []
        for event in sample.events
        if event.event == "model" and event.output is not None
    ]


def row_of(log: EvalLog) -> Row:
    spec = task_specs()[log.eval.task.split("/")[-1]]
    metrics = _metrics(log)
    headline = spec.headline_metrics[0]
    failures = [
        f"{name}={fmt(metrics[name])}"
        for name in spec.failure_metrics
        if name in metrics and name not in (UNPARSED, REASKED) and metrics[name] != 0
    ]
    errored = sum(1 for sample in log.samples or [] if sample.error is not None)
    if errored:
        failures.append(f"errored samples={errored}")
    overflows = sum(1 for output in _outputs(log) if output.stop_reason == OVERFLOW_STOP)
    if overflows:
        failures.append(f"context overflows={overflows} calls")
    if log.status != "success":
        failures.append(f"run {log.status}")
    results = log.results
    done = results.completed_samples if results else 0
    asked = results.total_samples if results else 0
    roles = ", ".join(
        f"{role}={config.model}" for role, config in sorted((log.eval.model_roles or {}).items())
    )
    return Row(
        task=spec.task,
        model=log.eval.model,
        roles=roles or "-",
        samples=f"{done}/{asked}",
        unparsed=fmt(metrics.get(UNPARSED)),
        reasked=fmt(metrics.get(REASKED)),
        headline=f"{headline}={fmt(metrics.get(headline))}",
        failures="; ".join(failures) or "none",
    )


def read_rows(log_dir: Path) -> list[Row]:
    """One row per task: the newest log of each task in ``log_dir``, in the tasks' list order."""
    newest: dict[str, EvalLog] = {}
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info.name)
        task = log.eval.task.split("/")[-1]
        if task not in newest or log.eval.created > newest[task].eval.created:
            newest[task] = log
    order = list(task_specs())
    return [row_of(newest[task]) for task in sorted(newest, key=order.index)]


def table(rows: list[Row]) -> str:
    header = (
        "| task | model | roles | samples | unparsed rate | re-asked rate | headline | failures |"
    )
    lines = [header, "|" + "---|" * 8]
    lines += [
        f"| `{r.task}` | {r.model} | {r.roles} | {r.samples} | {r.unparsed} | {r.reasked} "
        f"| {r.headline} | {r.failures} |"
        for r in rows
    ]
    return "\n".join(lines)


def replace_in(text: str, generated: str) -> str:
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{README}: no {BEGIN} ... {END} block to replace")
    return pattern.sub(lambda _: f"{BEGIN}\n{generated}\n{END}", text)


def import_logs(source: Path, target: Path) -> None:
    """Replace the ``.eval`` logs in ``target`` with the newest log of each task in ``source``,
    each with the building machine's paths made ``<local>/...`` placeholders (published)."""
    newest: dict[str, tuple[str, Path]] = {}
    for info in list_eval_logs(str(source)):
        log = read_eval_log(info.name, header_only=True)
        task = log.eval.task.split("/")[-1]
        if task not in newest or log.eval.created > newest[task][0]:
            newest[task] = (log.eval.created, Path(info.name.removeprefix("file://")))
    if not newest:
        raise SystemExit(f"{source}: no .eval logs")
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.eval"):
        old.unlink()
    for _, path in newest.values():
        log = read_eval_log(str(path))
        write_eval_log(scrubbed_log(log), str(target / path.name))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log-dir", type=Path, default=LOG_DIR)
    parser.add_argument(
        "--import",
        dest="source",
        type=Path,
        help="first replace the logs in --log-dir with the newest per task from this folder",
    )
    parser.add_argument("--write", action="store_true", help="replace the table in its doc page")
    args = parser.parse_args(argv)
    if args.source is not None:
        import_logs(args.source, args.log_dir)
    generated = table(read_rows(args.log_dir))
    print(generated)
    if args.write:
        README.write_text(replace_in(README.read_text(encoding="utf-8"), generated), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
