"""The idea-pair solver: ask the model about both presentation orders of a pair, concurrently.

Token log-probabilities are requested (``GenerateConfig(logprobs=True, top_logprobs=...)``);
when the provider returns them, P(Idea B) is read from the answer letter's distribution,
otherwise the scorer falls back to the verbalised confidence. Which source was used is
recorded per order. The eval's generation config (e.g. ``--reasoning-effort``) applies, since
the calls go through the evaluated model.
"""

from __future__ import annotations

import asyncio
import math
import re
from functools import partial
from typing import Any

from inspect_ai.model import CachePolicy, ChatMessageUser, GenerateConfig, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.answers import (
    DEFAULT_REASK,
    last_parses,
    until_parsed,
)
from research_taste_evals.core.recall_control import recall_solvers
from research_taste_evals.ideapairs.dataset import ORDERS, forecast_prompt
from research_taste_evals.ideapairs.parsing import parse_answer
from research_taste_evals.ideapairs.specs import IDEA_PAIRS

TOP_LOGPROBS = 5
ANSWERS_KEY = "answers"
_ANSWER_PREFIX = re.compile(r"answer\W*:\W*$", re.IGNORECASE)


# The answer tokens of each prompt, as (token meaning Idea A is better, ... Idea B ...).
LABEL_TOKENS: dict[str, tuple[str, str]] = {"paper": ("0", "1"), "reasoning": ("A", "B")}


def order_prompt(metadata: dict[str, Any], order: str) -> str:
    """The prompt of one presentation order, from the sample metadata."""
    shown = metadata["orders"][order]
    ideas = metadata["ideas"]
    return forecast_prompt(
        metadata["goal"],
        ideas[shown["idea_a"]]["text"],
        ideas[shown["idea_b"]]["text"],
        metadata.get("prompt", "paper"),
        metadata.get("lower_is_better"),
        metadata.get("metric"),
    )


def label_probability_b(output: ModelOutput) -> float | None:
    """P(class 1) = P(Idea B is better) from the first "0"/"1" label token's logprobs.

    The ``paper`` prompt's reply is the label alone (section 5.1); among the top alternatives at
    the first token that reads "0" or "1", each reading "0"/"1" adds to its label. None without
    logprobs or without a label token.
    """
    if not output.choices or output.choices[0].logprobs is None:
        return None
    for token in output.choices[0].logprobs.content:
        if token.token.strip(" *_`.\n") in ("0", "1"):
            mass = {"0": 0.0, "1": 0.0}
            alternatives = [(a.token, a.logprob) for a in token.top_logprobs or []]
            for text, logprob in alternatives or [(token.token, token.logprob)]:
                label = text.strip(" *_`.\n")
                if label in mass:
                    mass[label] += math.exp(logprob)
            total = mass["0"] + mass["1"]
            return mass["1"] / total if total > 0 else None
    return None


def logprob_probability_b(output: ModelOutput) -> float | None:
    """P(B) over {A, B} at the answer letter after "Answer:", from the token logprobs.

    A reply that is only the letter counts too. None when the provider returned no logprobs or
    no answer letter follows "Answer:". Among
    the top alternatives at that position, every token reading "A" or "B" (after stripping
    spaces and markup) adds to its letter; a letter absent from the top list counts as 0.
    """
    if not output.choices or output.choices[0].logprobs is None:
        return None
    tokens = output.choices[0].logprobs.content
    text = ""
    found = None
    for token in tokens:
        is_letter = token.token.strip(" *_") in ("A", "B")
        if is_letter and _ANSWER_PREFIX.search(text):
            found = token
        text += token.token
    letters = [token for token in tokens if token.token.strip(" *_`.") in ("A", "B")]
    if found is None and text.strip(" *_`.\n") in ("A", "B") and len(letters) == 1:
        found = letters[0]  # a reply that is only the letter
    if found is None:
        return None
    mass = {"A": 0.0, "B": 0.0}
    alternatives = [(a.token, a.logprob) for a in found.top_logprobs or []]
    for text_token, logprob in alternatives or [(found.token, found.logprob)]:
        letter = text_token.strip(" *_")
        if letter in mass:
            mass[letter] += math.exp(logprob)
    total = mass["A"] + mass["B"]
    return mass["B"] / total if total > 0 else None


