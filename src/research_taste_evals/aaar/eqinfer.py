"""AAAR-1.0 EqInfer: is this the equation the paper's context calls for?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.1 / 5.1.
"""

from __future__ import annotations

from functools import partial

from inspect_ai import Task, task
from inspect_ai.solver import generate, system_message

from research_taste_evals.aaar.dataset.eqinfer import (
    DEFAULT_CONTEXT_WORDS,
    LETTERS,
    Variant,
    eqinfer_dataset,
    load_eqinfer_records,
)
from research_taste_evals.aaar.decoding import (
    EQINFER_MAX_TOKENS,
    decoding_provenance,
    upstream_decoding,
)
from research_taste_evals.aaar.parsing import FaithfulReader, strict_choice
from research_taste_evals.aaar.prompts import EQINFER_MC_SYSTEM, EQINFER_SYSTEM
from research_taste_evals.aaar.scorer.eqinfer import eqinfer_binary_scorer, eqinfer_choice_scorer
from research_taste_evals.aaar.solvers import binary_until_parsed
from research_taste_evals.core.answers import generate_until_parsed
from research_taste_evals.core.provenance import provenance
from research_taste_evals.core.text import word_counting_provenance

EQINFER_VERSION = "3-A"
# subtask1_equation_model_eval_binary.py re-asks up to 3 times before forcing the wrong label;
# subtask1_equation_model_eval.py (multiple choice) calls once.
UPSTREAM_PARSE_RETRIES = 3
UPSTREAM_CHOICE_RETRIES = 0


@task
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

    Args:
        data_path: ``equation.1049.json``, the folder holding it, or the dataset root (holding
            ``Equation_Inference/``); default: the pinned Hugging Face file.
        variant: ``binary`` (paper setting: each of the 4 options judged 0/1, pooled F1) or
            ``multiple_choice`` (pick the correct option of four, accuracy; one call).
        context_words: Whitespace words of context kept on each side of the equation.
        parse_retries: ``binary``: re-asks while either reading has no label (release: 3).
        shuffle_options: ``multiple_choice`` only: permute options per instance (seeded).
        choice_retries: ``multiple_choice`` only: re-asks while the answer is not one option
            letter (release: 0, one call; a non-zero value is recorded as not paper-faithful).
        faithful_reader: ``binary`` only: which release script's reading fills ``faithful_*``:
            ``api`` (``int()``, re-asks; the paper's API models) or ``vllm`` (exact ``0``/``1``
            on the first answer, never re-asked; its open-weights script). Same answers.

    The evaluated model decodes as the release code (temperature 1, top-p 0.99, 200 max tokens)
    unless ``--temperature`` / ``--top-p`` / ``--max-tokens`` say otherwise.
    """
    if context_words <= 0:
        raise ValueError(f"context_words must be positive, got {context_words}")
    if variant not in ("binary", "multiple_choice"):
        raise ValueError(f"variant must be 'binary' or 'multiple_choice', got {variant!r}")
    if choice_retries < 0:
        raise ValueError(f"choice_retries must be >= 0, got {choice_retries}")
    records, resolved = load_eqinfer_records(data_path)
    dataset = eqinfer_dataset(records, variant, context_words, shuffle_options, name="eqinfer")
    if variant == "binary":
        solver = [system_message(EQINFER_SYSTEM), binary_until_parsed(parse_retries)]
        scorer = eqinfer_binary_scorer(faithful_reader)
    else:
        ask = (
            generate_until_parsed(partial(strict_choice, letters=LETTERS), choice_retries)
            if choice_retries
            else generate()
        )
        solver = [system_message(EQINFER_MC_SYSTEM), ask]
        scorer = eqinfer_choice_scorer()
    decoding = upstream_decoding(EQINFER_MAX_TOKENS)
    return Task(
        dataset=dataset,
        solver=solver,
        scorer=scorer,
        config=decoding,
        version=EQINFER_VERSION,
        metadata={
            **provenance(
                resolved,
                prompt_variant="Equation_eval_binary" if variant == "binary" else "Equation_eval",
                paper_faithful={
                    "data": not resolved.source.startswith("local:"),
                    "prompt": True,
                    "word_counting": True,  # whitespace words, as the release counts them
                    "context_words": context_words == DEFAULT_CONTEXT_WORDS,
                    "retries": (
                        parse_retries == UPSTREAM_PARSE_RETRIES
                        if variant == "binary"
                        else choice_retries == UPSTREAM_CHOICE_RETRIES
                    ),
                    "options_order": variant == "binary" or not shuffle_options,
                },
                benchmark="AAAR-1.0 EqInfer",
                parse_modes="strict (decision_*, headline) and faithful (faithful_*) per answer",
                faithful_reader=faithful_reader if variant == "binary" else None,
                word_counting=word_counting_provenance("whitespace"),
                model_decoding=decoding_provenance(
                    decoding,
                    "subtask1_equation_model_eval_binary.py"
                    if variant == "binary"
                    else "subtask1_equation_model_eval.py",
                ),
            ),
            "variant": variant,
            "context_words": context_words,
            "parse_retries": parse_retries if variant == "binary" else choice_retries,
            "shuffle_options": shuffle_options if variant == "multiple_choice" else None,
            "instances": len(records),
        },
    )
