"""``research-taste report``: a log folder -> a publishable report folder.

Writes ``report.md`` (leaderboards + excluded logs), ``metrics.csv`` (every metric of every
run, via ``inspect_ai.analysis.evals_df``), ``excluded.csv``, per task and metric
``<task>-<metric>.png`` (bars with 95% error bars) and, with two or more sweep dates,
``<task>_trend.png``, ``index.html`` (all of it as one static page, each row linked to its
transcripts in the bundled ``viewer/``), and with ``eval_report=True`` also
``evaluation_report.md`` (inspect_evals convention). No published file names a local
absolute path: the logs' paths become ``<local>/<name>`` (``reporting.paths``). Everything
is written to a scratch folder first and then put in place by ``publish``, which never
deletes what a report did not write; a failure leaves no half-written report.
"""

from __future__ import annotations

import csv
import html
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from research_taste.reporting import site
from research_taste.reporting.boards import Board, board_of, boards
from research_taste.reporting.controlled import controlled_for, recognition_columns, table_notes
from research_taste.reporting.eval_report import eval_report_markdown
from research_taste.reporting.families import task_specs
from research_taste.reporting.leaderboard import (
    ANSWER_SHAPE,
    check_metrics,
    markdown_table,
    partial_note,
    table_rows,
    tasks_in,
    write_full_csv,
)
from research_taste.reporting.paths import scrub_text
from research_taste.reporting.plots import plot_metric, plot_trend
from research_taste.reporting.publish import check_target, publish
from research_taste.reporting.round_board import DEFAULT_MIN_PAIRS
from research_taste.reporting.round_logs import RoundLogs, split_round_logs
from research_taste.reporting.rounds import (
    RoundsSection,
    rounds_section,
    section_html,
    section_markdown,
)
from research_taste.reporting.runs import Excluded, Run, newest_per_row, read_runs
from research_taste.reporting.viewer import bundle_viewer, transcript_link
from research_taste_evals.core.data import DataError

TITLE = "Research taste evals: leaderboards"


@dataclass(frozen=True)
class ReportFiles:
    """What a report run wrote (paths inside the output folder)."""

    out_dir: Path
    tasks: list[str]
    excluded: list[Excluded]
    # The files written, as the command lists them (a rounds-only report has no metrics.csv
    # and no plots: there are no runs to put in them).
    files: list[str] = field(default_factory=list)


def _excluded_markdown(excluded: list[Excluded]) -> str:
    if not excluded:
        return "## Excluded logs\n\nNone.\n"
    lines = [["log", "task", "model", "reason"]]
    lines += [[Path(e.log).name, e.task, e.model, e.reason] for e in excluded]
    return "## Excluded logs\n\n" + markdown_table(lines) + "\n"


