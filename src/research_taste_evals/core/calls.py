"""Model calls exactly as Inspect makes them (CONTRIBUTING.md, "The runtime layer").

HTTP faults are retried by Inspect (``--max-retries``); a malformed 200 body raises and fails
the sample, which ``--retry-on-error`` runs again with every finished call read back from the
cache (``--cache``). What is left to the package:

- a 200 reply whose ``choices`` is empty is returned by Inspect as it is, and cached
  (``inspect_ai/model/_cache.py`` ``cache_store`` skips only content-filter stops), so a
  retried sample would read it back forever: it is an unreadable answer, asked once more with
  ``cache=False`` for that call and counted in the sample's store (:data:`EMPTY_REASKS_KEY`);
  still empty, the call raises :class:`EmptyReplyError` and the sample fails, to be retried
  (:func:`generate_reply`, :func:`generate_turn`, :func:`reply_step`);
- a re-ask of an unparsed answer has its own cache scope under the run's cache
  (:func:`reask_cache`), or it would read back the answer it re-asks;
- concurrent calls end before an error is raised (:func:`gather_calls`), so what finished is
  cached before the sample fails.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import CachePolicy, ChatMessage, GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import store

# The sample's store: how many replies without choices were asked again (uncached).
EMPTY_REASKS_KEY = "empty_replies_reasked"
EMPTY_REPLY = "a completion without choices"
REASK_SCOPE_KEY = "reask"  # a re-ask's own cache entry: with --cache on it is asked afresh


def run_cache() -> bool | CachePolicy:
    """The run's ``--cache``, as the evaluated model's config holds it (Inspect makes the
    evaluated model from its name with the eval's config; role models inherit its cache at each
    call). False outside an eval (no active model: a call made by hand)."""
    try:
        return get_model().config.cache or False
    except ValueError:
        return False


def reask_cache(attempt: int) -> CachePolicy | None:
    """The cache of re-ask ``attempt`` (0: the first ask, the run's setting): under the run's
    cache, its own scope, so a re-ask is a new call (cached for a retried sample), not the
    cached unparsed answer read back."""
    cache = run_cache() if attempt else False
    if cache is False:
        return None
    policy = CachePolicy() if cache is True else cache
    return policy.model_copy(update={"scopes": {**policy.scopes, REASK_SCOPE_KEY: str(attempt)}})


class EmptyReplyError(RuntimeError):
    """A reply without choices, asked again without the cache and still without choices."""


def _count_empty(model: object) -> None:
    store().set(EMPTY_REASKS_KEY, int(store().get(EMPTY_REASKS_KEY, 0)) + 1)
    transcript().info(f"{model}: {EMPTY_REPLY}; asked once more, uncached", source="re-ask")


async def gather_calls(*calls: Awaitable[Any]) -> list[Any]:
    """``asyncio.gather(*calls)``, but the first error is raised only once every call has
    ended: a sibling answered while another failed is cached before the sample fails, so its
    retry reads it instead of paying for it again (``asyncio.gather`` raises at once and leaves
    the others running into the sample's cancellation)."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


async def generate_reply(
    model: Model,
    input: str | list[ChatMessage],
    config: GenerateConfig | None = None,
    cache: bool | CachePolicy | None = None,
) -> ModelOutput:
    """``model.generate(input)`` (``cache``: an explicit policy, else the run's setting).

    A reply without choices is asked once more with ``cache=False`` and counted; a second one
    raises :class:`EmptyReplyError` (module docstring). Provider errors propagate.
    """
    config = config or GenerateConfig()
    if cache is None:  # the run's setting, Inspect's default
        output = await model.generate(input, config=config)
    else:
        output = await model.generate(input, config=config, cache=cache)
    if output.choices:
        return output
    _count_empty(model)
    output = await model.generate(input, config=config, cache=False)
    if not output.choices:
        raise EmptyReplyError(f"{model}: {EMPTY_REPLY}, twice")
    return output


async def _turn(state: TaskState, generate: Generate, **kwargs: Any) -> bool:
    """One ``generate`` of ``state``; False when its reply had no choices (nothing appended).

    Inspect's ``generate()`` sets ``state.output`` and then reads ``output.message``, which
    raises ``IndexError`` for a reply without choices (``inspect_ai/_eval/task/generate.py``,
    pinned in tests/core/test_inspect_behaviours.py).
    """
    before, messages = state.output, len(state.messages)
    try:
        await generate(state, **kwargs)
    except IndexError:
        if state.output is before or state.output.choices:
            raise
        del state.messages[messages:]
        return False
    return True


async def generate_turn(state: TaskState, generate: Generate, **kwargs: Any) -> TaskState:
    """The evaluated model's turn through Inspect's ``generate`` (``kwargs`` as it takes them);
    a reply without choices is asked once more uncached and counted, a second one raises."""
    if await _turn(state, generate, **kwargs):
        return state
    _count_empty(state.model)
    if await _turn(state, generate, **{**kwargs, "cache": False}):
        return state
    raise EmptyReplyError(f"{state.model}: {EMPTY_REPLY}, twice")


@solver
def reply_step(**kwargs: Any) -> Solver:
    """Inspect's ``generate()`` solver, a reply without choices re-asked (:func:`generate_turn`)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await generate_turn(state, generate, **kwargs)

    return solve