# The running sample's idea texts -> facts (kept in the sample store).
FACTS_STORE_KEY = "ideapairs_facts"
# The facts offline baselines may peek at (never in a prompt): year (baseline/newer) and the
# unified score (baseline/idea-oracle).
PEEKED_FACTS = ("year", "unified_score")


def idea_facts(metadata: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Each idea's text -> its peeked facts, from a sample's metadata."""
    ideas = (metadata or {}).get("ideas", {})
    return {
        str(facts.get("text")): {k: float(facts[k]) for k in PEEKED_FACTS if k in facts}
        for facts in ideas.values()
    }


@solver
def judge_both_orders(
    logprobs: bool = True, prompt: str = "paper", reask: int = DEFAULT_REASK
) -> Solver:
    """Generate the model's answer for the original and the swapped order of the pair.

    ``prompt`` picks how P(Idea B) is read from the logprobs: the label token (``paper``) or
    the letter after "Answer:" (``reasoning``). An answer that breaks the answer contract
    (``parsing.py``, for that prompt) is asked again afresh, up to ``reask`` times
    (``core.answers.until_parsed``); every attempt's text is recorded.
    """
    read = label_probability_b if prompt == "paper" else logprob_probability_b
    config = (
        GenerateConfig(logprobs=True, top_logprobs=TOP_LOGPROBS) if logprobs else GenerateConfig()
    )

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        # Facts only the offline baselines read (never in a prompt): no module state needed.
        state.store.set(FACTS_STORE_KEY, idea_facts(state.metadata))
        prompts = [order_prompt(state.metadata, order) for order in ORDERS]

        async def ask(text: str, cache: bool | CachePolicy | None) -> ModelOutput:
            if cache is None:  # the first ask: the run's --cache
                return await model.generate(text, config=config)
            return await model.generate(text, config=config, cache=cache)

        # Both orders end before an error is raised: one answered is cached for the retry.
        gathered = await asyncio.gather(
            *(
                until_parsed(
                    partial(ask, p),
                    lambda output: output.completion,
                    last_parses(partial(parse_answer, prompt=prompt)),  # type: ignore[arg-type]
                    reask,
                )
                for p in prompts
            ),
            return_exceptions=True,
        )
        for result in gathered:
            if isinstance(result, BaseException):
                raise result
        results = [r for r in gathered if not isinstance(r, BaseException)]
        outputs = [output for output, _ in results]
        state.metadata[ANSWERS_KEY] = {
            order: {
                "completion": output.completion,
                "p_b_logprobs": read(output),
                "attempts": attempts,
            }
            for order, (output, attempts) in zip(ORDERS, results, strict=True)
        }
        first = [choice.message for choice in outputs[0].choices[:1]]  # none: an empty reply
        state.messages = [ChatMessageUser(content=prompts[0]), *first]
        state.output = outputs[0]
        return state

    return solve


def idea_pairs_solver(
    knowledge_cutoff: object,
    probe: bool = True,
    logprobs: bool = True,
    prompt: str = "paper",
    reask: int = DEFAULT_REASK,
) -> list[Solver]:
    """The model's cutoff, the recognition probe (once per idea per run; ``probe``) and the judge.

    The probe shows exactly each idea's text as the judge reads it (``recall.py``); the cutoff
    is read when the task runs, from the model evaluated (``core/cutoff.py``). A bad
    ``knowledge_cutoff`` is one ``ConfigError`` sentence, raised here, at task build.
    """
    steps = recall_solvers(IDEA_PAIRS, knowledge_cutoff, probe)
    return [*steps, judge_both_orders(logprobs=logprobs, prompt=prompt, reask=reask)]
