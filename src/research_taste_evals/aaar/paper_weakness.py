"""AAAR-1.0 PaperWeakness: what would reviewers criticise in this submission?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.3 / 5.3.
The model reviews an ICLR 2023 submission piece by piece ("split-combine") and lists its
weaknesses; the list is scored against every reviewer's weaknesses with sentence embeddings
(S-Precision / S-Recall / S-F1) and for specificity across papers (ITF-IDF). Parameters:
``aaar/README.md`` ("PaperWeakness").
"""

from __future__ import annotations

from inspect_ai import Epochs, Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.aaar.dataset.paper_weakness import (
    DEFAULT_WINDOW_WORDS,
    Split,
    WeaknessSettings,
    load_weakness_records,
    weakness_dataset,
    weakness_metadata,
)
from research_taste_evals.aaar.decoding import WEAKNESS_MAX_TOKENS, upstream_decoding
from research_taste_evals.aaar.embedding_models import ITF_IDF_MODEL, S_METRIC_MODEL, aaar_embedder
from research_taste_evals.aaar.itf_idf_metrics import (
    FULL_WEAKNESS_PAPERS,
    mean_keeping_epoch_lists,
    warn_partial_itf_idf,
)
from research_taste_evals.aaar.scorer.paper_weakness import weakness_scorer
from research_taste_evals.aaar.solvers import weakness_solver
from research_taste_evals.aaar.specs import PAPER_WEAKNESS
from research_taste_evals.core.provenance import task_version
from research_taste_evals.core.recall_control import recall_solvers
from research_taste_evals.core.rounds import refuse_a_round
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.core.text import WordCounting, load_word_counting


@task
@task_entry({"window_words": (1, None)})
def paper_weakness(
    data_path: str | None = None,
    split: Split = "split_combine",
    window_words: int = DEFAULT_WINDOW_WORDS,
    word_counting: WordCounting = "nltk",
    embedding_model: str = S_METRIC_MODEL,
    itf_idf_model: str = ITF_IDF_MODEL,
    embedding_revision: str | None = None,
    itf_idf_revision: str | None = None,
    embedding_device: str = "cpu",
    knowledge_cutoff: str | None = None,
) -> Task:
    """AAAR-1.0 PaperWeakness: list a submission's weaknesses; compared with its reviewers'.

    Args:
        data_path (str | None): Upstream layout root, ``Paper_Weakness/``,
            ``Paper_Weakness/ICLR_2023/``, or one ``data_text.json``. Defaults to ``None``.
        split (Literal['split_combine', 'none']): ``split_combine`` or ``none``. Defaults to
            ``'split_combine'``.
        window_words (int): Words per piece (paper: 3,000 closed / 2,000 open models).
            Defaults to ``3000``.
        word_counting (Literal['nltk', 'nltk_installed', 'whitespace']): ``nltk``
            (``word_tokenize`` tokens under NLTK 3.6.7's rules, as released),
            ``nltk_installed`` or ``whitespace``. Defaults to ``'nltk'``.
        embedding_model (str): S-Match sentence-embedding model: a Hub name,
            ``offline-mpnet`` (paper-faithful) or ``offline-minilm`` (not paper-faithful);
            None: all-mpnet-base-v2 at its pinned revision. Defaults to
            ``'sentence-transformers/all-mpnet-base-v2'``.
        itf_idf_model (str): Embedding model of the ITF-IDF score: a Hub name or a packaged
            ``offline-*`` model; None: all-MiniLM-L6-v2 as the release code. Defaults to
            ``'sentence-transformers/all-MiniLM-L6-v2'``.
        embedding_revision (str | None): Hub revision of ``embedding_model``; None: the
            pinned one. Defaults to ``None``.
        itf_idf_revision (str | None): Hub revision of ``itf_idf_model``; None: the pinned
            one. Defaults to ``None``.
        embedding_device (str): Torch device for both. Defaults to ``'cpu'``.
        knowledge_cutoff (str | None): ``YYYY-MM-DD``: the evaluated model's knowledge
            cutoff (see "Recall and contamination"). Defaults to ``None``.
    """
    refuse_a_round(data_path, "paper_weakness_round")  # before anything is read
    settings = WeaknessSettings(split=split, window_words=window_words, word_counting=word_counting)
    cutoff_steps = recall_solvers(PAPER_WEAKNESS, knowledge_cutoff, probe=False)
    load_word_counting(word_counting)
    # Data first: bad data then fails before the embedders open their cache files.
    records, resolved = load_weakness_records(data_path)
    warn_partial_itf_idf(len(records))  # once per run (the metric runs mid-run and at the end)
    # Loaded now so a model that cannot be loaded fails before any model call (shared per process).
    s_embedder = aaar_embedder(embedding_model, embedding_revision, embedding_device)
    itf_embedder = aaar_embedder(itf_idf_model, itf_idf_revision, embedding_device, "itf_idf_model")
    models = (embedding_model, itf_idf_model, embedding_revision, itf_idf_revision)
    return Task(
        dataset=weakness_dataset(records),
        solver=[
            *cutoff_steps,
            weakness_solver(split, window_words, word_counting),
        ],
        scorer=weakness_scorer(*models, embedding_device),
        headline_metric=HeadlineMetric(metric=PAPER_WEAKNESS.headline),
        # ITF-IDF compares lists of the same run: keep every epoch's lists (see itf_idf_metrics.py).
        epochs=Epochs(1, mean_keeping_epoch_lists()),
        config=upstream_decoding(WEAKNESS_MAX_TOKENS),
        version=task_version(__file__, "paper_weakness"),
        metadata=weakness_metadata(
            settings, len(records), FULL_WEAKNESS_PAPERS, resolved, (s_embedder, itf_embedder)
        ),
    )
