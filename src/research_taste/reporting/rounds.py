"""The report's Rounds section (docs/rounds.md): per task, model and round, the scored figures.

Rows come from the scored logs ``research-taste round score`` writes (``*-scored-<labels
version>.eval``); each judgment log is read in its newest labels version. Of the judgments of one
model on one round (per task), the row shows the complete one (a run of every sample the round
plans before a ``--limit`` one) with the largest prospective share
(a re-run after the labels appeared is not prospective), the earliest among equals (then by log
name: ``created`` counts seconds). A partial judgment (marked) is shown only where none is
complete, as the leaderboards never let a partial run replace a complete one
(``runs.newest_per_row``); the others are set aside and counted under the tables.

Each round task's spec declares its table (``core.spec.RoundSupport``, found through
``rounds.score.round_support``, so nothing here names a family): judged at (the judgment's
start), labels as of (the labels version), then the spec's columns (a figure with an interval
in the log shown with it; counts over the round's paired items: ``core.rounds.ItemCounts``). A
pairwise task's table also shows each judgment's coverage and its headline with missing pairs at
0.5 (against the round's own pairs: ``round_board.py``) before the headline, and its ranking
across rounds is ``round_board``'s difficulty-adjusted one (``round_tables.py``). Any other
task's table is "not ranked (not pairwise)".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from research_taste.reporting.leaderboard import markdown_table
from research_taste.reporting.round_board import DEFAULT_MIN_PAIRS, Board
from research_taste.rounds.log_check import read_log
from research_taste.rounds.score import round_support, scored_parts
from research_taste_evals.core.spec import RoundSupport

INTRO = (
    "Judged before their labels existed (docs/rounds.md); a headline counts prospective "
    "decisions only."
)


@dataclass
class RoundRow:
    task: str
    model: str
    round: str
    judged_at: str
    labels: str
    metrics: dict[str, float]
    scores: list[Any]  # SampleScore of every sample, pair ids made unique per round
    partial: bool = False
    set_aside: int = 0  # other judgments of this task, model and round, not shown
    info: dict[str, Any] = field(default_factory=dict)  # the scored log's eval.metadata.round
    log: str = ""  # the scored log's file name


@dataclass(frozen=True)
class RoundsSection:
    """The section's tables, (caption, header + rows) each, and the judgments set aside."""

    tables: list[tuple[str, list[list[str]]]]
    set_aside: int
    rows: int = 0  # the rows shown (one per task, model and round), for the report's header
    csv: dict[str, list[list[str]]] = field(default_factory=dict)  # file name -> rows


def _figure(value: float | None) -> str:
    return "nan" if value is None or not math.isfinite(value) else f"{value:.3g}"


def _cell(figures: dict[str, float], name: str) -> str:
    """A figure, with its interval where the figures hold one (``<name>_ci_low``/``_high``)."""
    low, high = figures.get(f"{name}_ci_low"), figures.get(f"{name}_ci_high")
    if low is None or high is None:
        return _figure(figures.get(name))
    return f"{_figure(figures.get(name))} [{_figure(low)}, {_figure(high)}]"


def _sample_scores(log: Any, round_name: str) -> list[Any]:
    from inspect_ai.scorer import SampleScore

    out = []
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            metadata = dict(sample.metadata or {})
            metadata["pair_id"] = f"{round_name}/{metadata.get('pair_id')}"
            out.append(SampleScore(score=score, sample_id=sample.id, sample_metadata=metadata))
    return out


def _newest_versions(log_dir: str) -> dict[str, tuple[str, str]]:
    """Judgment log stem -> (its newest labels version, that scored log's location)."""
    from inspect_ai.log import list_eval_logs

    newest: dict[str, tuple[str, str]] = {}
    for info in list_eval_logs(log_dir):
        parts = scored_parts(info.name.rsplit("/", 1)[-1])
        if parts is None:
            continue
        stem, version = parts
        if stem not in newest or version > newest[stem][0]:
            newest[stem] = (version, info.name)
    return newest


def _metrics(log: Any) -> dict[str, float]:
    return {
        name: metric.value
        for score in (log.results.scores if log.results else [])
        for name, metric in score.metrics.items()
    }


def _left_out(location: str, excluded: frozenset[str]) -> bool:
    """Whether a scored log, or the judgment it was scored from, is among the report's
    excluded logs (their file names): an excluded log is in no table."""
    name = location.rsplit("/", 1)[-1]
    parts = scored_parts(name)
    stem = parts[0] if parts else name.rsplit(".", 1)[0]
    return name in excluded or any(other.rsplit(".", 1)[0] == stem for other in excluded)


