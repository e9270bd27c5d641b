"""AAAR-1.0 PaperWeakness: what would reviewers criticise in this submission?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.3 / 5.3.
The model reviews an ICLR 2023 submission piece by piece ("split-combine") and lists its
weaknesses; the list is scored against every reviewer's weaknesses with sentence embeddings
(S-Precision / S-Recall / S-F1) and for specificity across papers (ITF-IDF).
"""

from __future__ import annotations

from inspect_ai import Epochs, Task, task

from research_taste_evals.aaar.dataset.paper_weakness import (
    DEFAULT_WINDOW_WORDS,
    Split,
    load_weakness_records,
    weakness_dataset,
)
from research_taste_evals.aaar.decoding import (
    WEAKNESS_MAX_TOKENS,
    decoding_provenance,
    upstream_decoding,
)
from research_taste_evals.aaar.embedding_models import (
    ITF_IDF_MODEL,
    S_METRIC_MODEL,
    aaar_embedder,
    is_paper_model,
)
from research_taste_evals.aaar.metrics import FULL_WEAKNESS_PAPERS, mean_keeping_epoch_lists
from research_taste_evals.aaar.scorer.paper_weakness import weakness_scorer
from research_taste_evals.aaar.solvers import weakness_solver
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.text import (
    WordCounting,
    load_word_counting,
    nltk_counting_is_upstream,
    word_counting_provenance,
)

WEAKNESS_VERSION = "3-A"


@task
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
) -> Task:
    """AAAR-1.0 PaperWeakness: list a submission's weaknesses; compared with its reviewers'.

    Args:
        data_path: A local folder in the upstream layout
            (``Paper_Weakness/ICLR_2023/<id>/data_text.json``) or one ``data_text.json``;
            default: the pinned Hugging Face dataset.
        split: ``split_combine`` (paper: every piece reviewed, lists concatenated) or ``none``
            (only the first ``window_words`` words).
        window_words: Words per piece (3,000 for closed models in the paper).
        word_counting: ``nltk`` (``word_tokenize`` tokens under NLTK 3.6.7's rules, as
            released), ``nltk_installed`` (the installed NLTK's rules) or ``whitespace``.
        embedding_model: S-P/S-R/S-F1 model: all-mpnet-base-v2 (paper), ``offline-mpnet`` (its
            packaged, hash-checked copy), ``offline-minilm`` (not paper-faithful) or a directory.
        itf_idf_model: ITF-IDF model: all-MiniLM-L6-v2 (paper; ``offline-minilm`` holds the same
            weights) or a local directory.
        embedding_revision: Hub revision of ``embedding_model`` (pinned by default for the paper's).
        itf_idf_revision: Hub revision of ``itf_idf_model`` (pinned by default for the paper's).
        embedding_device: Torch device for both embedding models.
    """
    if window_words <= 0:
        raise ValueError(f"window_words must be positive, got {window_words}")
    if split not in ("split_combine", "none"):
        raise ValueError(f"split must be 'split_combine' or 'none', got {split!r}")
    load_word_counting(word_counting)
    # Data first: bad data then fails before the embedders open their cache files.
    records, resolved = load_weakness_records(data_path)
    # Loaded now so a model that cannot be loaded fails before any model call (shared per process).
    s_embedder = aaar_embedder(embedding_model, embedding_revision, embedding_device)
    itf_embedder = aaar_embedder(itf_idf_model, itf_idf_revision, embedding_device)
    decoding = upstream_decoding(WEAKNESS_MAX_TOKENS)
    return Task(
        dataset=weakness_dataset(records),
        solver=weakness_solver(split, window_words, word_counting),
        scorer=weakness_scorer(
            embedding_model, itf_idf_model, embedding_revision, itf_idf_revision, embedding_device
        ),
        # ITF-IDF compares lists of the same run: keep every epoch's lists (see metrics.py).
        epochs=Epochs(1, mean_keeping_epoch_lists()),
        config=decoding,
        version=WEAKNESS_VERSION,
        metadata={
            **provenance(
                resolved,
                prompt_variant="Weakness_eval",
                paper_faithful={
                    "data": not resolved.source.startswith("local:"),
                    "prompt": True,
                    "split": split == "split_combine",
                    "word_counting": nltk_counting_is_upstream(word_counting),
                    "window_words": window_words == DEFAULT_WINDOW_WORDS,
                    "embeddings": is_paper_model(s_embedder, S_METRIC_MODEL),
                    "itf_idf_embeddings": is_paper_model(itf_embedder, ITF_IDF_MODEL),
                    "itf_idf_w": len(records) == FULL_WEAKNESS_PAPERS,
                },
                benchmark="AAAR-1.0 PaperWeakness",
                word_counting=word_counting_provenance(word_counting),
                model_decoding=decoding_provenance(
                    decoding, "subtask3_review_model_prediction.close_source.py"
                ),
                embeddings=s_embedder.describe(),
                itf_idf_embeddings=itf_embedder.describe(),
            ),
            "split": split,
            "window_words": window_words,
            "word_counting": word_counting,
            "papers": len(records),
            "itf_idf_full_set": FULL_WEAKNESS_PAPERS,
        },
    )
