"""The adjusted rounds leaderboard (``round_board``) as report tables and CSV rows.

Per pairwise round task (a row reporting ``pairwise_accuracy``): the ranking (raw pooled and
adjusted accuracy with their CIs, every unranked model with its reason), the paired-comparison
matrix of the ranked models (the diagonal empty: a model is never compared with itself), and the
rounds with whether each is used. ``rounds.csv`` and ``rounds_leaderboard.csv`` hold the same
figures unrounded; rows of a task that is not pairwise are listed there "not ranked (not
pairwise)".
"""

from __future__ import annotations

import math
from typing import Any

from research_taste.reporting.board_rows import decisions, frame, round_key
from research_taste.reporting.round_board import DEFAULT_MIN_PAIRS, MIN_COVERAGE, Board, board
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


def board_tables(task: str, result: Board) -> list[tuple[str, list[list[str]]]]:
    """The ranking, the paired comparisons and the rounds used, (caption, lines) each."""
    head = ["rank", "model", "rounds used / judged", "pairs", "mean coverage"]
    head += ["headline (missing at 0.5)", "raw pooled [95% CI]", "adjusted [95% CI]", "ranked"]
    ranking = [head]
    position = 0
    for line in result.models:
        position += line.ranked
        ranking.append(
            [str(position) if line.ranked else "–", line.model]
            + [f"{line.rounds_used} / {line.rounds}", str(line.pairs), _f(line.coverage)]
            + [_f(line.headline)]
            + [_ci(line.raw), _ci(line.adjusted), "yes" if line.ranked else f"no: {line.reason}"]
        )
    ranked = [line.model for line in result.models if line.ranked]
    matrix = [["above →", *ranked]] + [
        [a, *("" if a == b else _f(result.beats[(a, b)]) for b in ranked)] for a in ranked
    ]
    rounds = [["round", "resolved untied pairs", "judged by two or more models", "used"]] + [
        [
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
            f"sample scores by research_taste_evals {__version__}, in no log: "
            f"a judgment under {MIN_COVERAGE:.0%} "
            "coverage is not fitted; "
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


def judgment_cells(result: Board | None, model: str, round_: str) -> list[str]:
    """Coverage and the headline with missing pairs at 0.5, for the per-round table."""
    found = [
        item
        for item in (result.judgments if result else [])
        if item.model == model and item.round == round_
    ]
    if not found:
        return ["nan", "nan"]
    return [_f(found[0].coverage), _f(found[0].headline)]


ROUNDS_CSV = ["task", "model", "round", "judged_at", "labels_version", "pairs", "coverage"]
ROUNDS_CSV += ["prospective_share", "headline_missing_at_half", "answered_accuracy"]
ROUNDS_CSV += ["answered_ci_low", "answered_ci_high", "complete", "note"]
BOARD_CSV = ["task", "model", "rounds_judged", "rounds_used", "pairs", "coverage"]
BOARD_CSV += ["headline_missing_at_half", "raw_pooled"]
BOARD_CSV += ["raw_ci_low", "raw_ci_high", "adjusted", "adjusted_ci_low", "adjusted_ci_high"]
BOARD_CSV += ["ranked", "reason"]


def _num(value: float | None) -> str:
    return "" if value is None or not math.isfinite(value) else repr(float(value))


def csv_tables(rows: list[Any], boards: dict[str, Board]) -> dict[str, list[list[str]]]:
    """``rounds.csv`` (per task, model and round) and ``rounds_leaderboard.csv`` (per task and
    model), header first; an undefined figure is an empty cell."""
    per_round = [ROUNDS_CSV]
    for row in rows:
        key, result = round_key(row.info), boards.get(row.task)
        found = [
            j
            for j in (result.judgments if result else [])
            if (j.model, j.round) == (row.model, key)
        ]
        m = row.metrics
        if found:
            item = found[0]
            cells = [str(item.pairs), _num(item.coverage), _num(item.prospective_share)]
            cells += [_num(item.headline), _num(m.get(PAIRWISE_METRIC))]
            note = "" if item.complete else f"coverage under {MIN_COVERAGE:.0%}: not ranked"
        else:
            cells = ["", "", _num(m.get("prospective_share")), "", ""]
            note = NOT_PAIRWISE
        per_round.append(
            [row.task, row.model, key, row.judged_at, row.labels, *cells]
            + [_num(m.get(f"{PAIRWISE_METRIC}_ci_low")), _num(m.get(f"{PAIRWISE_METRIC}_ci_high"))]
            + ["yes" if found and found[0].complete else "no", note]
        )
    leaderboard = [BOARD_CSV]
    for task, result in boards.items():
        for line in result.models:
            leaderboard.append(
                [task, line.model, str(line.rounds), str(line.rounds_used), str(line.pairs)]
                + [_num(line.coverage), _num(line.headline), *map(_num, line.raw)]
                + [*map(_num, line.adjusted)]
                + ["yes" if line.ranked else "no", line.reason]
            )
    for task, model in sorted({(r.task, r.model) for r in rows if not is_pairwise(r)}):
        judged = sum((r.task, r.model) == (task, model) for r in rows)
        leaderboard.append([task, model, str(judged), "0", "", *[""] * 8, "no", NOT_PAIRWISE])
    return {"rounds.csv": per_round, "rounds_leaderboard.csv": leaderboard}
