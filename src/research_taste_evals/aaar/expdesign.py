"""AAAR-1.0 ExpDesign: which experiments does this paper need, and why?

Lou et al. (2024), "AAAR-1.0: Assessing AI's Potential to Assist Research", Sections 3.2 / 5.2.
The model reads the pre-experiment part of a paper and lists the experiments it would run
(scored by an entailment judge against the authors' experiments); separately, it explains why
each of the authors' (ORACLE) experiments is run (scored by S-Match and ROUGE against the
annotators' explanations).
"""

from __future__ import annotations

import asyncio
import re
from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.aaar.dataset.expdesign import (
    DEFAULT_CONTEXT_WORDS,
    expdesign_dataset,
    extract_list_items,
    load_expdesign_records,
)
from research_taste_evals.aaar.prompts import (
    EXPDESIGN_PROMPT,
    EXPDESIGN_SYSTEM,
    EXPLANATION_LIST_PROMPT,
    EXPLANATION_LIST_SYSTEM,
    EXPLANATION_ONE_PROMPT,
    EXPLANATION_ONE_SYSTEM,
    UPSTREAM_ITEM_NUMBER,
)
from research_taste_evals.aaar.scorer.expdesign import (
    DEFAULT_JUDGE_MODEL,
    EXPLANATION_ATTEMPTS_KEY,
    PREDICTED_EXPERIMENTS_KEY,
    PREDICTED_EXPLANATIONS_KEY,
    JudgeParseMode,
    expdesign_scorer,
)
from research_taste_evals.core.embeddings import S_METRIC_MODEL, get_embedder
from research_taste_evals.core.text import fill_template

EXPDESIGN_VERSION = "1.0.0"
# The release code re-asks a whole-list explanation up to 3 times when its length differs from
# the experiment list's, then records an empty list (scored 0).
UPSTREAM_EXPLANATION_RETRIES = 3

ExplainMode = Literal["one_by_one", "whole_list"]


def _messages(system: str, prompt: str) -> list[ChatMessage]:
    return [ChatMessageSystem(content=system), ChatMessageUser(content=prompt)]


async def explain_one_by_one(model: Model, context: str, experiments: list[str]) -> list[str]:
    """One call per oracle experiment, concurrently; answer i becomes ``"i. <answer>"``.

    As upstream: a leading ``"N."`` is removed from the experiment before it is shown.
    """

    async def explain(index: int, experiment: str) -> str:
        prompt = fill_template(
            EXPLANATION_ONE_PROMPT,
            context_input=context,
            experiment_list=re.sub(UPSTREAM_ITEM_NUMBER, "", experiment),
        )
        output = await model.generate(_messages(EXPLANATION_ONE_SYSTEM, prompt))
        return f"{index + 1}. {output.completion.strip()}"

    return list(await asyncio.gather(*(explain(i, e) for i, e in enumerate(experiments))))


async def explain_whole_list(
    model: Model, context: str, experiments: list[str], retries: int
) -> tuple[list[str], int]:
    """One call for the whole oracle list; re-asked until the list lengths match.

    Returns the explanation items and the number of attempts; after ``1 + retries`` mismatched
    answers the items are ``[]`` (upstream's behaviour, scored 0 and counted by the scorer).
    """
    prompt = fill_template(
        EXPLANATION_LIST_PROMPT, context_input=context, experiment_list="\n".join(experiments)
    )
    for attempt in range(1, retries + 2):
        output = await model.generate(_messages(EXPLANATION_LIST_SYSTEM, prompt))
        items = extract_list_items(output.completion)
        if len(items) == len(experiments):
            return items, attempt
    return [], retries + 1


