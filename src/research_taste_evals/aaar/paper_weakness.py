"""AAAR-1.0 PaperWeakness: what would reviewers criticise in this submission?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.3 / 5.3.
The model reviews an ICLR 2023 submission piece by piece ("split-combine") and lists its
weaknesses; the list is scored against every reviewer's weaknesses with sentence embeddings
(S-Precision / S-Recall / S-F1) and for specificity across papers (ITF-IDF).
"""

from __future__ import annotations

import asyncio
import re

from inspect_ai import Task, task
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.aaar.dataset.expdesign import extract_list_items
from research_taste_evals.aaar.dataset.paper_weakness import (
    DEFAULT_WINDOW_WORDS,
    Split,
    load_weakness_records,
    split_pieces,
    weakness_dataset,
)
from research_taste_evals.aaar.prompts import UPSTREAM_ITEM_NUMBER, WEAKNESS_PROMPT, WEAKNESS_SYSTEM
from research_taste_evals.aaar.scorer.paper_weakness import (
    PIECE_ANSWERS_KEY,
    PREDICTED_WEAKNESSES_KEY,
    weakness_scorer,
)
from research_taste_evals.core.embeddings import ITF_IDF_MODEL, S_METRIC_MODEL, get_embedder
from research_taste_evals.core.text import fill_template

WEAKNESS_VERSION = "1.0.0"


def combine_piece_lists(piece_lists: list[list[str]]) -> list[str]:
    """Concatenate the per-piece lists and renumber the items 1..n, as the release code does."""
    combined = [item for items in piece_lists for item in items]
    return [re.sub(UPSTREAM_ITEM_NUMBER, f"{i + 1}.", item) for i, item in enumerate(combined)]


@solver
def weakness_solver(split: Split, window_words: int) -> Solver:
    """Ask for the weaknesses of every piece of the paper concurrently, then combine the lists.

    Each piece is an independent [system, user] call (visible as its own model event); the
    sample's messages end with one assistant message holding the combined list.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        pieces = split_pieces(state.input_text, split, window_words)
        outputs = await asyncio.gather(
            *(
                model.generate(
                    [
                        ChatMessageSystem(content=WEAKNESS_SYSTEM),
                        ChatMessageUser(
                            content=fill_template(WEAKNESS_PROMPT, context_input=piece)
                        ),
                    ]
                )
                for piece in pieces
            )
        )
        answers = [output.completion for output in outputs]
        combined = combine_piece_lists([extract_list_items(answer) for answer in answers])
        text = "\n".join(combined)
        state.messages.append(ChatMessageAssistant(content=text, model=model.name))
        state.output = ModelOutput.from_content(model=model.name, content=text)
        state.store.set(PIECE_ANSWERS_KEY, answers)
        state.store.set(PREDICTED_WEAKNESSES_KEY, combined)
        return state

    return solve


@task
def paper_weakness(
    data_path: str | None = None,
    split: Split = "split_combine",
    window_words: int = DEFAULT_WINDOW_WORDS,
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
        embedding_model: S-P/S-R/S-F1 model: all-mpnet-base-v2 (paper), ``offline-minilm``
            (packaged, not paper-faithful) or a local directory.
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
    # Loaded now so a model that cannot be loaded fails before any model call (shared per process).
    s_embedder = get_embedder(embedding_model, embedding_revision, embedding_device)
    itf_embedder = get_embedder(itf_idf_model, itf_idf_revision, embedding_device)
    records, resolved = load_weakness_records(data_path)
    return Task(
        dataset=weakness_dataset(records),
        solver=weakness_solver(split, window_words),
        scorer=weakness_scorer(
            embedding_model, itf_idf_model, embedding_revision, itf_idf_revision, embedding_device
        ),
        version=WEAKNESS_VERSION,
        metadata={
            **resolved.as_metadata(),
            **s_embedder.describe(),
            **{f"itf_idf_{key}": value for key, value in itf_embedder.describe().items()},
            "benchmark": "AAAR-1.0 PaperWeakness",
            "split": split,
            "window_words": window_words,
            # The packaged offline model holds all-MiniLM-L6-v2's weights (sha256-checked).
            "paper_faithful_embeddings": (
                s_embedder.describe()["embedding_weights_of"] == S_METRIC_MODEL
                and itf_embedder.describe()["embedding_weights_of"] == ITF_IDF_MODEL
            ),
            "papers": len(records),
        },
    )
