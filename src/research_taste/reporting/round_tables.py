"""The adjusted rounds leaderboard (``round_board``) as report tables and CSV rows.

Per pairwise round task (a row reporting ``pairwise_accuracy``): the ranking (raw pooled accuracy,
adjusted accuracy with its CI, every unranked model with its reason), the paired-comparison matrix
of the ranked models (the diagonal empty: a model is never compared with itself), and the rounds
with whether each is used. ``rounds.csv`` and ``rounds_leaderboard.csv`` hold the same figures
unrounded; rows of a task that is not pairwise are listed there "not ranked (not pairwise)".
"""

from __future__ import annotations

import math
from typing import Any

from research_taste.reporting.board_rows import decisions, frame, round_key
from research_taste.reporting.round_board import (
    DEFAULT_MIN_PAIRS,
    MIN_COVERAGE,
    Board,
    Judgment,
    board,
)
from research_taste_evals import __version__
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES

NOT_PAIRWISE = "not ranked (not pairwise)"
PAIRWISE_METRIC = "pairwise_accuracy"  # what a pairwise round task's scored log reports


def is_pairwise(row: Any) -> bool:
    return PAIRWISE_METRIC in row.metrics


def round_boards(
    rows: list[Any], min_pairs: int = DEFAULT_MIN_PAIRS, resamples: int | None = None
) -> dict[str, Board]:
    """The adjusted leaderboard of each pairwise task, from the shown rows (``RoundRow``).

    Each round is framed by the newest labels version any of its rows was scored with."""

    by_task: dict[str, list[Any]] = {}
    for row in rows:
        if is_pairwise(row):
            by_task.setdefault(row.task, []).append(row)
    out = {}
    for task, task_rows in by_task.items():
        newest: dict[str, Any] = {}
        found = []
        for row in sorted(task_rows, key=lambda row: row.labels):
            newest[round_key(row.info)] = row
            found += decisions(row.scores, round_key(row.info), row.model)
        frames = [frame(row.info, row.log) for row in newest.values()]
        out[task] = board(found, frames, min_pairs, resamples or DEFAULT_BOOTSTRAP_RESAMPLES)
    return out


def _f(value: float) -> str:
    return "nan" if not math.isfinite(value) else f"{value:.3g}"


def _ci(figures: tuple[float, float, float]) -> str:
    return f"{_f(figures[0])} [{_f(figures[1])}, {_f(figures[2])}]"


def board_tables(
    task: str, result: Board, names: dict[str, str] | None = None
) -> list[tuple[str, list[list[str]]]]:
    """The ranking, the paired comparisons and the rounds used, (caption, lines) each; each
    column named as in ``rounds_leaderboard.csv`` (:data:`BOARD_CSV`), one definition per name;
    a round shown by its name (``names``: round id -> name) beside its id, as in ``rounds.csv``."""
    shown = names or {}
    head = ["rank", "model", "rounds used / judged", "pairs in fit", "pooled coverage"]
    head += ["pooled headline (missing at 0.5)", "raw pooled", "adjusted [95% CI]", "ranked"]
    ranking = [[*head, "reason"]]
    position = 0
    for line in result.models:
        position += line.ranked
        ranking.append(
            [str(position) if line.ranked else "–", line.model]
            + [f"{line.rounds_used} / {line.rounds}", str(line.pairs), _f(line.coverage)]
            + [_f(line.headline), _f(line.raw[0]), _ci(line.adjusted)]
            + ["yes" if line.ranked else "no", line.reason]
        )
    ranked = [line.model for line in result.models if line.ranked]
    matrix = [["above →", *ranked]] + [
        [a, *("" if a == b else _f(result.beats[(a, b)]) for b in ranked)] for a in ranked
    ]
    rounds = [["round", "round id", "resolved untied pairs", SHARED_HEADER, "used"]] + [
        [
            shown.get(use.round, use.round),
            use.round,
            str(use.pairs),
            str(use.shared_pairs),
            "yes" if use.used else f"no: {use.reason}",
        ]
        for use in result.rounds
    ]
    every = ", ".join(result.all_rounds) or "none"
    return [
        (
            f"{task} across rounds, difficulty-adjusted (model + pair fixed effects, as "
            f"ForecastBench ranks; docs/rounds.md), a report-time analysis of the scored logs' "
            f"sample scores by research_taste_evals {__version__}, in no log: no rank for a "
            f"model that skipped more than {1 - MIN_COVERAGE:.0%} of the pairs of the rounds it "
            f"judged, and a judgment under {MIN_COVERAGE:.0%} coverage is not fitted; "
            f"{result.single_model_pairs} pairs judged by one model only left out of the fit; "
            f"models with a complete judgment of every round: {every}",
            ranking,
        ),
        (
            f"Paired comparisons: share of {result.resamples} bootstrap replicates in which the "
            "row's model is above the column's",
            matrix,
        ),
        ("Rounds in the adjusted ranking", rounds),
    ]


