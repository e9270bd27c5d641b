"""ReviewCritique: which segments of a peer review should a meta-reviewer not rely on?

Du et al. (2024), "LLMs Assist NLP Researchers: Critique Paper (Meta-)Reviewing", reused as the
fourth task of AAAR-1.0 (Lou et al., 2024, Sections 3.4 / 5.4). The data's license forbids
training use: evaluation only. Parameters: ``reviewcritique/README.md`` ("Parameters").
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.core.answers import DEFAULT_REASK
from research_taste_evals.core.dates import undated_source
from research_taste_evals.core.provenance import task_version
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.reviewcritique.dataset import (
    DEFAULT_PAPER_WORDS,
    CritiqueSettings,
    Subset,
    load_reviewcritique,
    reviewcritique_dataset,
    reviewcritique_metadata,
)
from research_taste_evals.reviewcritique.explanation import PAPER_BERTSCORE_MODEL, load_bertscore
from research_taste_evals.reviewcritique.metrics import reviewcritique_figures
from research_taste_evals.reviewcritique.scorer import reviewcritique_scorer
from research_taste_evals.reviewcritique.solvers import critique_solver
from research_taste_evals.reviewcritique.specs import REVIEW_CRITIQUE


@task
@task_entry({"paper_words": (1, None), "bootstrap_resamples": (1, None), "reask": (0, None)})
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
        subset (Literal['human', 'llm']): ``human`` or ``llm``: which pinned upstream file.
            Defaults to ``'human'``.
        data_path (str | None): Local file or folder (either layout). Defaults to ``None``.
        paper_words (int): Paper words kept (keeps every known paper whole: see Data).
            Defaults to ``30000``.
        structured_output (bool): Send the JSON schema as the response schema. Defaults to
            ``True``.
        reask (int): Times an answer breaking the answer contract is asked again (0 = the
            paper's single call). Defaults to ``1``.
        bertscore_model (str): Or ``offline-minilm``, or a local model directory (then set
            ``bertscore_layers``). Defaults to ``'roberta-large'``.
        bertscore_revision (str | None): Hub commit of roberta-large. Defaults to ``None``.
        bertscore_layers (int | None): Layer used. Defaults to ``None``.
        bertscore_device (str): Torch device. Defaults to ``'cpu'``.
        bootstrap_resamples (int): Bootstrap resamples behind the metrics' confidence
            intervals. Defaults to ``1000``.
        bootstrap_seed (int): Seed of the bootstrap (the intervals are reproducible).
            Defaults to ``20241029``.
    """
    settings = CritiqueSettings(
        subset=subset,
        paper_words=paper_words,
        structured_output=structured_output,
        reask=reask,
        bootstrap_resamples=bootstrap_resamples,
        bootstrap_seed=bootstrap_seed,
    )
    reviews, resolved, duplicates = load_reviewcritique(subset, data_path)
    # Loaded before any model call; a model that cannot load is recorded, never replaced.
    bert = load_bertscore(bertscore_model, bertscore_revision, bertscore_layers, bertscore_device)
    return Task(
        dataset=reviewcritique_dataset(reviews, paper_words, name=f"review_critique_{subset}"),
        solver=critique_solver(structured_output, reask),
        scorer=reviewcritique_scorer(bert),
        # The figures the log holds, with the run's bootstrap settings (core/task_metric.py).
        metrics=[reviewcritique_figures(bootstrap_resamples, bootstrap_seed, bert.baseline_f1)],
        headline_metric=HeadlineMetric(metric=REVIEW_CRITIQUE.headline),
        version=task_version(__file__, "review_critique"),
        metadata=reviewcritique_metadata(settings, reviews, resolved, duplicates, bert)
        # No post-cutoff twin: README, "Recall and contamination".
        | undated_source(REVIEW_CRITIQUE.task, str(REVIEW_CRITIQUE.undated_reason)),
    )
