"""Data faults of scraped leaderboards, fixed before pairing (issue 30, item 3).

Building pairs from the whole sota-extractor folder showed three faults, each handled here
and accounted for in the build report:

- **The same board from two files.** ``nlp-progress.json`` and ``nlpprogress.json`` are two
  scrapes of NLP-progress: 25 boards (task on dataset) arrive from both and were paired twice.
  A board name read from several files is read once: from the file with the most rows (then
  the most rows with a year, then the first file in path order); :func:`read_once` reports
  which file won and which were left out.
- **An entry with neither a method name nor a paper** (SQuAD and HotpotQA rows without a
  name) has nothing to describe and no identity: all such rows shared one idea id. They drop
  with their own reason, ``no_method_or_paper`` (``scoring.score_board``).
- **One idea, two rows of one board** (the same method and paper listed twice, e.g. two
  settings): one idea must have one unified score per board. :func:`keep_best_row` keeps the
  best-ranked row (rank from the rank column's values, then row order) and drops the rest as
  ``duplicate_idea``, naming the row it kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from research_taste.builders.ideapairs.boards import Leaderboard
from research_taste.builders.ideapairs.scoring import Drop, ScoredBoard

_NON_WORD = re.compile(r"[^a-z0-9]+")


def _board_key(board: Leaderboard) -> str:
    """The name without case and punctuation ("Knowledge-based:" and "Knowledge-based")."""
    return " ".join(_NON_WORD.sub(" ", board.name.lower()).split())


def _strength(boards: list[Leaderboard], place: int) -> tuple[int, int, int]:
    """Most rows, then most rows with a year, then the earlier file."""
    entries = [e for b in boards for e in b.entries]
    return len(entries), sum(e.year is not None for e in entries), -place


def read_once(boards: Sequence[Leaderboard]) -> tuple[list[Leaderboard], list[dict[str, object]]]:
    """Each board name read from one file only; the report of every name found in several.

    Boards of one file that share a name (PapersWithCode repeats names) are all kept: only a
    name that arrives from two different files is the same board scraped twice.
    """
    files_by_name: dict[str, dict[str, list[Leaderboard]]] = {}
    for board in boards:
        files_by_name.setdefault(_board_key(board), {}).setdefault(board.source, []).append(board)
    winners: dict[str, str] = {}
    report: list[dict[str, object]] = []
    for name, by_file in files_by_name.items():
        if len(by_file) == 1:
            continue
        order = list(by_file)  # first-read order, i.e. path order
        won = max(order, key=lambda source: _strength(by_file[source], order.index(source)))
        winners[name] = won
        report.append(
            {
                "board": by_file[won][0].name,
                "read_from": won,
                "rows": sum(len(b.entries) for b in by_file[won]),
                "left_out": [
                    {"file": source, "rows": sum(len(b.entries) for b in by_file[source])}
                    for source in order
                    if source != won
                ],
                "rule": "the file with the most rows, then the most dated rows, then path order",
            }
        )
    kept = [b for b in boards if winners.get(_board_key(b), b.source) == b.source]
    return kept, report


def keep_best_row(board: ScoredBoard) -> list[Drop]:
    """One row per idea on a scored board (ids from ``pairing.identify``); drops the others.

    The kept row is the best ranked (lowest rank, then the earlier row); the board's lists
    (entries, scores, ranks, ids, oriented values) are filtered in place.
    """
    best: dict[str, int] = {}
    for index, key in enumerate(board.idea_ids):
        held = best.get(key)
        if held is None or (board.ranks[index], board.entries[index].position) < (
            board.ranks[held],
            board.entries[held].position,
        ):
            best[key] = index
    keep = sorted(best.values())
    if len(keep) == len(board.entries):
        return []
    drops = []
    for index, entry in enumerate(board.entries):
        kept = best[board.idea_ids[index]]
        if kept != index:
            drops.append(
                Drop(
                    board.board.board_id,
                    board.board.name,
                    entry.position,
                    entry.method,
                    "duplicate_idea",
                    f"the same idea (method and paper) as row {board.entries[kept].position + 1}, "
                    f"which ranks better by {board.rank_column}: one unified score per idea",
                )
            )
    board.entries = [board.entries[i] for i in keep]
    board.scores = [board.scores[i] for i in keep]
    board.ranks = [board.ranks[i] for i in keep]
    board.idea_ids = [board.idea_ids[i] for i in keep]
    board.paper_keys = [board.paper_keys[i] for i in keep]
    board.oriented = {column: [v[i] for i in keep] for column, v in board.oriented.items()}
    return drops
