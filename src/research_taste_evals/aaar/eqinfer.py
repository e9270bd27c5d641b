"""AAAR-1.0 EqInfer: is this the equation the paper's context calls for?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Section 3.1 / 5.1.
"""

from __future__ import annotations

from functools import partial

from inspect_ai import Task, task
from inspect_ai.solver import system_message

from research_taste_evals.aaar.dataset.eqinfer import (
    DEFAULT_CONTEXT_WORDS,
    LETTERS,
    Variant,
    eqinfer_dataset,
    load_eqinfer_records,
)
from research_taste_evals.aaar.prompts import EQINFER_MC_SYSTEM, EQINFER_SYSTEM
from research_taste_evals.aaar.scorer.eqinfer import eqinfer_binary_scorer, eqinfer_choice_scorer
from research_taste_evals.core.answers import generate_until_parsed, parse_binary, parse_choice
from research_taste_evals.core.metrics import UnparsedPolicy

EQINFER_VERSION = "1.0.0"
UPSTREAM_PARSE_RETRIES = 3  # the release code re-asks up to 3 times before giving up


@task
def eqinfer(
    data_path: str | None = None,
    variant: Variant = "binary",
    context_words: int = DEFAULT_CONTEXT_WORDS,
    parse_mode: UnparsedPolicy = "strict",
    parse_retries: int = UPSTREAM_PARSE_RETRIES,
    shuffle_options: bool = True,
) -> Task:
    """AAAR-1.0 EqInfer: judge whether a candidate LaTeX equation fits its paper's context.

    Args:
        data_path: A local file (or folder holding ``equation.1049.json``) in the AAAR format;
            default: the pinned Hugging Face file.
        variant: ``binary`` (paper setting: each of the 4 options judged 0/1, pooled F1) or
            ``multiple_choice`` (pick the correct option of four, accuracy).
        context_words: Words of context kept on each side of the equation.
        parse_mode: ``strict`` counts an unparsed answer and leaves it out of F1;
            ``faithful`` scores it as the wrong label, as the release code does.
        parse_retries: Times an unparsed answer is re-asked before it is scored as unparsed.
        shuffle_options: ``multiple_choice`` only: permute options per instance (seeded).
    """
    if context_words <= 0:
        raise ValueError(f"context_words must be positive, got {context_words}")
    if variant not in ("binary", "multiple_choice"):
        raise ValueError(f"variant must be 'binary' or 'multiple_choice', got {variant!r}")
    if parse_mode not in ("strict", "faithful"):
        raise ValueError(f"parse_mode must be 'strict' or 'faithful', got {parse_mode!r}")
    records, resolved = load_eqinfer_records(data_path)
    dataset = eqinfer_dataset(records, variant, context_words, shuffle_options, name="eqinfer")
    if variant == "binary":
        solver = [
            system_message(EQINFER_SYSTEM),
            generate_until_parsed(parse_binary, parse_retries),
        ]
        scorer = eqinfer_binary_scorer(parse_mode)
    else:
        solver = [
            system_message(EQINFER_MC_SYSTEM),
            generate_until_parsed(partial(parse_choice, allowed=LETTERS), parse_retries),
        ]
        scorer = eqinfer_choice_scorer(parse_mode)
    return Task(
        dataset=dataset,
        solver=solver,
        scorer=scorer,
        version=EQINFER_VERSION,
        metadata={
            **resolved.as_metadata(),
            "benchmark": "AAAR-1.0 EqInfer",
            "variant": variant,
            "context_words": context_words,
            "parse_mode": parse_mode,
            "parse_retries": parse_retries,
            "shuffle_options": shuffle_options if variant == "multiple_choice" else None,
            "instances": len(records),
        },
    )
