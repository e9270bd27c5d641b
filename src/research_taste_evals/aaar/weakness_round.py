"""``paper_weakness -T data_path=rounds/<name>``: list a round's papers' weaknesses before
their reviews exist (``docs/rounds.md``; data: ``dataset/weakness_round.py``, scoring:
``scorer/weakness_round.py``)."""

from __future__ import annotations

import logging

from inspect_ai import Task

from research_taste_evals.aaar.dataset.weakness_round import (
    WEAKNESS_FILE,
    load_weakness_round,
    weakness_round_dataset,
)
from research_taste_evals.aaar.decoding import WEAKNESS_MAX_TOKENS, upstream_decoding
from research_taste_evals.aaar.scorer.weakness_round import round_weakness_scorer
from research_taste_evals.aaar.solvers import weakness_solver
from research_taste_evals.aaar.specs import PAPER_WEAKNESS
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.text import WordCounting, load_word_counting

logger = logging.getLogger(__name__)


def weakness_round_task(
    data_path: str,
    split: str,
    window_words: int,
    word_counting: WordCounting,
    embedding_model: str,
    embedding_revision: str | None,
    embedding_device: str,
    version: str,
) -> Task:
    """The PaperWeakness task on a round: every paper pending until a resolve."""
    load_word_counting(word_counting)
    round_, records = load_weakness_round(data_path)
    manifest = round_.manifest
    logger.warning(
        "round %s: reviewers' weaknesses pending for its %d papers; once `research-taste round "
        "resolve %s` has run, score this log with `research-taste round score %s --log-dir "
        "<log dir>`",
        round_.name,
        len(records),
        data_path,
        data_path,
    )
    return Task(
        dataset=weakness_round_dataset(records),
        solver=[weakness_solver(split, window_words, word_counting)],  # type: ignore[arg-type]
        scorer=round_weakness_scorer(None, embedding_model, embedding_revision, embedding_device),
        config=upstream_decoding(WEAKNESS_MAX_TOKENS),
        version=version,
        metadata={
            **provenance(
                benchmark="AAAR-1.0",
                source=f"local:{round_.folder / WEAKNESS_FILE} "
                f"sha256:{manifest.get('weakness_sha256')}",
                revision=f"round {round_.name}, opened {manifest.get('opened_at')}",
                paper_faithful={"data": False},
            ),
            "headline_metric": PAPER_WEAKNESS.headline,
            "round": {
                "name": round_.name,
                "folder": str(round_.folder),
                "opened_at": manifest.get("opened_at"),
                "items_sha256": manifest.get("items_sha256"),
                "weakness_sha256": manifest.get("weakness_sha256"),
                "state": "pending",
            },
            "papers": len(records),
            "split": split,
            "window_words": window_words,
        },
    )
