"""AAAR-1.0 EqInfer: is this the equation the paper's context calls for?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.1 / 5.1.
Parameters: ``aaar/README.md`` ("EqInfer").
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from research_taste_evals.aaar.dataset.eqinfer import (
    DEFAULT_CONTEXT_WORDS,
    UPSTREAM_CHOICE_RETRIES,
    UPSTREAM_PARSE_RETRIES,
    EqInferSettings,
    Variant,
    eqinfer_dataset,
    eqinfer_metadata,
    load_eqinfer_records,
)
from research_taste_evals.aaar.decoding import EQINFER_MAX_TOKENS, upstream_decoding
from research_taste_evals.aaar.parsing import FaithfulReader
from research_taste_evals.aaar.recall import EQINFER_UNDATED
from research_taste_evals.aaar.scorer.eqinfer import eqinfer_binary_scorer, eqinfer_choice_scorer
from research_taste_evals.aaar.solvers import eqinfer_solver
from research_taste_evals.aaar.specs import EQINFER
from research_taste_evals.core.dates import undated_source
from research_taste_evals.core.provenance import task_version
from research_taste_evals.core.task_args import task_entry

__all__ = ["UPSTREAM_CHOICE_RETRIES", "UPSTREAM_PARSE_RETRIES", "eqinfer"]


@task
@task_entry({"context_words": (1, None), "parse_retries": (0, None), "choice_retries": (0, None)})
def eqinfer(
    data_path: str | None = None,
    variant: Variant = "binary",
    context_words: int = DEFAULT_CONTEXT_WORDS,
    parse_retries: int = UPSTREAM_PARSE_RETRIES,
    shuffle_options: bool = True,
    choice_retries: int = UPSTREAM_CHOICE_RETRIES,
    faithful_reader: FaithfulReader = "api",
) -> Task:
    """AAAR-1.0 EqInfer: judge whether a candidate LaTeX equation fits its paper's context.

    Every answer is scored twice: strictly (``decision_*``: an answer that is not a bare 0/1 is
    counted in ``unparsed_rate`` and left out) and as the release code reads it
    (``faithful_*``: Python ``int()``, forced to the wrong label when never readable).
    ``variant``: ``binary`` (the paper's: 4 options judged 0/1, pooled F1) or
    ``multiple_choice`` (pick the correct option of four, accuracy; one call).
    ``faithful_reader``: ``api`` or ``vllm``, which release script's reading fills
    ``faithful_*`` (same answers). Decoding defaults to upstream's (``aaar/decoding.py``).

    Args:
        data_path (str | None): ``equation.1049.json``, the folder holding it, or the
            dataset root (holding ``Equation_Inference/``). Defaults to ``None``.
        variant (Literal['binary', 'multiple_choice']): ``binary``: every option judged 0/1
            (paper), pooled F1; ``multiple_choice``: pick 1 of 4, accuracy, one call as
            released. Defaults to ``'binary'``.
        context_words (int): Whitespace words kept on each side (the release counts EqInfer
            words with ``split()``). Defaults to ``1000``.
        parse_retries (int): ``binary``: re-asks while the strict or the released reading
            has no label (upstream: 3). Defaults to ``3``.
        shuffle_options (bool): ``multiple_choice``: seeded per-instance permutation (the
            released answer letters are unbalanced); options are formatted as released, ``
            (A). ``eq``; ``. Defaults to ``True``.
        choice_retries (int): ``multiple_choice``: re-asks while the answer is not one
            option letter (release: one call). Defaults to ``0``.
        faithful_reader (Literal['api', 'vllm']): ``binary``: which release script's reading
            fills ``faithful_*``, from the same answers: ``api``
            (``subtask1_equation_model_eval_binary.py``: ``int()``, re-asks) or ``vllm``
            (``..._binary.open_source.py``: exactly ``0``/``1`` on the first answer, never
            re-asked, wrong label forced); both readings are in every score's metadata.
            Defaults to ``'api'``.
    """
    settings = EqInferSettings(
        variant=variant,
        context_words=context_words,
        parse_retries=parse_retries,
        choice_retries=choice_retries,
        shuffle_options=shuffle_options,
        faithful_reader=faithful_reader,
    )
    records, resolved = load_eqinfer_records(data_path)
    binary = variant == "binary"
    return Task(
        dataset=eqinfer_dataset(records, variant, context_words, shuffle_options, name="eqinfer"),
        solver=eqinfer_solver(variant, parse_retries, choice_retries),
        scorer=eqinfer_binary_scorer(faithful_reader) if binary else eqinfer_choice_scorer(),
        headline_metric=HeadlineMetric(metric=EQINFER.headline_of(variant)),
        config=upstream_decoding(EQINFER_MAX_TOKENS),
        version=task_version(__file__, "eqinfer"),
        metadata=eqinfer_metadata(settings, len(records), resolved)
        | undated_source("eqinfer", EQINFER_UNDATED),
    )