@solver
def expdesign_solver(explain_mode: ExplainMode, explanation_retries: int) -> Solver:
    """Design experiments from the context and explain the oracle experiments, concurrently.

    The two steps are independent (explanations are asked for the authors' experiments, as in
    the paper's main table), so every call of a sample runs at once. The experiment-design
    conversation becomes the sample's messages and output; all lists go to the store.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        context = state.input_text
        oracle: list[str] = state.metadata["experiments"]
        design_messages = _messages(
            EXPDESIGN_SYSTEM, fill_template(EXPDESIGN_PROMPT, context_input=context)
        )
        if explain_mode == "one_by_one":
            design, explanations = await asyncio.gather(
                model.generate(design_messages), explain_one_by_one(model, context, oracle)
            )
            attempts = 1
        else:
            design, (explanations, attempts) = await asyncio.gather(
                model.generate(design_messages),
                explain_whole_list(model, context, oracle, explanation_retries),
            )
        state.messages = [*design_messages, design.message]
        state.output = design
        state.store.set(PREDICTED_EXPERIMENTS_KEY, extract_list_items(design.completion))
        state.store.set(PREDICTED_EXPLANATIONS_KEY, explanations)
        state.store.set(EXPLANATION_ATTEMPTS_KEY, attempts)
        return state

    return solve


@task
def expdesign(
    data_path: str | None = None,
    context_words: int = DEFAULT_CONTEXT_WORDS,
    explain_mode: ExplainMode = "one_by_one",
    explanation_retries: int = UPSTREAM_EXPLANATION_RETRIES,
    judge_model: str | None = None,
    judge_parse_mode: JudgeParseMode = "strict",
    embedding_model: str = S_METRIC_MODEL,
    embedding_revision: str | None = None,
    embedding_device: str = "cpu",
) -> Task:
    """AAAR-1.0 ExpDesign: propose a paper's experiments and explain the authors' ones.

    Args:
        data_path: A local folder in the upstream layout (``Experiment_Design/<id>/data_text.json``)
            or one ``data_text.json``; default: the pinned Hugging Face dataset.
        context_words: Words of pre-experiment context shown (3,000 for closed models in the paper).
        explain_mode: ``one_by_one`` (paper Table 2: one call per oracle experiment) or
            ``whole_list`` (Table 4: the whole oracle list in one call).
        explanation_retries: ``whole_list`` only: re-asks when the list lengths differ.
        judge_model: Entailment judge; default: the ``grader`` model role, else GPT-4o
            (the paper's).
        judge_parse_mode: ``strict`` leaves judge answers with no 0/1 out of En-P/R (counted);
            ``faithful`` scores them 0, as the release code does (also counted).
        embedding_model: S-Match model: all-mpnet-base-v2 (paper), ``offline-minilm`` (packaged,
            not paper-faithful) or a local directory.
        embedding_revision: Hub revision of ``embedding_model`` (pinned by default for the paper's).
        embedding_device: Torch device for the embedding model.
    """
    if context_words <= 0:
        raise ValueError(f"context_words must be positive, got {context_words}")
    if explain_mode not in ("one_by_one", "whole_list"):
        raise ValueError(f"explain_mode must be 'one_by_one' or 'whole_list', got {explain_mode!r}")
    if explanation_retries < 0:
        raise ValueError(f"explanation_retries must be >= 0, got {explanation_retries}")
    if judge_parse_mode not in ("strict", "faithful"):
        raise ValueError(
            f"judge_parse_mode must be 'strict' or 'faithful', got {judge_parse_mode!r}"
        )
    # Loaded now so a model that cannot be loaded fails before any model call (shared per process).
    embedder = get_embedder(embedding_model, embedding_revision, embedding_device)
    records, resolved = load_expdesign_records(data_path)
    return Task(
        dataset=expdesign_dataset(records, context_words),
        solver=expdesign_solver(explain_mode, explanation_retries),
        scorer=expdesign_scorer(
            judge_model, judge_parse_mode, embedding_model, embedding_revision, embedding_device
        ),
        version=EXPDESIGN_VERSION,
        metadata={
            **resolved.as_metadata(),
            **embedder.describe(),
            "benchmark": "AAAR-1.0 ExpDesign",
            "context_words": context_words,
            "explain_mode": explain_mode,
            "explanation_retries": explanation_retries if explain_mode == "whole_list" else None,
            "judge_model": judge_model or f"role:grader (default {DEFAULT_JUDGE_MODEL})",
            "judge_parse_mode": judge_parse_mode,
            "paper_faithful_embeddings": embedder.describe()["embedding_weights_of"]
            == S_METRIC_MODEL,
            "papers": len(records),
        },
    )
