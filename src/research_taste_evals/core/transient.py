"""Malformed 200 responses are retried at this package's own model calls, and nowhere else.

A provider (or a proxy in front of it) sometimes answers HTTP 200 with an empty body, a body
that is not JSON (an HTML error page, a truncated stream) or a completion with ``choices: []``.
Inspect's providers retry HTTP 429/5xx and connection errors but not these: the SDK's
``json.JSONDecodeError`` (or ``APIResponseValidationError``) ends the call, and an output with
no choices reaches the caller, where it reads as an empty answer.

Nothing here changes Inspect or an object another task shares (one ``Model`` serves every task
of an eval): a foreign task's malformed answers are Inspect's business. Two entry points cover
every call the package makes:

- :func:`generate_retrying` for each ``model.generate`` of the package (graders, judges,
  critics, extractors, and the family solvers that call a model themselves). It calls the
  model through the package's own view of it (core/package_model.py), which redacts every
  error before Inspect records it and raises :class:`MalformedResponseError` for a completion
  without choices, so Inspect records the failed attempt and caches nothing for it.
- :func:`retrying` (and the :func:`generate_step` solver) for the evaluated model's turns
  through the ``generate`` Inspect hands a solver. A turn whose new ``state.output`` has no
  choices (checked explicitly, whether Inspect's ``generate`` then failed or returned) is run
  again; Inspect appends the assistant message only after a call succeeds, so a failed turn
  leaves ``state.messages`` as it was. Inspect cached the output without choices when caching
  is on, so the retry is given its own cache scope (or no cache when the run's ``--cache``
  was not passed here).

Both retry with a short backoff (:data:`MALFORMED_WAIT`), at most the run's ``max_retries``
times (the call's config, the model's, or the evaluated model's: ``--max-retries``), else
:data:`DEFAULT_MAX_MALFORMED_RETRIES` times. Every failed attempt is a model event in the
transcript, followed by an info event saying why it is retried.
"""

from __future__ import annotations

import contextlib
import functools
import json
from typing import Any, Literal

from inspect_ai.log import transcript
from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

from research_taste_evals.core.failures import describe_error, unwrap_error
from research_taste_evals.core.package_model import (
    MalformedResponseError,
    no_choices,
    package_view,
)

# Retries of one call whose every answer is malformed, when the run does not set max_retries
# (Inspect's own default for HTTP errors is to retry forever).
DEFAULT_MAX_MALFORMED_RETRIES = 10
# A proxy hiccup, not a rate limit: start short like the OpenAI SDK's own retries (0.5 s
# doubling to 8 s, with jitter), not at Inspect's 3 s.
MALFORMED_WAIT = wait_exponential_jitter(multiplier=0.5, max=8, jitter=0.5)
# The transcript's info event before each retry names this source.
RETRY_SOURCE = "malformed response retry"
# The cache scope of a retried turn (Inspect cached the output without choices it replaces).
RETRY_SCOPE_KEY = "malformed_retry"


@functools.cache
def malformed_errors() -> tuple[type[BaseException], ...]:
    """The SDKs' public errors for a 200 body that is not the JSON they expect (the package's
    providers: OpenAI-compatible and Anthropic), the standard library's for text that is not
    JSON, and ours for a completion without choices. The SDKs are imported on first use."""
    import anthropic
    import openai

    return (
        json.JSONDecodeError,
        openai.APIResponseValidationError,
        anthropic.APIResponseValidationError,
        MalformedResponseError,
    )


__all__ = ["MalformedResponseError", "generate_retrying", "generate_step", "retrying"]


def is_malformed(error: BaseException) -> bool:
    """True for an error meaning "the 200 body is not a usable response"."""
    return isinstance(unwrap_error(error), malformed_errors())


def max_malformed_retries(model: Model | None, config: GenerateConfig | None = None) -> int:
    """The run's retry bound: the call's ``max_retries``, the model's, the evaluated model's
    (``--max-retries``), else :data:`DEFAULT_MAX_MALFORMED_RETRIES`."""
    configs = [config, getattr(model, "config", None)]
    with contextlib.suppress(ValueError):  # no evaluated model: a call outside an eval
        configs.append(get_model().config)
    for candidate in configs:
        if candidate is not None and candidate.max_retries is not None:
            return int(candidate.max_retries)
    return DEFAULT_MAX_MALFORMED_RETRIES


def _retrying(name: str, retries: int) -> AsyncRetrying:
    def log(state: RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome else None
        transcript().info(
            f"{name}: malformed response ({describe_error(error) if error else '?'}), "
            f"retry {state.attempt_number} of {retries} in {state.upcoming_sleep:.1f} s",
            source=RETRY_SOURCE,
        )

    return AsyncRetrying(
        retry=retry_if_exception(is_malformed),
        stop=stop_after_attempt(retries + 1),
        wait=MALFORMED_WAIT,
        before_sleep=log,
        reraise=True,
    )


async def generate_retrying(
    model: Model,
    input: str | list[ChatMessage],
    config: GenerateConfig | None = None,
    **kwargs: Any,
) -> ModelOutput:
    """``model.generate(input, config=config, **kwargs)``, retried while the answer is
    malformed (through :func:`package_view`); the last error is raised when retries run out."""
    view = package_view(model)
    if config is not None:
        kwargs["config"] = config
    output: ModelOutput | None = None
    async for attempt in _retrying(str(model), max_malformed_retries(model, config)):
        with attempt:
            output = await view.generate(input, **kwargs)
    assert output is not None
    return output


def _retry_cache(cache: bool | CachePolicy | None, attempt: int) -> bool | CachePolicy:
    """The cache of a retried turn: its own scope, so Inspect's cached empty output is not
    read back (no cache when the step was given none: the run's ``--cache`` is skipped)."""
    if not cache:
        return False
    policy = CachePolicy() if cache is True else cache
    return policy.model_copy(update={"scopes": {**policy.scopes, RETRY_SCOPE_KEY: str(attempt)}})


def _new_output_without_choices(state: TaskState, before: ModelOutput) -> bool:
    """Whether this turn set ``state.output`` to a completion without choices."""
    return state.output is not before and not state.output.choices


def retrying(generate: Generate) -> Generate:
    """``generate`` (the evaluated model's turn Inspect hands a solver), run again while the
    turn fails with a malformed answer; the last error is raised when retries run out."""

    async def step(
        state: TaskState, tool_calls: Literal["loop", "single", "none"] = "loop", **kwargs: Any
    ) -> TaskState:
        model = get_model()
        config = GenerateConfig(max_retries=kwargs.get("max_retries"))
        async for attempt in _retrying(str(model), max_malformed_retries(model, config)):
            with attempt:
                number = attempt.retry_state.attempt_number
                call = (
                    kwargs
                    if number == 1
                    else {**kwargs, "cache": _retry_cache(kwargs.get("cache"), number)}
                )
                before, messages = state.output, len(state.messages)
                try:
                    state = await generate(state, tool_calls, **call)
                except Exception as error:
                    if _new_output_without_choices(state, before):
                        raise no_choices(model) from error
                    raise
                if _new_output_without_choices(state, before):
                    del state.messages[messages:]  # whatever this turn added to an empty answer
                    raise no_choices(model)
                return state
        raise AssertionError("unreachable: the last attempt returns or raises")

    return step


@solver
def generate_step(tool_calls: Literal["loop", "single", "none"] = "loop", **kwargs: Any) -> Solver:
    """Inspect's ``generate()`` solver, with malformed answers retried (:func:`retrying`)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await retrying(generate)(state, tool_calls, **kwargs)

    return solve
