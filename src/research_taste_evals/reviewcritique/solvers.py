"""The ReviewCritique solver: both prompting strategies on the same review, concurrently.

AAAR-1.0 Section 5.4 ensembles Labeling-All and Select-Deficient ("Both No", "Either No"), so one
sample asks both prompts and the ensembles are computed from exactly these two answers. An answer
that breaks the answer contract (``parsing.py``) is asked again afresh, ``reask`` times
(default 1, ``core.answers.DEFAULT_REASK``; 0 = the paper's single call).
"""

from __future__ import annotations

import asyncio

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
    ResponseSchema,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import json_schema

from research_taste_evals.core.answers import (
    DEFAULT_REASK,
    last_parses,
    until_parsed,
)
from research_taste_evals.core.text import fill_template
from research_taste_evals.reviewcritique.parsing import ANSWER_MODELS, PROMPTS, Prompt, parses
from research_taste_evals.reviewcritique.prompts import (
    CRITIQUE_SYSTEM,
    LABELING_ALL_PROMPT,
    SELECT_DEFICIENT_PROMPT,
)

ANSWERS_KEY = "reviewcritique_answers"
ATTEMPTS_KEY = "reviewcritique_attempts"  # every attempt's text, per prompt
PROMPT_TEMPLATES: dict[Prompt, str] = {
    "labeling_all": LABELING_ALL_PROMPT,
    "select_deficient": SELECT_DEFICIENT_PROMPT,
}


def response_config(prompt: Prompt, structured_output: bool) -> GenerateConfig:
    """Generation config asking for the prompt's JSON schema where the provider supports it."""
    if not structured_output:
        return GenerateConfig()
    return GenerateConfig(
        response_schema=ResponseSchema(
            name=f"reviewcritique_{prompt}",
            json_schema=json_schema(ANSWER_MODELS[prompt]),
        )
    )


@solver
def critique_solver(structured_output: bool = True, reask: int = DEFAULT_REASK) -> Solver:
    """Ask Labeling-All and Select-Deficient about the review, as two independent calls.

    Each call is its own [system, user] conversation (its own model event in the transcript),
    re-asked afresh up to ``reask`` times while its answer does not parse. The final answers go
    to the store under ``ANSWERS_KEY`` (every attempt under ``ATTEMPTS_KEY``) for the scorer,
    and the sample ends with one assistant message holding both.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()

        async def ask(prompt: Prompt) -> tuple[ModelOutput, list[str]]:
            messages: list[ChatMessage] = [
                ChatMessageSystem(content=CRITIQUE_SYSTEM),
                ChatMessageUser(
                    content=fill_template(PROMPT_TEMPLATES[prompt], context=state.input_text)
                ),
            ]
            config = response_config(prompt, structured_output)
            return await until_parsed(
                lambda cache: (  # None: the first ask, the run's --cache
                    model.generate(messages, config=config)
                    if cache is None
                    else model.generate(messages, config=config, cache=cache)
                ),
                lambda output: output.completion,
                last_parses(parses(prompt)),
                reask,
            )

        # Both calls end before an error is raised: one answered is cached for the retry.
        gathered = await asyncio.gather(*(ask(p) for p in PROMPTS), return_exceptions=True)
        for result in gathered:
            if isinstance(result, BaseException):
                raise result
        results = [r for r in gathered if not isinstance(r, BaseException)]
        answers = {
            prompt: output.completion for prompt, (output, _) in zip(PROMPTS, results, strict=True)
        }
        text = "\n\n".join(f"[{prompt}]\n{answer}" for prompt, answer in answers.items())
        state.messages.append(ChatMessageAssistant(content=text, model=model.name))
        state.output = ModelOutput.from_content(model=model.name, content=text)
        state.store.set(ANSWERS_KEY, answers)
        state.store.set(
            ATTEMPTS_KEY,
            {prompt: texts for prompt, (_, texts) in zip(PROMPTS, results, strict=True)},
        )
        return state

    return solve
