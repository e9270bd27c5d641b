"""Answer parsing shared by every family, and re-asking when an answer does not parse.

Parsers return None for an answer they cannot read; scorers turn None into a counted,
reported failure, never a silent 0. What each family reads is its "answer contract" (its
parser module's docstring and the "Answer contract" section of its README); the pieces two
families need live here, once:

- :func:`strip_reasoning`: the reply without ``<think>...</think>``-style reasoning blocks;
- :func:`last_json_object`: the last JSON object of a reply, fenced or not, prose around it;
- :func:`until_parsed` / :func:`generate_until_parsed`: the one re-ask loop;
- :func:`answer_rates`: the agreed ``unparsed_rate`` / ``reasked_rate`` figures of a log.

Each attempt is Inspect's own ``generate()`` turn (or ``Model.generate``): a re-ask has its own
cache scope under the run's ``--cache`` (:func:`reask_cache`), or it would read back the answer
it re-asks. A reply without choices is what Inspect returns: an empty completion, unparsed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from inspect_ai.model import CachePolicy
from inspect_ai.scorer import SampleScore
from inspect_ai.solver import Generate, Solver, TaskState, solver

from research_taste_evals.core.cache_scope import scoped_cache

# Decoration a model may wrap around a bare answer ("**1**", "`B`", "(C)", "1.").
_WRAPPING = " \t\r\n`*_.:;()[]'\""
ATTEMPTS_KEY = "answer_attempts"
# The one re-ask on an unparseable answer (issue #17); ``-T reask=0`` gives one call.
DEFAULT_REASK = 1
# Reasoning blocks some models emit inline before the answer (DeepSeek-R1, Qwen3, QwQ, ...).
_BLOCK_TAGS = r"think|thinking|reasoning|thought|reflection"
_CLOSED_BLOCK = re.compile(rf"<({_BLOCK_TAGS})>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_CLOSING_TAG = re.compile(rf"</(?:{_BLOCK_TAGS})\s*>", re.IGNORECASE)
_OPENING_TAG = re.compile(rf"<(?:{_BLOCK_TAGS})>", re.IGNORECASE)
_DECODER = json.JSONDecoder()
REASK_SCOPE_KEY = "reask"  # a re-ask's own cache entry: with --cache on it is asked afresh
T = TypeVar("T")


def reask_cache(attempt: int) -> bool | CachePolicy | None:
    """The cache of attempt ``attempt`` (0: the first ask, None: the run's setting, passed as
    no ``cache``); a re-ask's is the run's cache under its own scope (False: the run has none)."""
    return scoped_cache(REASK_SCOPE_KEY, str(attempt)) if attempt else None


def parse_choice(text: str, allowed: tuple[str, ...]) -> str | None:
    """The answer if ``text`` is exactly one of ``allowed`` once decoration is stripped."""
    answer = text.strip(_WRAPPING)
    return answer if answer in allowed else None


def parse_binary(text: str) -> int | None:
    """0 or 1 if the answer is exactly that digit once decoration is stripped, else None."""
    answer = parse_choice(text, ("0", "1"))
    return None if answer is None else int(answer)


def strip_reasoning(text: str) -> str:
    """The reply without its reasoning blocks (``<think>``, ``<thinking>``, ``<reasoning>``...).

    Closed blocks are removed wherever they are. A closing tag without its opening one (chat
    templates that open the block in the prompt, e.g. Qwen3, DeepSeek-R1) ends the reasoning:
    only what follows the last closing tag is kept. An opening tag never closed (a reply cut
    off while reasoning) starts reasoning that runs to the end: only what precedes it is kept.
    """
    kept = _CLOSED_BLOCK.sub("\n", text)
    closings = list(_CLOSING_TAG.finditer(kept))
    if closings:
        kept = kept[closings[-1].end() :]
    opening = _OPENING_TAG.search(kept)
    if opening:
        kept = kept[: opening.start()]
    return kept


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in ``text``, in order (objects nested in one are not listed).

    Code fences, prose and anything that is not valid JSON around them are skipped.
    """
    objects: list[dict[str, Any]] = []
    position = text.find("{")
    while position != -1:
        try:
            value, end = _DECODER.raw_decode(text, position)
        except ValueError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict):
            objects.append(value)
        position = text.find("{", end)
    return objects


def last_json_object(text: str) -> dict[str, Any] | None:
    """The last JSON object of the reply once reasoning blocks are stripped, or None."""
    objects = json_objects(strip_reasoning(text))
    return objects[-1] if objects else None


async def until_parsed(
    attempt: Callable[[bool | CachePolicy | None], Awaitable[T]],
    text_of: Callable[[T], str],
    finished: Callable[[list[str]], bool],
    retries: int,
) -> tuple[T, list[str]]:
    """Run ``attempt`` until ``finished(texts so far)`` or ``retries`` re-asks are spent.

    The one re-ask loop of the package: returns the last attempt's result and every
    attempt's text (so ``len(texts) > 1`` means the answer was re-asked). ``attempt`` gets the
    cache its call passes (:func:`reask_cache`; None: pass none, the run's setting).
    """
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    texts: list[str] = []
    result = await attempt(None)
    texts.append(text_of(result))
    while not finished(texts) and len(texts) <= retries:
        result = await attempt(reask_cache(len(texts)))
        texts.append(text_of(result))
    return result, texts


def last_parses(parse: Callable[[str], Any | None]) -> Callable[[list[str]], bool]:
    """The usual stop rule: the last answer parses."""
    return lambda texts: parse(texts[-1]) is not None


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
    answers; every attempt is an ordinary ``generate()`` turn in the transcript and its text is
    kept in ``state.metadata["answer_attempts"]``.
    """
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        prompt = list(state.messages)

        async def attempt(cache: bool | CachePolicy | None) -> TaskState:
            state.messages = list(prompt)
            return await (generate(state) if cache is None else generate(state, cache=cache))

        final, attempts = await until_parsed(
            attempt, lambda s: s.output.completion, done or last_parses(parse), retries
        )
        final.metadata[ATTEMPTS_KEY] = attempts
        return final

    return solve


def reasked(attempts: Sequence[object] | None) -> float:
    """1.0 if the answer took more than one attempt (it was re-asked), else 0.0."""
    return 1.0 if attempts is not None and len(attempts) > 1 else 0.0


def answer_rates(
    scores: Sequence[SampleScore],
    unparsed_key: str = "unparsed",
    reasked_key: str = "reasked",
    answers_per_sample: float = 1.0,
) -> dict[str, float]:
    """``unparsed_rate`` and ``reasked_rate``: shares of the model's answers over the samples.

    Each sample's ``Score.value`` holds how many of its ``answers_per_sample`` answers did not
    parse (after any re-ask) and how many were re-asked; a missing key counts 0 (a task whose
    answers are never re-asked). NaN without samples.
    """
    values = [s.score.value for s in scores if isinstance(s.score.value, dict)]
    total = answers_per_sample * len(values)
    if not total:
        return {"unparsed_rate": float("nan"), "reasked_rate": float("nan")}
    return {
        "unparsed_rate": sum(float(v.get(unparsed_key) or 0.0) for v in values) / total,
        "reasked_rate": sum(float(v.get(reasked_key) or 0.0) for v in values) / total,
    }
