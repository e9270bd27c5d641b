"""``research-taste report``: a log folder -> a publishable report folder.

Writes ``report.md`` (leaderboards + excluded logs), ``metrics.csv`` (every metric of every
run, via ``inspect_ai.analysis.evals_df``), ``excluded.csv``, per task ``<task>.png`` (bars
with 95% error bars) and ``<task>_trend.png`` (headline over sweep dates), ``index.html`` (all
of it as one static page, each row linked to its transcripts in the bundled ``viewer/``), and
with ``eval_report=True`` also ``evaluation_report.md`` (inspect_evals convention).
Everything is written to a scratch folder first and moved into place, so a failure leaves no
half-written report.
"""

from __future__ import annotations

import csv
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from research_taste_evals.core.data import DataError
from research_taste_evals.reporting import site
from research_taste_evals.reporting.eval_report import eval_report_markdown
from research_taste_evals.reporting.families import task_specs
from research_taste_evals.reporting.leaderboard import (
    check_metrics,
    columns_for,
    markdown_table,
    table_rows,
    tasks_in,
    write_full_csv,
)
from research_taste_evals.reporting.plots import plot_bars, plot_trend
from research_taste_evals.reporting.runs import Excluded, newest_per_row, read_runs

TITLE = "Research taste evals: leaderboards"


@dataclass(frozen=True)
class ReportFiles:
    """What a report run wrote (paths inside the output folder)."""

    out_dir: Path
    tasks: list[str]
    excluded: list[Excluded]


def _excluded_markdown(excluded: list[Excluded]) -> str:
    if not excluded:
        return "## Excluded logs\n\nNone.\n"
    lines = [["log", "task", "model", "reason"]]
    lines += [[Path(e.log).name, e.task, e.model, e.reason] for e in excluded]
    return "## Excluded logs\n\n" + markdown_table(lines) + "\n"


def _write_excluded_csv(excluded: list[Excluded], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["log", "task", "model", "reason"])
        writer.writerows([e.log, e.task, e.model, e.reason] for e in excluded)


def write_report(
    log_dir: str,
    out_dir: str | Path,
    metrics: list[str] | None = None,
    eval_report: bool = False,
    bundle: bool = True,
) -> ReportFiles:
    """Read ``log_dir`` and write the report folder ``out_dir`` (replacing an older one).

    Raises:
        DataError: no fit run in ``log_dir``, or a ``metrics`` name no run reports.
    """
    runs, excluded = read_runs(log_dir)
    if not runs:
        reasons = "; ".join(f"{Path(e.log).name}: {e.reason}" for e in excluded[:5])
        raise DataError(f"{log_dir}: no successful current-version logs. {reasons}".strip())
    check_metrics(metrics, runs)
    rows = newest_per_row(runs)
    out = Path(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{out.name}-") as scratch:
        work = Path(scratch)
        markdown, html_sections = [f"# {TITLE}\n\nFrom `{log_dir}`.\n"], []
        for task in tasks_in(rows):
            task_rows = [run for run in rows if run.task == task]
            spec = task_specs()[task]
            names = columns_for(task, task_rows, metrics)
            lines = table_rows(task, task_rows, names)
            bars = plot_bars(task, task_rows, names, work) if names else None
            trend_metric = names[0] if names else spec.headline_metrics[0]
            trend = plot_trend(task, [r for r in runs if r.task == task], trend_metric, work)
            heading = f"{task} — {spec.title} (version {spec.version})"
            markdown.append(f"## {heading}\n\n{markdown_table(lines)}\n")
            markdown.extend(f"![{p.stem}]({p.name})\n" for p in (bars, trend) if p)
            links = [site.transcript_link(log_dir, run.log) for run in task_rows]
            images = "".join(f"<img src='{p.name}' alt='{p.stem}'>" for p in (bars, trend) if p)
            html_sections.append(
                f"<section class='benchmark' id='{task}'><h2>{heading}</h2>\n"
                f"{site.html_table(lines, links)}\n{images}</section>"
            )
        markdown.append(_excluded_markdown(excluded))
        (work / "report.md").write_text("\n".join(markdown), encoding="utf-8")
        write_full_csv(runs, work / "metrics.csv")
        _write_excluded_csv(excluded, work / "excluded.csv")
        intro = (
            f"{len(rows)} rows from {len(runs)} runs in {log_dir}; {len(excluded)} logs "
            "excluded (listed at the end). Intervals are 95%; nan = undefined, never 0."
        )
        page = site.page(TITLE, intro, html_sections, excluded)
        (work / "index.html").write_text(page, encoding="utf-8")
        if eval_report:
            (work / "evaluation_report.md").write_text(eval_report_markdown(rows), encoding="utf-8")
        if bundle:
            site.bundle_viewer(log_dir, work)
        if out.exists():
            shutil.rmtree(out)
        shutil.move(str(work), str(out))
        work.mkdir()  # the context manager removes its (now moved) folder
    return ReportFiles(out_dir=out, tasks=tasks_in(rows), excluded=excluded)
