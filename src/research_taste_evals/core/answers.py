"""Strict answer parsing, and re-asking when an answer does not parse.

Parsers return None for an answer they cannot read; scorers turn None into a counted,
reported failure, never a silent 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai.solver import Generate, Solver, TaskState, solver

# Decoration a model may wrap around a bare answer ("**1**", "`B`", "(C)", "1.").
_WRAPPING = " \t\r\n`*_.:;()[]'\""
ATTEMPTS_KEY = "answer_attempts"


def parse_choice(text: str, allowed: tuple[str, ...]) -> str | None:
    """The answer if ``text`` is exactly one of ``allowed`` once decoration is stripped."""
    answer = text.strip(_WRAPPING)
    return answer if answer in allowed else None


def parse_binary(text: str) -> int | None:
    """0 or 1 if the answer is exactly that digit once decoration is stripped, else None."""
    answer = parse_choice(text, ("0", "1"))
    return None if answer is None else int(answer)


@solver
def generate_until_parsed(
    parse: Callable[[str], Any | None],
    retries: int,
    done: Callable[[list[str]], bool] | None = None,
) -> Solver:
    """Generate; while the answer does not parse, ask the same prompt afresh, up to ``retries``.

    ``done`` (given every attempt's text so far) replaces the stop rule "the last answer
    parses" when a family reads answers in more than one way and must stop only once each
    reading has found an answer.

    The re-ask loop released benchmark code often uses; the family passes its upstream's retry
    count. Each attempt starts from the original prompt, so the model never sees its failed
    answers; every attempt's text is kept in ``state.metadata["answer_attempts"]`` and shows in
    the transcript.
    """
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        prompt = list(state.messages)
        attempts: list[str] = []
        for _ in range(retries + 1):
            state.messages = list(prompt)
            state = await generate(state)
            attempts.append(state.output.completion)
            finished = done(attempts) if done else parse(attempts[-1]) is not None
            if finished:
                break
        state.metadata[ATTEMPTS_KEY] = attempts
        return state

    return solve