def _write_rows(lines: list[list[str]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(lines)


def _write_excluded_csv(excluded: list[Excluded], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["log", "task", "model", "reason"])
        writer.writerows([e.log, e.task, e.model, e.reason] for e in excluded)


def _task_section(
    board: Board,
    runs: list[Run],
    names: list[str],
    work: Path,
    links: dict[str, str],
    include_partial: bool,
) -> tuple[str, str, str]:
    """(markdown, html heading, html body) of one board (a task or its headline variant)."""
    task, rows, spec = board.task, board.rows, task_specs()[board.task]
    lines = table_rows(task, rows, names, include_partial)
    plots = [plot_metric(board.slug, rows, name, work, spec.value_range(name)) for name in names]
    first = names[0] if names else board.headline[0]
    trend = plot_trend(board.slug, runs, first, work, spec.value_range(first))
    plots += [trend] if trend else []
    heading = f"{board.name}: {spec.title} (version {spec.version})"
    note = partial_note(rows, include_partial)
    ranked_by = table_notes(task, rows, names, include_partial)
    markdown = f"## {heading}\n\n{ranked_by} {note}\n\n{markdown_table(lines)}\n\n"
    markdown += "".join(f"![{p.stem}]({p.name})\n" for p in plots)
    control = controlled_for(task, names)  # its meaning and its n's beside the headline's
    controlled = [control.metric, control.count] if control else []
    logged = {name for run in rows for name in run.metrics}  # an old log lacks the new ones
    controlled += [name for name in recognition_columns(task) if name in logged]
    shown = list(dict.fromkeys([*names, *controlled, *ANSWER_SHAPE, *spec.failure_metrics]))
    body = (
        f"<p class='note'>{html.escape(ranked_by)} {html.escape(note)}</p>\n"
        f"{site.leaderboard_html(spec, rows, names, links, include_partial)}\n"
        f"{site.meanings_html(shown, spec)}\n{site.images_html(plots)}"
    )
    return markdown, heading, body


def write_report(
    log_dir: str,
    out_dir: str | Path,
    metrics: list[str] | None = None,
    eval_report: bool = False,
    bundle: bool = True,
    force: bool = False,
    include_partial: bool = False,
    min_pairs: int = DEFAULT_MIN_PAIRS,
) -> ReportFiles:
    """Read ``log_dir`` and write the report folder ``out_dir`` (see ``publish``).

    Raises:
        DataError: ``out_dir`` must not be written (see ``publish.check_target``), no fit run
            in ``log_dir``, or a ``metrics`` name no run reports.
    """
    out = Path(out_dir)
    check_target(out, log_dir, force)
    runs, excluded = read_runs(log_dir)
    round_logs, excluded = split_round_logs(excluded, log_dir)  # under Rounds, not excluded
    rounds = rounds_section(log_dir, min_pairs)  # docs/rounds.md
    if not runs and rounds is None:
        reasons = "; ".join(f"{Path(e.log).name}: {e.reason}" for e in excluded[:5])
        raise DataError(f"{log_dir}: no successful current-version logs. {reasons}".strip())
    check_metrics(metrics, runs)
    rows = newest_per_row(runs)
    out.expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=out.expanduser().resolve().parent, prefix=f".{out.name}-"))
    try:
        links = {run.log: transcript_link(run, log_dir, out, bundled=bundle) for run in runs}
        markdown, sections = [f"# {TITLE}\n\nFrom `{_shown(log_dir)}`.\n"], []
        for board in boards(rows):
            names = board.columns(metrics)
            board_runs = [r for r in runs if r.task == board.task and board_of(r) == board.name]
            text, heading, body = _task_section(
                board, board_runs, names, work, links, include_partial
            )
            markdown.append(text)
            sections.append((board.slug, heading, body))
        if rounds is not None:
            markdown.append(section_markdown(rounds))
            sections.append(("rounds", "Rounds", section_html(rounds)))
        markdown.append(_excluded_markdown(excluded))
        paths = sorted({path for run in runs for path in run.local_paths})
        text = scrub_text("\n".join(markdown), paths)
        (work / "report.md").write_text(text, encoding="utf-8")
        if runs:
            write_full_csv(runs, work / "metrics.csv")
        _write_excluded_csv(excluded, work / "excluded.csv")
        for name, lines in (rounds.csv if rounds is not None else {}).items():
            _write_rows(lines, work / name)  # rounds.csv, rounds_leaderboard.csv
        partial = sum(run.partial for run in rows)
        runs_count = f"{len(rows)} rows from {len(runs)} runs; " if runs else ""
        intro = (
            f"From <code>{html.escape(_shown(log_dir))}</code>: {runs_count}"
            f"{rounds_count(rounds, round_logs)}"
            f"{len(excluded)} logs excluded (listed at the end)"
            + (f"; {partial} partial rows marked" if partial else "")
            + ". Intervals are 95% where the log has them; nan = undefined, never 0; "
            "– = not in the log. Figures have three significant digits."
        )
        page = site.page(TITLE, intro, sections, excluded)
        page = scrub_text(page, paths, html=True)
        (work / "index.html").write_text(page, encoding="utf-8")
        if eval_report:
            text = scrub_text(eval_report_markdown(rows), paths)
            (work / "evaluation_report.md").write_text(text, encoding="utf-8")
        if bundle:
            bundle_viewer(runs, work, round_logs.logs)
        written = written_files(work)
        publish(work, out)
    finally:
        if work.exists():
            shutil.rmtree(work)
    sections_written = tasks_in(rows) + (["rounds"] if rounds is not None else [])
    return ReportFiles(out_dir=out, tasks=sections_written, excluded=excluded, files=written)


def written_files(work: Path) -> list[str]:
    """The report's files as the command lists them: the pages and tables by name, the plots
    and the viewer bundle counted."""
    names = sorted(p.name for p in work.iterdir() if p.is_file())
    plots = [name for name in names if name.endswith(".png")]
    listed = [name for name in names if not name.endswith(".png")]
    listed += [f"{len(plots)} plots"] if plots else []
    listed += ["the transcript viewer (viewer/)"] if (work / "viewer").is_dir() else []
    return listed


def rounds_count(section: RoundsSection | None, logs: RoundLogs) -> str:
    """The header's count of the Rounds section ("" without one): its rows and the logs read."""
    if section is None:
        return ""
    return (
        f"{section.rows} Rounds rows from {len(logs.judgments)} round judgments "
        f"({len(logs.scored)} scored logs); "
    )


def _shown(log_dir: str) -> str:
    """The log folder as the report names it: never an absolute local path."""
    if "://" in log_dir and not log_dir.startswith("file://"):
        return log_dir
    return Path(log_dir.removeprefix("file://")).name if Path(log_dir).is_absolute() else log_dir
