"""AAAR-1.0 ExpDesign: which experiments does this paper need, and why?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.2 / 5.2.
The model reads the pre-experiment part of a paper and lists the experiments it would run
(scored by an entailment judge against the authors' experiments); separately, it explains why
each of the authors' (ORACLE) experiments is run (scored by S-Match and ROUGE against the
annotators' explanations).
"""

from __future__ import annotations

from inspect_ai import Task, task

from research_taste_evals.aaar.dataset.expdesign import (
    DEFAULT_CONTEXT_WORDS,
    expdesign_dataset,
    load_expdesign_records,
)
from research_taste_evals.aaar.decoding import (
    EXPDESIGN_MAX_TOKENS,
    decoding_provenance,
    upstream_decoding,
)
from research_taste_evals.aaar.embedding_models import S_METRIC_MODEL, aaar_embedder, is_paper_model
from research_taste_evals.aaar.scorer.expdesign import (
    DEFAULT_JUDGE_MODEL,
    JUDGE_MAX_TOKENS,
    JUDGE_TEMPERATURE,
    JUDGE_TOP_P,
    JudgePrompt,
    expdesign_scorer,
)
from research_taste_evals.aaar.solvers import ExplainMode, expdesign_solver
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.roles import require_role_or_key
from research_taste_evals.core.text import (
    WordCounting,
    load_word_counting,
    nltk_counting_is_upstream,
    word_counting_provenance,
)

EXPDESIGN_VERSION = "3-A"
# The release code re-asks a whole-list explanation up to 3 times when its length differs from
# the experiment list's, then records an empty list (scored 0).
UPSTREAM_EXPLANATION_RETRIES = 3


@task
def expdesign(
    data_path: str | None = None,
    context_words: int = DEFAULT_CONTEXT_WORDS,
    word_counting: WordCounting = "nltk",
    explain_mode: ExplainMode = "one_by_one",
    explanation_retries: int = UPSTREAM_EXPLANATION_RETRIES,
    judge_model: str | None = None,
    judge_prompt: JudgePrompt = "v2",
    judge_cache: bool = False,
    embedding_model: str = S_METRIC_MODEL,
    embedding_revision: str | None = None,
    embedding_device: str = "cpu",
) -> Task:
    """AAAR-1.0 ExpDesign: propose a paper's experiments and explain the authors' ones.

    Args:
        data_path: A local folder in the upstream layout (``Experiment_Design/<id>/data_text.json``)
            or one ``data_text.json``; default: the pinned Hugging Face dataset.
        context_words: Words of pre-experiment context shown (3,000 for closed models in the paper).
        word_counting: ``nltk`` (``word_tokenize`` tokens under NLTK 3.6.7's rules, as
            released), ``nltk_installed`` (the installed NLTK's rules) or ``whitespace``.
        explain_mode: ``one_by_one`` (paper Table 2: one call per oracle experiment) or
            ``whole_list`` (Table 4: the whole oracle list in one call).
        explanation_retries: ``whole_list`` only: re-asks when the list lengths differ.
        judge_model: Entailment judge; default: the ``grader`` model role, else GPT-4o
            (the paper's).
        judge_prompt: ``v2`` (``Exp_entailment_v2``, the released metric script's: one call per
            item against the other side's whole list) or ``v1`` (upstream's earlier protocol:
            ``Exp_entailment`` on every (reference, predicted) pair, ``any()`` per item).
        judge_cache: Cache judge calls (each call has its own cache scope).
        embedding_model: S-Match model: all-mpnet-base-v2 (paper), ``offline-mpnet`` (its
            packaged, hash-checked copy), ``offline-minilm`` (not paper-faithful) or a directory.
        embedding_revision: Hub revision of ``embedding_model`` (pinned by default for the paper's).
        embedding_device: Torch device for the embedding model.
    """
    if context_words <= 0:
        raise ValueError(f"context_words must be positive, got {context_words}")
    if explain_mode not in ("one_by_one", "whole_list"):
        raise ValueError(f"explain_mode must be 'one_by_one' or 'whole_list', got {explain_mode!r}")
    if explanation_retries < 0:
        raise ValueError(f"explanation_retries must be >= 0, got {explanation_retries}")
    if judge_prompt not in ("v2", "v1"):
        raise ValueError(f"judge_prompt must be 'v2' or 'v1', got {judge_prompt!r}")
    load_word_counting(word_counting)
    require_role_or_key(
        "grader", DEFAULT_JUDGE_MODEL, explicit=judge_model, parameter="judge_model"
    )
    # Data first: bad data then fails before the embedder opens its cache file.
    records, resolved = load_expdesign_records(data_path)
    # Loaded now so a model that cannot be loaded fails before any model call (shared per process).
    embedder = aaar_embedder(embedding_model, embedding_revision, embedding_device)
    decoding = upstream_decoding(EXPDESIGN_MAX_TOKENS)
    return Task(
        dataset=expdesign_dataset(records, context_words, word_counting),
        solver=expdesign_solver(explain_mode, explanation_retries),
        scorer=expdesign_scorer(
            judge_model,
            embedding_model,
            embedding_revision,
            embedding_device,
            judge_prompt,
            judge_cache,
        ),
        config=decoding,
        version=EXPDESIGN_VERSION,
        metadata={
            **provenance(
                resolved,
                prompt_variant=f"Exp_eval + Exp_explanation_eval + Exp_entailment_{judge_prompt}",
                paper_faithful={
                    "data": not resolved.source.startswith("local:"),
                    "judge_prompt": judge_prompt == "v2",
                    "judge_decoding": True,
                    "word_counting": nltk_counting_is_upstream(word_counting),
                    "context_words": context_words == DEFAULT_CONTEXT_WORDS,
                    "embeddings": is_paper_model(embedder, S_METRIC_MODEL),
                },
                benchmark="AAAR-1.0 ExpDesign",
                word_counting=word_counting_provenance(word_counting),
                model_decoding=decoding_provenance(
                    decoding, "subtask2_experiment_model_prediction.close_source.v2.py"
                ),
                embeddings=embedder.describe(),
                judge_decoding={
                    "temperature": JUDGE_TEMPERATURE,
                    "top_p": JUDGE_TOP_P,
                    "max_tokens": JUDGE_MAX_TOKENS,
                },
                parse_modes="strict (en_*, headline) and faithful (faithful_en_*) per answer",
            ),
            "context_words": context_words,
            "word_counting": word_counting,
            "explain_mode": explain_mode,
            "explanation_retries": explanation_retries if explain_mode == "whole_list" else None,
            "judge_model": judge_model or f"role:grader (default {DEFAULT_JUDGE_MODEL})",
            "judge_prompt": judge_prompt,
            "papers": len(records),
        },
    )
