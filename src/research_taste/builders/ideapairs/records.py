"""The records the builder writes: template goals and ideas, and both orders of each pair."""

from __future__ import annotations

from pathlib import Path

from research_taste.builders.ideapairs.boards import Entry, Leaderboard
from research_taste.builders.ideapairs.pairing import PlannedPair, clean_method
from research_taste.builders.ideapairs.scoring import ScoredBoard
from research_taste_evals.core.data import DataError
from research_taste_evals.core.text import fill_template
from research_taste_evals.ideapairs.pairs_schema import SCHEMA_VERSION, IdeaRecord, PairRecord
from research_taste_evals.ideapairs.prompts import RANKED_BY, TEMPLATE_GOAL, TEMPLATE_IDEA

PAPER_TEXT_SUFFIXES = (".md", ".txt")
DESCRIPTION_CHARACTERS = 1500  # the template goal quotes the description up to this length


def ranked_by(columns: list[str], rank_column: str) -> str:
    """The sentence naming the deciding metric when a board has several ("" with one)."""
    return fill_template(RANKED_BY, metric=rank_column) if len(columns) > 1 else ""


def template_goal(board: Leaderboard, columns: list[str], rank_column: str = "") -> str:
    """The research goal without a model: task, dataset, metrics (which one ranks the board,
    when there are several) and the description."""
    description = " ".join(board.description.split())[:DESCRIPTION_CHARACTERS]
    return fill_template(
        TEMPLATE_GOAL,
        task=board.task,
        dataset=board.dataset or board.task,
        metrics=", ".join(columns),
        ranked_by=ranked_by(columns, rank_column or columns[0]),
        description=f" Benchmark description: {description}" if description else "",
    )


def template_idea(entry: Entry) -> str:
    """The idea text without a model: method name (citation removed) and paper title."""
    return fill_template(
        TEMPLATE_IDEA, method=clean_method(entry.method), title=entry.paper_title or "(unknown)"
    )


def paper_texts(folder: Path | None) -> dict[str, str]:
    if folder is None:
        return {}
    if not folder.is_dir():
        raise DataError(f"{folder}: paper texts folder does not exist")
    return {
        path.stem: path.read_text(encoding="utf-8")
        for path in sorted(folder.iterdir())
        if path.suffix in PAPER_TEXT_SUFFIXES
    }


def _idea_record(
    board: ScoredBoard, index: int, texts: dict[str, str], dates: dict[str, str]
) -> IdeaRecord:
    entry, score, key = board.entries[index], board.scores[index], board.idea_ids[index]
    return IdeaRecord(
        paper_date=dates.get(board.paper_keys[index]) or entry.date or None,
        idea_id=key,
        text=texts.get(key) or template_idea(entry),
        text_source="extracted" if key in texts else "method_and_title",
        method=entry.method,
        paper_title=entry.paper_title,
        paper_url=entry.paper_url,
        year=entry.year or 0,
        unified_score=score,
    )


def pair_records(
    pair: PlannedPair, goal: str, goal_source: str, texts: dict[str, str], dates: dict[str, str]
) -> list[PairRecord]:
    board = pair.board
    better = _idea_record(board, pair.better, texts, dates)
    worse = _idea_record(board, pair.worse, texts, dates)
    shared: dict[str, object] = {
        "schema_version": SCHEMA_VERSION,
        "pair_id": pair.pair_id,
        "benchmark_id": board.board.board_id,
        "benchmark": board.board.name,
        "goal": goal,
        "goal_source": goal_source,
        "delta_sigma": pair.delta,
        "tier": pair.tier,
        "split": pair.split,
        "bucket": pair.bucket,
        # The metric that ranks the board and its direction: the prompt states it.
        "metric": board.rank_column,
        "lower_is_better": board.rank_column in board.inverted,
    }
    # Appendix A.4: the original record shows the better idea first; the swap reverses it.
    return [
        PairRecord.model_validate(
            shared
            | {"record_id": f"{pair.pair_id}-o", "order": "original", "label": "A", "y": 0}
            | {"idea_a": better, "idea_b": worse}
        ),
        PairRecord.model_validate(
            shared
            | {"record_id": f"{pair.pair_id}-s", "order": "swapped", "label": "B", "y": 1}
            | {"idea_a": worse, "idea_b": better}
        ),
    ]
