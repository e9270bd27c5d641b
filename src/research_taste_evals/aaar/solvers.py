"""AAAR-1.0 solvers: how the model is asked, as the release code asks it.

- EqInfer binary: re-ask while an answer does not parse (release: up to 3 re-asks), reading
  every answer both the strict and the released way; multiple choice: one call, as released.
- ExpDesign: the experiment list and the explanations of the authors' (oracle) experiments.
- PaperWeakness: split-combine, one call per piece of the paper.

(Lou et al. 2024, Sections 3 and 4; RenzeLou/AAAR-1.0 ``scripts/subtask1_equation_model_eval*.py``,
``subtask2_experiment_model_prediction.close_source.v2.py``,
``subtask3_review_model_prediction.close_source.py``.)
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Sequence
from functools import partial
from typing import Literal

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver, system_message

from research_taste_evals.aaar.dataset.eqinfer import LETTERS, Variant
from research_taste_evals.aaar.dataset.expdesign import extract_list_items
from research_taste_evals.aaar.dataset.paper_weakness import Split, split_pieces
from research_taste_evals.aaar.parsing import faithful_binary, strict_binary, strict_choice
from research_taste_evals.aaar.prompts import (
    EQINFER_MC_SYSTEM,
    EQINFER_SYSTEM,
    EXPDESIGN_PROMPT,
    EXPDESIGN_SYSTEM,
    EXPLANATION_LIST_PROMPT,
    EXPLANATION_LIST_SYSTEM,
    EXPLANATION_ONE_PROMPT,
    EXPLANATION_ONE_SYSTEM,
    UPSTREAM_ITEM_NUMBER,
    WEAKNESS_PROMPT,
    WEAKNESS_SYSTEM,
)
from research_taste_evals.core.answers import generate_until_parsed, reask_cache
from research_taste_evals.core.text import WordCounting, content_id, fill_template

PREDICTED_EXPERIMENTS_KEY = "expdesign:predicted_experiments"
PREDICTED_EXPLANATIONS_KEY = "expdesign:predicted_explanations"
EXPLANATION_ATTEMPTS_KEY = "expdesign:explanation_attempts"
PREDICTED_WEAKNESSES_KEY = "weakness:predicted_weaknesses"
PIECE_ANSWERS_KEY = "weakness:piece_answers"
# The paper's human row (Table 3, ITF-IDF 7.69) scores one randomly picked reviewer per paper
# (subtask3_metric_cross_diversity.py --only_human_score, pick_choice 1, seed 42).
HUMAN_REVIEWER_MODEL = "baseline/human-reviewer"
HUMAN_REVIEWER_SEED = 42

ExplainMode = Literal["one_by_one", "whole_list"]


def _messages(system: str, prompt: str) -> list[ChatMessage]:
    return [ChatMessageSystem(content=system), ChatMessageUser(content=prompt)]


def _first_error(results: Sequence[object]) -> None:
    """Raise the first error of ``asyncio.gather(..., return_exceptions=True)``'s results: every
    call has ended, so one answered while another failed is cached before the sample fails."""
    for result in results:
        if isinstance(result, BaseException):
            raise result


def both_readings_answered(attempts: list[str]) -> bool:
    """True once the strict and the released reading have each read a label in some attempt."""
    return any(strict_binary(a) is not None for a in attempts) and any(
        faithful_binary(a) is not None for a in attempts
    )


def binary_until_parsed(retries: int) -> Solver:
    """Ask; re-ask the same prompt afresh while the strict or the released reading has no label.

    Each reading takes the first answer it can read, so one run gives both modes exactly what
    they would get alone (the release code re-asks until ``int()`` reads a 0/1, up to 3 times).
    Every attempt's text is kept in ``state.metadata["answer_attempts"]``.
    """
    return generate_until_parsed(strict_binary, retries, done=both_readings_answered)


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

    calls = (explain(i, e) for i, e in enumerate(experiments))
    results = await asyncio.gather(*calls, return_exceptions=True)
    _first_error(results)
    return [r for r in results if isinstance(r, str)]


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
        # A re-ask has its own cache scope: under --cache it would read back the answer it re-asks.
        cache = reask_cache(attempt - 1)
        messages = _messages(EXPLANATION_LIST_SYSTEM, prompt)
        output = await (
            model.generate(messages) if cache is None else model.generate(messages, cache=cache)
        )
        items = extract_list_items(output.completion)
        if len(items) == len(experiments):
            return items, attempt
    return [], retries + 1


@solver
def expdesign_solver(explain_mode: ExplainMode, explanation_retries: int) -> Solver:
    """Design experiments from the context and explain the oracle experiments, concurrently.

    The two steps are independent (explanations are asked for the authors' experiments, as in
    the paper's main table), so every call of a sample runs at once. The experiment-design
    conversation becomes the sample's messages and output; all lists go to the store. (The
    task records the model's cutoff before this step: ``core/recall_control.py``.)
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        context = state.input_text
        oracle: list[str] = state.metadata["experiments"]
        design_messages = _messages(
            EXPDESIGN_SYSTEM, fill_template(EXPDESIGN_PROMPT, context_input=context)
        )
        if explain_mode == "one_by_one":
            design, explained = await asyncio.gather(
                model.generate(design_messages),
                explain_one_by_one(model, context, oracle),
                return_exceptions=True,
            )
            _first_error((design, explained))
            assert isinstance(design, ModelOutput) and isinstance(explained, list)
            explanations, attempts = explained, 1
        else:
            design, listed = await asyncio.gather(
                model.generate(design_messages),
                explain_whole_list(model, context, oracle, explanation_retries),
                return_exceptions=True,
            )
            _first_error((design, listed))
            assert isinstance(design, ModelOutput) and isinstance(listed, tuple)
            explanations, attempts = listed
        # A reply without choices appends nothing: an empty completion, an empty list.
        state.messages = [*design_messages, *(choice.message for choice in design.choices[:1])]
        state.output = design
        state.store.set(PREDICTED_EXPERIMENTS_KEY, extract_list_items(design.completion))
        state.store.set(PREDICTED_EXPLANATIONS_KEY, explanations)
        state.store.set(EXPLANATION_ATTEMPTS_KEY, attempts)
        return state

    return solve


def combine_piece_lists(piece_lists: list[list[str]]) -> list[str]:
    """Concatenate the per-piece lists and renumber the items 1..n, as the release code does."""
    combined = [item for items in piece_lists for item in items]
    return [re.sub(UPSTREAM_ITEM_NUMBER, f"{i + 1}.", item) for i, item in enumerate(combined)]


def human_reviewer_list(paper_id: str, reviewers: list[list[str]]) -> list[str]:
    """One non-empty reviewer's weaknesses, picked by a seed derived from the paper id.

    The paper picks with one ``random.seed(42)`` stream over its paper order; a per-paper seed
    keeps the pick independent of which papers a run includes (so not the paper's exact picks).
    """
    non_empty = [weaknesses for weaknesses in reviewers if weaknesses]
    if not non_empty:
        return []
    return list(random.Random(content_id(HUMAN_REVIEWER_SEED, paper_id)).choice(non_empty))


@solver
def weakness_solver(split: Split, window_words: int, counting: WordCounting) -> Solver:
    """Ask for the weaknesses of every piece of the paper concurrently, then combine the lists.

    Each piece is an independent [system, user] call (visible as its own model event); the
    sample's messages end with one assistant message holding the combined list. With the model
    ``baseline/human-reviewer`` no call is made: the list is one reviewer's own weaknesses
    (verbatim, unnumbered, as the paper scores its human row).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        if str(model) == HUMAN_REVIEWER_MODEL:
            answers: list[str] = []
            combined = human_reviewer_list(
                state.metadata["paper_id"], state.metadata["reviewer_weaknesses"]
            )
        else:
            pieces = await asyncio.to_thread(
                split_pieces, state.input_text, split, window_words, counting
            )
            outputs = await asyncio.gather(
                *(
                    model.generate(
                        _messages(WEAKNESS_SYSTEM, fill_template(WEAKNESS_PROMPT, context_input=p))
                    )
                    for p in pieces
                ),
                return_exceptions=True,
            )
            _first_error(outputs)
            answers = [o.completion for o in outputs if isinstance(o, ModelOutput)]
            combined = combine_piece_lists([extract_list_items(answer) for answer in answers])
        text = "\n".join(combined)
        state.messages.append(ChatMessageAssistant(content=text, model=model.name))
        state.output = ModelOutput.from_content(model=model.name, content=text)
        state.store.set(PIECE_ANSWERS_KEY, answers)
        state.store.set(PREDICTED_WEAKNESSES_KEY, combined)
        return state

    return solve


def eqinfer_solver(variant: Variant, parse_retries: int, choice_retries: int) -> list[Solver]:
    """EqInfer's chain: binary judgments re-asked until parsed, or one multiple-choice answer
    (re-asked only when ``choice_retries`` > 0; the release calls once)."""
    if variant == "binary":
        return [system_message(EQINFER_SYSTEM), binary_until_parsed(parse_retries)]
    ask = (
        generate_until_parsed(partial(strict_choice, letters=LETTERS), choice_retries)
        if choice_retries
        else generate()
    )
    return [system_message(EQINFER_MC_SYSTEM), ask]
