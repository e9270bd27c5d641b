"""AAAR-1.0 ExpDesign: which experiments does this paper need, and why?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.2 / 5.2.
The model reads the pre-experiment part of a paper and lists the experiments it would run
(scored by an entailment judge against the authors' experiments); separately, it explains why
each of the authors' (ORACLE) experiments is run (scored by S-Match and ROUGE against the
annotators' explanations). Parameters: ``aaar/README.md`` ("ExpDesign").
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.aaar.dataset.expdesign import (
    DEFAULT_CONTEXT_WORDS,
    ExpDesignSettings,
    expdesign_dataset,
    expdesign_metadata,
    load_expdesign_records,
)
from research_taste_evals.aaar.decoding import EXPDESIGN_MAX_TOKENS, upstream_decoding
from research_taste_evals.aaar.embedding_models import S_METRIC_MODEL, aaar_embedder
from research_taste_evals.aaar.scorer.expdesign import expdesign_scorer
from research_taste_evals.aaar.scorer.expdesign_judge import (
    DEFAULT_JUDGE_MODEL,
    JUDGE_DECODING,
    JudgePrompt,
    judge_spec,
)
from research_taste_evals.aaar.solvers import ExplainMode, expdesign_solver
from research_taste_evals.aaar.specs import EXPDESIGN
from research_taste_evals.core.provenance import task_version
from research_taste_evals.core.recall_control import recall_solvers
from research_taste_evals.core.roles import roles_ready
from research_taste_evals.core.task_args import task_entry
from research_taste_evals.core.text import WordCounting, load_word_counting

# The release code re-asks a whole-list explanation up to 3 times when its length differs from
# the experiment list's, then records an empty list (scored 0).
UPSTREAM_EXPLANATION_RETRIES = 3


@task
@task_entry({"context_words": (1, None), "explanation_retries": (0, None)})
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
    knowledge_cutoff: str | None = None,
) -> Task:
    """AAAR-1.0 ExpDesign: propose a paper's experiments and explain the authors' ones
    (judge: ``judge_model`` > the ``grader`` role > GPT-4o, the paper's).

    Args:
        data_path (str | None): Upstream layout root, ``Experiment_Design/``, or one
            ``data_text.json``. Defaults to ``None``.
        context_words (int): Pre-experiment words shown (paper: 3,000 closed / 2,000 open
            models). Defaults to ``3000``.
        word_counting (Literal['nltk', 'nltk_installed', 'whitespace']): ``nltk``:
            ``word_tokenize`` tokens under NLTK 3.6.7's rules, as released;
            ``nltk_installed``: the installed NLTK's rules; ``whitespace``: ``split()``
            words (more text per budget: NLTK splits off punctuation). Defaults to
            ``'nltk'``.
        explain_mode (Literal['one_by_one', 'whole_list']): ``one_by_one`` or
            ``whole_list``. Defaults to ``'one_by_one'``.
        explanation_retries (int): ``whole_list`` re-asks (upstream ``max_retry`` 3).
            Defaults to ``3``.
        judge_model (str | None): Explicit judge model (beats the role). Defaults to
            ``None``.
        judge_prompt (Literal['v2', 'v1']): ``v2`` (``Exp_entailment_v2``, released metric
            script) or ``v1`` (upstream's earlier
            ``calculate_metrics_subtask2_exp_entailment.py``: ``Exp_entailment`` on every
            (reference, prediction) pair, an item entailed if ``any()`` pair is; recorded in
            ``paper_faithful.judge_prompt``). Defaults to ``'v2'``.
        judge_cache (bool): Cache judge calls (each call its own cache scope). Defaults to
            ``False``.
        embedding_model (str): S-Match sentence-embedding model: a Hub name,
            ``offline-mpnet`` (the packaged all-mpnet-base-v2, paper-faithful) or
            ``offline-minilm`` (packaged all-MiniLM-L6-v2, not paper-faithful); None:
            all-mpnet-base-v2 at its pinned revision. Defaults to
            ``'sentence-transformers/all-mpnet-base-v2'``.
        embedding_revision (str | None): Hub revision of ``embedding_model``; None: the
            pinned one. Defaults to ``None``.
        embedding_device (str): Torch device for both. Defaults to ``'cpu'``.
        knowledge_cutoff (str | None): ``YYYY-MM-DD``: the evaluated model's knowledge
            cutoff (see "Recall and contamination"). Defaults to ``None``.
    """
    settings = ExpDesignSettings(
        context_words=context_words,
        word_counting=word_counting,
        explain_mode=explain_mode,
        explanation_retries=explanation_retries,
        judge_model=judge_model,
        judge_prompt=judge_prompt,
    )
    load_word_counting(word_counting)
    # Fail early, in order: data, embedder (shared); the judge is resolved first when it runs.
    records, resolved = load_expdesign_records(data_path)
    embedder = aaar_embedder(embedding_model, embedding_revision, embedding_device)
    embedding = (embedding_model, embedding_revision, embedding_device)
    return Task(
        dataset=expdesign_dataset(records, context_words, word_counting, resolved.path),
        # The judge is resolved first: a missing key stops before the evaluated model's call.
        solver=[
            roles_ready(judge_spec(judge_model)),
            *recall_solvers(EXPDESIGN, knowledge_cutoff, probe=False),
            expdesign_solver(explain_mode, explanation_retries),
        ],
        scorer=[
            expdesign_scorer(judge_model, *embedding, judge_prompt, judge_cache),
        ],
        headline_metric=HeadlineMetric(metric=EXPDESIGN.headline),
        config=upstream_decoding(EXPDESIGN_MAX_TOKENS),
        version=task_version(__file__, "expdesign"),
        metadata=expdesign_metadata(
            settings, records, resolved, embedder, JUDGE_DECODING, DEFAULT_JUDGE_MODEL
        ),
    )