def round_rows(log_dir: str, excluded: frozenset[str] = frozenset()) -> list[RoundRow]:
    """The row shown for each task, model and round under ``log_dir`` (module docstring); a
    scored log whose judgment (or itself) is among ``excluded`` (file names) is left out."""
    from research_taste.completeness import PARTIAL, run_completeness

    # (task, model, round name, round items' sha256: two rounds may share a folder name)
    best: dict[tuple[str, str, str, str], tuple[tuple[bool, bool, float, str, str], str]] = {}
    judgments: dict[tuple[str, str, str, str], int] = {}
    for version, location in _newest_versions(log_dir).values():
        if _left_out(location, excluded):
            continue
        header = read_log(location, header_only=True)  # unreadable: one sentence naming it
        support = round_support(header.eval.task)
        if support is None:
            continue
        round_info = (header.eval.metadata or {}).get("round") or {}
        name = str(round_info.get("name") or "?")
        sha = str(round_info.get("items_sha256") or "")
        key = (support[0], header.eval.model, name, sha)  # old and new task names alike
        share = _metrics(header).get("prospective_share", math.nan)
        share = share if math.isfinite(share) else 0.0
        # a run of fewer samples than the round plans (--limit) ranks below a full one
        planned = (header.eval.metadata or {}).get("comparisons") or 0
        done = header.results.completed_samples if header.results else 0
        full = done >= planned
        rank = (
            run_completeness(header)[PARTIAL] or not full,  # marked "(partial)" when shown
            not full,
            -share,
            header.eval.created,
            location,
        )
        judgments[key] = judgments.get(key, 0) + 1
        if key not in best or rank < best[key][0]:  # the lowest rank is shown
            best[key] = (rank, version)
    rows = []
    for key, ((partial, _, _, created, location), version) in best.items():
        log = read_log(location)
        task, model, name, _ = key
        rows.append(
            RoundRow(
                task=task,
                model=model,
                round=name,
                judged_at=created[:16],
                labels=version,
                metrics=_metrics(log),
                scores=_sample_scores(log, name),
                partial=partial,
                set_aside=judgments[key] - 1,
                info=dict((log.eval.metadata or {}).get("round") or {}),
                log=location.rsplit("/", 1)[-1],
            )
        )
    return sorted(rows, key=lambda row: (row.task, row.round, row.model))


def _shown_model(row: RoundRow, board: Board | None) -> str:
    from research_taste.reporting.round_tables import is_partial

    return f"{row.model} (partial)" if is_partial(row, board) else row.model


def _tables(
    rows: list[RoundRow], support: RoundSupport, board: Board | None
) -> list[tuple[str, list[list[str]]]]:
    """The task's per-round table (its headline, the spec's last column, last) and, for a
    pairwise task, the ranking across rounds."""
    from research_taste.reporting.board_rows import round_key
    from research_taste.reporting.round_tables import board_tables, judgment_cells

    *before, (headline_header, headline) = support.columns
    adjusted = ["coverage", "headline (missing at 0.5)"] if board is not None else []
    head = ["model", "round", "judged at", "labels as of"] + [header for header, _ in before]
    lines = [[*head, *adjusted, headline_header]]
    for row in rows:
        cells = [_cell(row.metrics, name) for _, name in before]
        if board is not None:
            cells += judgment_cells(board, row)
        lines.append(
            [_shown_model(row, board), row.round, row.judged_at, row.labels, *cells]
            + [_cell(row.metrics, headline)]
        )
    if board is None:
        return [(f"{support.caption}; not ranked (not pairwise)", lines)]
    names = {round_key(row.info): row.round for row in rows}
    return [(support.caption, lines), *board_tables(rows[0].task, board, names)]


def rounds_section(
    log_dir: str, min_pairs: int = DEFAULT_MIN_PAIRS, excluded: frozenset[str] = frozenset()
) -> RoundsSection | None:
    """The Rounds section of the report; None when the folder holds no scored round log (none
    but those of ``excluded`` logs: their file names, listed by the report as excluded).

    Raises:
        DataError: a scored log names a round folder or labels file that cannot be read.
    """
    from research_taste.reporting.round_tables import csv_tables, round_boards

    rows = round_rows(log_dir, excluded)
    if not rows:
        return None
    from research_taste_evals.core.families import task_specs

    boards = round_boards(rows, min_pairs)  # the adjusted ranking (round_board.py)
    tables = []
    for task, spec in task_specs().items():
        if spec.rounds is not None and (shown := [row for row in rows if row.task == task]):
            tables += _tables(shown, spec.rounds, boards.get(task))
    set_aside = sum(row.set_aside for row in rows)
    return RoundsSection(tables, set_aside, len(rows), csv_tables(rows, boards))


def set_aside_note(section: RoundsSection) -> str:
    if not section.set_aside:
        return ""
    return (
        f"Set aside: {section.set_aside} judgment log(s), each another judgment of a model and "
        "round shown above (less prospective, later, or partial)."
    )


def section_markdown(section: RoundsSection) -> str:
    tables = "".join(
        f"{caption}:\n\n{markdown_table(lines)}\n\n" for caption, lines in section.tables
    )
    note = set_aside_note(section)
    return f"## Rounds\n\n{INTRO}\n\n{tables}" + (f"{note}\n" if note else "")


def section_html(section: RoundsSection) -> str:
    from html import escape

    from research_taste.reporting.site import table_html

    tables = "\n".join(
        f"<p>{escape(caption)}:</p>\n{table_html(lines)}" for caption, lines in section.tables
    )
    note = set_aside_note(section)
    return f"<p class='note'>{escape(INTRO)}</p>\n{tables}" + (
        f"\n<p class='note'>{escape(note)}</p>" if note else ""
    )


def rounds_markdown(log_dir: str) -> str:
    """The report's "Rounds" section in markdown; empty when there is no scored round log."""
    section = rounds_section(log_dir)
    return section_markdown(section) if section else ""
