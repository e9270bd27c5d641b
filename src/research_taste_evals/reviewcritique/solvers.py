"""The ReviewCritique solver: both prompting strategies on the same review, concurrently.

AAAR-1.0 Section 5.4 ensembles Labeling-All and Select-Deficient ("Both No", "Either No"), so one
sample asks both prompts and the ensembles are computed from exactly these two answers.
"""

from __future__ import annotations

import asyncio

from inspect_ai.model import (
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

from research_taste_evals.core.text import fill_template
from research_taste_evals.reviewcritique.parsing import ANSWER_MODELS, PROMPTS, Prompt
from research_taste_evals.reviewcritique.prompts import (
    CRITIQUE_SYSTEM,
    LABELING_ALL_PROMPT,
    SELECT_DEFICIENT_PROMPT,
)

ANSWERS_KEY = "reviewcritique_answers"
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
def critique_solver(structured_output: bool = True) -> Solver:
    """Ask Labeling-All and Select-Deficient about the review, as two independent calls.

    Each call is its own [system, user] conversation (its own model event in the transcript);
    the raw answers go to the store under ``ANSWERS_KEY`` for the scorer, and the sample ends
    with one assistant message holding both.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        outputs = await asyncio.gather(
            *(
                model.generate(
                    [
                        ChatMessageSystem(content=CRITIQUE_SYSTEM),
                        ChatMessageUser(
                            content=fill_template(
                                PROMPT_TEMPLATES[prompt], context=state.input_text
                            )
                        ),
                    ],
                    config=response_config(prompt, structured_output),
                )
                for prompt in PROMPTS
            )
        )
        answers = {
            prompt: output.completion for prompt, output in zip(PROMPTS, outputs, strict=True)
        }
        text = "\n\n".join(f"[{prompt}]\n{answer}" for prompt, answer in answers.items())
        state.messages.append(ChatMessageAssistant(content=text, model=model.name))
        state.output = ModelOutput.from_content(model=model.name, content=text)
        state.store.set(ANSWERS_KEY, answers)
        return state

    return solve