SHARED_HEADER = "pairs judged prospectively by two or more complete judgments"


def judgment_of(result: Board | None, row: Any) -> Judgment | None:
    """The board's judgment of a shown row (``rounds.RoundRow``), None for a task not ranked."""
    key = round_key(row.info)
    found = [
        j for j in (result.judgments if result else []) if (j.model, j.round) == (row.model, key)
    ]
    return found[0] if found else None


def is_partial(row: Any, result: Board | None) -> bool:
    """A judgment is partial when its run is (``RoundRow.partial``: fewer samples than the round
    plans, or not ``success``) or, on a pairwise task, its coverage of the round is under 95%
    (``round_board.Judgment.complete``): marked so wherever it is listed."""
    found = judgment_of(result, row)
    return bool(row.partial) or (found is not None and not found.complete)


def judgment_cells(result: Board | None, row: Any) -> list[str]:
    """Coverage and the headline with missing pairs at 0.5, for the per-round table."""
    found = judgment_of(result, row)
    if found is None:
        return ["nan", "nan"]
    return [_f(found.coverage), _f(found.headline)]


# The per-round columns, named as the page's per-round table names them (spaces made "_"; a
# figure's CI in its own columns): ``pairs``, ``labelled_share``, ``pending_items`` and
# ``prospective_share`` are the scored log's (docs/rounds.md, "Scores"), ``resolved_untied_pairs``
# the round's frame (round_board.RoundFrame) coverage and the headline with missing pairs at 0.5
# are held against.
ROUNDS_CSV = ["task", "model", "round", "round_id", "judged_at", "labels_version", "pairs"]
ROUNDS_CSV += ["labelled_share", "pending_items", "prospective_share", "resolved_untied_pairs"]
ROUNDS_CSV += ["coverage", "headline_missing_at_half", "pairwise_accuracy"]
ROUNDS_CSV += ["pairwise_accuracy_ci_low", "pairwise_accuracy_ci_high", "complete", "note"]
BOARD_CSV = ["task", "model", "rounds_judged", "rounds_used", "pairs_in_fit", "pooled_coverage"]
BOARD_CSV += ["pooled_headline_missing_at_half", "raw_pooled"]
BOARD_CSV += ["adjusted", "adjusted_ci_low", "adjusted_ci_high", "ranked", "reason"]


def _num(value: float | None) -> str:
    return "" if value is None or not math.isfinite(value) else repr(float(value))


def csv_tables(rows: list[Any], boards: dict[str, Board]) -> dict[str, list[list[str]]]:
    """``rounds.csv`` (per task, model and round) and ``rounds_leaderboard.csv`` (per task and
    model), header first; an undefined figure is an empty cell."""
    per_round = [ROUNDS_CSV]
    for row in rows:
        result = boards.get(row.task)
        item = judgment_of(result, row)
        m = row.metrics
        cells = [_num(m.get(name)) for name in ROUNDS_CSV[6:10]]
        if item is not None:
            cells += [str(item.pairs), _num(item.coverage), _num(item.headline)]
            note = "" if item.complete else f"coverage under {MIN_COVERAGE:.0%}: not fitted"
        else:
            cells += ["", "", ""]
            note = NOT_PAIRWISE
        per_round.append(
            [row.task, row.model, row.round, round_key(row.info), row.judged_at, row.labels]
            + cells
            + [_num(m.get(PAIRWISE_METRIC)), _num(m.get(f"{PAIRWISE_METRIC}_ci_low"))]
            + [_num(m.get(f"{PAIRWISE_METRIC}_ci_high"))]
            + ["no" if is_partial(row, result) else "yes", note]
        )
    leaderboard = [BOARD_CSV]
    for task, result in boards.items():
        for line in result.models:
            leaderboard.append(
                [task, line.model, str(line.rounds), str(line.rounds_used), str(line.pairs)]
                + [_num(line.coverage), _num(line.headline), _num(line.raw[0])]
                + [*map(_num, line.adjusted)]
                + ["yes" if line.ranked else "no", line.reason]
            )
    for task, model in sorted({(r.task, r.model) for r in rows if not is_pairwise(r)}):
        judged = sum((r.task, r.model) == (task, model) for r in rows)
        leaderboard.append([task, model, str(judged), "0", "", *[""] * 6, "no", NOT_PAIRWISE])
    return {"rounds.csv": per_round, "rounds_leaderboard.csv": leaderboard}
