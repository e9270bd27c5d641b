"""ReviewCritique: which segments of a peer review should a meta-reviewer not rely on?

Du et al. (2024), "LLMs Assist NLP Researchers: Critique Paper (Meta-)Reviewing", reused as the
fourth task of AAAR-1.0 (Lou et al., 2024, Sections 3.4 / 5.4). The data's license forbids
training use: evaluation only.
"""

from __future__ import annotations

from inspect_ai import Task, task

from research_taste_evals.core.answers import DEFAULT_REASK
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.reviewcritique.dataset import (
    DEFAULT_PAPER_WORDS,
    LICENSE_NOTE,
    SUBSETS,
    UPSTREAM_COMMIT,
    Subset,
    count_segments,
    load_reviewcritique,
    matches_pinned,
    reviewcritique_dataset,
)
from research_taste_evals.reviewcritique.explanation import PAPER_BERTSCORE_MODEL, load_bertscore
from research_taste_evals.reviewcritique.metrics import reviewcritique_metrics
from research_taste_evals.reviewcritique.scorer import reviewcritique_scorer
from research_taste_evals.reviewcritique.solvers import critique_solver

REVIEW_CRITIQUE_VERSION = "2-A"
# Our JSON wording of the two strategies AAAR-1.0 Section 5.4 describes (not published verbatim).
PROMPT_VARIANT = "json-v1"


@task
def review_critique(
    subset: Subset = "human",
    data_path: str | None = None,
    paper_words: int = DEFAULT_PAPER_WORDS,
    structured_output: bool = True,
    reask: int = DEFAULT_REASK,
    bertscore_model: str = PAPER_BERTSCORE_MODEL,
    bertscore_revision: str | None = None,
    bertscore_layers: int | None = None,
    bertscore_device: str = "cpu",
    bootstrap_resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Task:
    """ReviewCritique: label each segment of a review deficient or not, and say why.

    Evaluation only: the data's license (Apache NON-AI 2.0) forbids using it to train models.

    Args:
        subset: ``human`` (ReviewCritique.jsonl, 100 papers) or ``llm`` (ReviewCritique_LLM.jsonl,
            20 papers reviewed by three LLMs); selects the pinned upstream file.
        data_path: A local file or folder of ``*.jsonl`` in the upstream layout or the derived
            layout (``paper_text`` + ``reviews`` list); default: the pinned upstream file.
        paper_words: Words of paper text kept (truncation is recorded per sample).
        structured_output: Send each prompt's JSON schema as the response schema (providers that
            support it); answers are read under the same contract either way (README).
        reask: Times an answer that breaks the answer contract is asked again afresh
            (default 1; 0 = the paper's single call). Counted in ``reasked_rate``.
        bertscore_model: ``roberta-large`` (bert-score's English default; paper-faithful choice),
            ``offline-minilm`` (packaged, not paper-faithful) or a local model directory.
        bertscore_revision: Hub commit of ``roberta-large`` (default: latest; the resolved commit
            is recorded in the log).
        bertscore_layers: Layer to use (default 17 for roberta-large, 6 for offline-minilm).
        bertscore_device: Torch device for BERTScore.
        bootstrap_resamples: Resamples of papers for the F1 confidence intervals.
        bootstrap_seed: Seed of those resamples.
    """
    if subset not in SUBSETS:
        raise ValueError(f"subset must be one of {SUBSETS}, got {subset!r}")
    if paper_words <= 0:
        raise ValueError(f"paper_words must be positive, got {paper_words}")
    if reask < 0:
        raise ValueError(f"reask must be >= 0, got {reask}")
    reviews, resolved, duplicates = load_reviewcritique(subset, data_path)
    # Loaded before any model call; a model that cannot load is recorded, never replaced.
    bert = load_bertscore(bertscore_model, bertscore_revision, bertscore_layers, bertscore_device)
    return Task(
        dataset=reviewcritique_dataset(reviews, paper_words, name=f"review_critique_{subset}"),
        solver=critique_solver(structured_output, reask),
        scorer=reviewcritique_scorer(bert),
        metrics=[reviewcritique_metrics(bootstrap_resamples, bootstrap_seed, bert.baseline_f1)],
        version=REVIEW_CRITIQUE_VERSION,
        metadata={
            **provenance(
                resolved,
                prompt_variant=PROMPT_VARIANT,
                paper_faithful={
                    "data": matches_pinned(resolved.path, subset),
                    "prompt": False,
                    "bertscore": bert.paper_faithful and bert.error is None,
                },
                upstream_commit=UPSTREAM_COMMIT,
                license=LICENSE_NOTE,
            ),
            **resolved.as_metadata(),
            **bert.describe(),
            **count_segments(reviews),
            "benchmark": "ReviewCritique (AAAR-1.0 task 4)",
            "upstream_commit": UPSTREAM_COMMIT,
            "subset": subset,
            "paper_words": paper_words,
            "structured_output": structured_output,
            "reask": reask,
            "failure_policy": (
                "headline: an undecided deficient segment is missed (false negative); "
                "*_parsed_only: segments both prompts decided"
            ),
            "duplicate_reviews_dropped": duplicates,
            "bootstrap_resamples": bootstrap_resamples,
            "bootstrap_seed": bootstrap_seed,
            "license": LICENSE_NOTE,
        },
    )
