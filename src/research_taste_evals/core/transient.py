"""Malformed 200s survived (replaced by: Inspect retrying a 200 that is no completion).

:func:`generate_retrying`: the package's own calls, through its view (core/package_model.py),
so Inspect's retries (``--max-retries``/``--timeout``) cover them. :func:`retrying`
(:func:`generate_step`): the evaluated model's turns through Inspect's ``generate`` (a model
every task shares, not wrapped), run again on a malformed body, in their own cache scope
(Inspect cached the empty output), each retry an info event.
"""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai.log import transcript
from inspect_ai.model import CachePolicy, ChatMessage, GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from research_taste_evals.core.failures import describe_error, unwrap_error
from research_taste_evals.core.package_model import (
    MalformedResponseError,
    malformed_errors,
    no_choices,
    package_view,
)

DEFAULT_MAX_MALFORMED_RETRIES = 10  # Inspect's own default (retry forever) is for HTTP errors
MALFORMED_WAIT = wait_exponential_jitter(multiplier=0.5, max=8, jitter=0.5)  # a proxy hiccup
RETRY_SOURCE = "malformed response retry"  # the info event's source
RETRY_SCOPE_KEY = "malformed_retry"  # a retried turn's cache scope

__all__ = ["MalformedResponseError", "generate_retrying", "generate_step", "retrying"]


async def generate_retrying(
    model: Model, input: str | list[ChatMessage], config: GenerateConfig | None = None, **kw: Any
) -> ModelOutput:
    """``model.generate`` through the package's view: Inspect retries malformed bodies too."""
    return await package_view(model).generate(input, config=config or GenerateConfig(), **kw)


def _retry_cache(cache: bool | CachePolicy | None, attempt: int) -> bool | CachePolicy:
    if not cache:
        return False
    policy = CachePolicy() if cache is True else cache
    return policy.model_copy(update={"scopes": {**policy.scopes, RETRY_SCOPE_KEY: str(attempt)}})


def retrying(generate: Generate) -> Generate:
    """``generate`` (the evaluated model's turn), run again while it fails on a malformed body;
    the last error is raised when retries run out."""

    async def step(
        state: TaskState, tool_calls: Literal["loop", "single", "none"] = "loop", **kwargs: Any
    ) -> TaskState:
        model = get_model()
        bound = kwargs.get("max_retries", model.config.max_retries)
        retries = DEFAULT_MAX_MALFORMED_RETRIES if bound is None else int(bound)
        attempts = AsyncRetrying(
            retry=retry_if_exception(lambda e: isinstance(unwrap_error(e), malformed_errors())),
            stop=stop_after_attempt(retries + 1),
            wait=MALFORMED_WAIT,
            before_sleep=lambda s: transcript().info(
                f"{model}: malformed response ({describe_error(s.outcome.exception())}), "  # type: ignore[union-attr, arg-type]
                f"retry {s.attempt_number} of {retries}",
                source=RETRY_SOURCE,
            ),
            reraise=True,
        )
        async for attempt in attempts:
            with attempt:
                number = attempt.retry_state.attempt_number
                cache = _retry_cache(kwargs.get("cache"), number) if number > 1 else None
                call = kwargs if cache is None else {**kwargs, "cache": cache}
                before, messages = state.output, len(state.messages)
                try:
                    state = await generate(state, tool_calls, **call)
                except Exception as error:
                    if state.output is not before and not state.output.choices:
                        raise no_choices(str(model), model.api.base_url) from error
                    raise
                if state.output is not before and not state.output.choices:
                    del state.messages[messages:]  # whatever this turn added to an empty answer
                    raise no_choices(str(model), model.api.base_url)
                return state
        raise AssertionError("unreachable: the last attempt returns or raises")

    return step


@solver
def generate_step(tool_calls: Literal["loop", "single", "none"] = "loop", **kwargs: Any) -> Solver:
    """Inspect's ``generate()`` solver, with malformed answers retried (:func:`retrying`)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await retrying(generate)(state, tool_calls, **kwargs)

    return solve
