"""Malformed 200 responses are retried at this package's own model calls, and nowhere else.

A provider (or a proxy in front of it) sometimes answers HTTP 200 with an empty body, a body
that is not JSON (an HTML error page, a truncated stream) or a completion with ``choices: []``.
Inspect's providers retry HTTP 429/5xx and connection errors but not these: the SDK's
``JSONDecodeError`` (or ``APIResponseValidationError``) ends the call, and an output with no
choices reaches the caller, where it reads as an empty answer or raises ``IndexError``.

Nothing here changes Inspect or an object another task shares (one ``Model`` serves every task
of an eval): a foreign task's malformed answers are Inspect's business. Two entry points cover
every call the package makes:

- :func:`generate_retrying` for each ``model.generate`` of the package (graders, judges,
  critics, extractors, and the family solvers that call a model themselves). It calls the
  model through a package-owned view (:func:`package_view`: shallow copies of the ``Model``
  and its provider object, sharing the provider's client) whose provider call redacts every
  error before Inspect records it (core/redaction.py) and turns a completion without choices
  into a :class:`MalformedResponseError`, so Inspect records the failed attempt with its error
  and caches nothing for it.
- :func:`retrying` (and the :func:`generate_step` solver) for the evaluated model's turns
  through the ``generate`` Inspect hands a solver. Inspect appends the assistant message only
  after a call succeeds, so a failed turn leaves ``state.messages`` as it was and the step is
  simply run again; Inspect cached an output without choices when caching is on, so the retry
  is given its own cache scope (or no cache when the run's ``--cache`` was not passed here).

Both retry with a short backoff (:data:`MALFORMED_WAIT`), at most the run's ``max_retries``
times (the call's config, the model's, or the evaluated model's: ``--max-retries``), else
:data:`DEFAULT_MAX_MALFORMED_RETRIES` times. Every failed attempt is a model event in the
transcript, followed by an info event saying why it is retried.
"""

from __future__ import annotations

import contextlib
import copy
import json
import weakref
from typing import Any, Literal
from urllib.parse import urlparse

from inspect_ai.log import transcript
from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    GenerateConfig,
    Model,
    ModelCall,
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
from research_taste_evals.core.redaction import redact, redact_error, redact_value

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
# Error type names (any SDK) raised when a 200 body is not the JSON the SDK expects.
_MALFORMED_TYPE_NAMES = frozenset({"JSONDecodeError", "APIResponseValidationError"})
_VIEW_MARK = "_research_taste_package_view"
_VIEWS: weakref.WeakKeyDictionary[Model, Model] = weakref.WeakKeyDictionary()


class MalformedResponseError(Exception):
    """A 200 response whose body is empty, not JSON, or a completion without choices.

    Carries what :func:`research_taste_evals.core.failures.describe_error` names: the provider,
    its host and the HTTP status (200).
    """

    status_code = 200

    def __init__(self, message: str, provider: str = "", host: str = "") -> None:
        super().__init__(message)
        self.provider = provider
        self.host = host


def is_malformed(error: BaseException) -> bool:
    """True for an error meaning "the 200 body is not a usable response"."""
    error = unwrap_error(error)
    return isinstance(error, MalformedResponseError | json.JSONDecodeError) or any(
        cls.__name__ in _MALFORMED_TYPE_NAMES for cls in type(error).__mro__
    )


def _where(model: Model) -> tuple[str, str]:
    """The provider name and host of ``model`` (for a failure record in words)."""
    return str(model).split("/")[0], urlparse(model.api.base_url or "").netloc


def _no_choices(model: Model) -> MalformedResponseError:
    return MalformedResponseError("a completion without choices", *_where(model))


def _redact_result(result: Any) -> None:
    """Redact an error a provider returned instead of raising (and its recorded response)."""
    output = result[0] if isinstance(result, tuple) else result
    if isinstance(output, BaseException):
        redact_error(output)
    elif not (isinstance(output, ModelOutput) and output.error):
        return  # a completion: its text is the model's answer, left as it is
    else:
        output.error = redact(output.error)
    call = result[1] if isinstance(result, tuple) and len(result) > 1 else None
    if isinstance(call, ModelCall) and call.response is not None:
        call.response = redact_value(call.response)


def package_view(model: Model) -> Model:
    """This package's own copy of ``model``: the same provider client, config and role, and a
    provider call that redacts every error and raises on a completion without choices.

    The shared ``Model`` and its provider object are left as they are (a foreign task calling
    them sees Inspect's behaviour). One view per model object; anything that is not an Inspect
    ``Model`` (a test's stand-in) is returned as it is.
    """
    if not isinstance(model, Model) or getattr(model, _VIEW_MARK, False):
        return model
    view = _VIEWS.get(model)
    if view is not None:
        return view
    inner = model.api.generate
    failure = _no_choices(model)

    async def generate(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:
        try:
            result = await inner(input=input, tools=tools, tool_choice=tool_choice, config=config)
        except Exception as error:
            redact_error(error)  # before Inspect records it: a provider may echo the key
            raise
        _redact_result(result)
        output = result[0] if isinstance(result, tuple) else result
        if isinstance(output, ModelOutput) and not output.choices:
            raise MalformedResponseError(str(failure), failure.provider, failure.host)
        return result

    api = copy.copy(model.api)
    api.generate = generate  # type: ignore[method-assign]  # this copy only
    view = copy.copy(model)
    view.api = api
    setattr(view, _VIEW_MARK, True)
    _VIEWS[model] = view
    return view


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
                before = state.output
                try:
                    return await generate(state, tool_calls, **call)
                except IndexError as error:  # Inspect reads output.message of an empty output
                    if state.output is before or not state.output.empty:
                        raise
                    raise _no_choices(model) from error
        raise AssertionError("unreachable: the last attempt returns or raises")

    return step


@solver
def generate_step(tool_calls: Literal["loop", "single", "none"] = "loop", **kwargs: Any) -> Solver:
    """Inspect's ``generate()`` solver, with malformed answers retried (:func:`retrying`)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await retrying(generate)(state, tool_calls, **kwargs)

    return solve
