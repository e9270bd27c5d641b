"""``paper_weakness_round -T round=rounds/<name>``: list a round's papers' weaknesses before
their reviews exist (``docs/rounds.md``; data: ``dataset/weakness_round.py``, scoring:
``scorer/weakness_round.py``).

The round sets the papers' texts (frozen at open) and the prompt; the split-combine reading is
the paper's (3,000-word pieces, NLTK words), so a round's figures are comparable across models.
What may vary on a frozen round are the S-Match and ITF-IDF embedders, recorded in the scorer's
options so that ``research-taste round score`` scores with the same ones (ITF-IDF needs no
label: the judgment log has it already; w is the round's papers, not the paper's 993). No
cutoff: a round is judged before its reviews exist.
"""

from __future__ import annotations

import logging

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.aaar.dataset.paper_weakness import DEFAULT_WINDOW_WORDS, Split
from research_taste_evals.aaar.dataset.weakness_round import (
    WEAKNESS_FILE,
    load_weakness_round,
    paper_counts,
    weakness_round_dataset,
)
from research_taste_evals.aaar.decoding import WEAKNESS_MAX_TOKENS, upstream_decoding
from research_taste_evals.aaar.embedding_models import ITF_IDF_MODEL, S_METRIC_MODEL, aaar_embedder
from research_taste_evals.aaar.itf_idf_metrics import warn_partial_itf_idf
from research_taste_evals.aaar.scorer.weakness_round import round_weakness_scorer
from research_taste_evals.aaar.solvers import weakness_solver
from research_taste_evals.aaar.specs import PAPER_WEAKNESS_ROUND
from research_taste_evals.core.demo import refuse_data_path
from research_taste_evals.core.provenance import provenance, task_version
from research_taste_evals.core.round_figures import window_warnings
from research_taste_evals.core.rounds import judging_note, round_identity
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.core.text import WordCounting, load_word_counting

logger = logging.getLogger(__name__)
# The paper's reading (AAAR-1.0 Section 3.3): split-combine over 3,000-word NLTK pieces.
SPLIT: Split = "split_combine"
WORD_COUNTING: WordCounting = "nltk"


@task
@task_entry()
def paper_weakness_round(
    round: str | None = None,
    embedding_model: str = S_METRIC_MODEL,
    embedding_revision: str | None = None,
    embedding_device: str = "cpu",
    itf_idf_model: str = ITF_IDF_MODEL,
    itf_idf_revision: str | None = None,
    data_path: str | None = None,
) -> Task:
    """AAAR-1.0 PaperWeakness on a round: a submission's weaknesses before its reviews exist.

    Args:
        round (str | None): A round folder opened with PDFs (``research-taste round open``);
            it sets the papers' texts. Defaults to ``None``.
        embedding_model (str): S-Match sentence-embedding model: a Hub name,
            ``offline-mpnet`` (paper-faithful) or ``offline-minilm`` (not paper-faithful).
            Defaults to ``'sentence-transformers/all-mpnet-base-v2'``.
        embedding_revision (str | None): Hub revision of ``embedding_model``; None: the
            pinned one. Defaults to ``None``.
        embedding_device (str): Torch device of the embedders. Defaults to ``'cpu'``.
        itf_idf_model (str): Embedding model of the ITF-IDF score: a Hub name or
            ``offline-minilm`` (the same weights, packaged). Defaults to
            ``'sentence-transformers/all-MiniLM-L6-v2'``.
        itf_idf_revision (str | None): Hub revision of ``itf_idf_model``; None: the pinned
            one. Defaults to ``None``.
        data_path (str | None): ``demo`` runs the task on its demo data, as for every task
            (``-T data_path=demo``); any other value is refused (the data argument is
            ``round``). Defaults to ``None``.
    """
    refuse_data_path("paper_weakness_round", data_path, "round")
    load_word_counting(WORD_COUNTING)
    round_, records = load_weakness_round(round)
    # Loaded now so a model that cannot be loaded fails before any model call.
    aaar_embedder(embedding_model, embedding_revision, embedding_device)
    aaar_embedder(itf_idf_model, itf_idf_revision, embedding_device, "itf_idf_model")
    warn_partial_itf_idf(len(records))
    manifest = round_.manifest
    counted = paper_counts(round_, [str(record["ID"]) for record in records])
    logger.warning("%s", judging_note(round_, round or str(round_.folder), counted))
    scorer = round_weakness_scorer(
        labels=None,
        embedding_model=embedding_model,
        embedding_revision=embedding_revision,
        embedding_device=embedding_device,
        itf_idf_model=itf_idf_model,
        itf_idf_revision=itf_idf_revision,
    )
    return Task(
        dataset=weakness_round_dataset(records),
        solver=[weakness_solver(SPLIT, DEFAULT_WINDOW_WORDS, WORD_COUNTING)],
        scorer=scorer,
        headline_metric=HeadlineMetric(metric=PAPER_WEAKNESS_ROUND.headline),
        config=upstream_decoding(WEAKNESS_MAX_TOKENS),
        version=task_version(__file__, "paper_weakness_round"),
        metadata={
            **provenance(
                benchmark="AAAR-1.0",
                source=f"local:{round_.folder / WEAKNESS_FILE} "
                f"sha256:{manifest.get('weakness_sha256')}",
                revision=f"round {round_.name}, opened {manifest.get('opened_at')}",
                paper_faithful={"data": False},
            ),
            "headline_metric": PAPER_WEAKNESS_ROUND.headline,
            "round": {
                **round_identity(round_),
                "weakness_sha256": manifest.get("weakness_sha256"),
                "warnings": window_warnings(round_),
            },
            "papers": len(records),
            "split": SPLIT,
            "window_words": DEFAULT_WINDOW_WORDS,
        },
    )
