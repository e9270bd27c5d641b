"""A 200 response with no usable body is a transient failure, retried by Inspect like a 5xx;
every provider error is redacted (core/redaction.py) before Inspect records it.

A provider (or a proxy in front of it) sometimes answers HTTP 200 with an empty body, a body
that is not JSON (an HTML error page, a truncated stream) or a completion with ``choices: []``.
Inspect's providers retry HTTP 429/5xx and connection errors but not these: the SDK's
``JSONDecodeError`` ends the call, and an output with no choices reaches the caller, where it
reads as an empty (unparsed) answer or raises ``IndexError`` on ``output.message``.

One mechanism covers every call the package makes (evaluated model, critics, extractors,
graders, judges): :func:`harden` wraps a model's provider instance (``model.api``, shared by
every copy of the model, e.g. one bound to a role) so that

- a body that cannot be parsed, or a completion without choices, raises
  :class:`MalformedResponseError` inside Inspect's retry loop, and
- that error is classified as a transient retry (``RetryDecision.transient``), so Inspect
  retries it after a short backoff (:data:`MALFORMED_WAIT`), bounded by ``--max-retries`` and
  ``--timeout`` (by :data:`DEFAULT_MAX_MALFORMED_RETRIES` when neither is given). Each failed
  attempt is a model event with its error in the transcript, nothing is cached for it, and the
  retry is counted by Inspect like an HTTP 5xx retry.

:class:`TransientResponses` (an Inspect hook) hardens the evaluated model and every model role
when a task of this package starts, for ``inspect eval`` and ``research-taste sweep`` alike;
:mod:`research_taste_evals.core.grading` hardens each grader it is given (a grader may be named
explicitly, outside the roles).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import urlparse

from inspect_ai.hooks import Hooks, TaskStart, hooks
from inspect_ai.model import (
    Model,
    ModelCall,
    ModelOutput,
    RetryDecision,
    get_model,
    model_roles,
)
from tenacity import RetryCallState, wait_exponential_jitter

from research_taste_evals.core.redaction import (
    install_log_filter,
    redact,
    redact_error,
    redact_value,
)

PACKAGE_PREFIX = "research_taste_evals/"
# Retries of one call whose every answer is malformed, when the run sets neither --max-retries
# nor --timeout (Inspect's own default would retry forever, with backoff up to 30 minutes).
DEFAULT_MAX_MALFORMED_RETRIES = 10
# Backoff before retrying a malformed answer: a proxy hiccup, not a rate limit, so it starts
# short like the OpenAI SDK's own retries (0.5 s doubling to 8 s), not at Inspect's 3 s.
MALFORMED_WAIT = wait_exponential_jitter(multiplier=0.5, max=8, jitter=0.5)
# Inspect's own backoff for every other retryable error (inspect_ai/model/_retry.py).
INSPECT_WAIT = wait_exponential_jitter(multiplier=3, max=30 * 60, jitter=3)
_HARDENED = "_research_taste_hardened"
# Error type names (any SDK) raised when a 200 body is not the JSON the SDK expects.
_MALFORMED_TYPE_NAMES = frozenset({"JSONDecodeError", "APIResponseValidationError"})


class MalformedResponseError(Exception):
    """A 200 response whose body is empty, not JSON, or a completion without choices.

    Carries what :func:`research_taste_evals.core.failures.describe_error` names: the provider,
    its host and the HTTP status (200).
    """

    status_code = 200

    def __init__(
        self, message: str, attempt: int, bounded: bool, provider: str = "", host: str = ""
    ) -> None:
        super().__init__(message)
        self.attempt = attempt  # consecutive malformed answers to this call so far
        self.bounded = bounded  # the run bounds retries itself (--max-retries or --timeout)
        self.provider = provider
        self.host = host


def is_malformed_body_error(error: BaseException) -> bool:
    """True for an SDK error meaning "the 200 body is not a parseable response"."""
    return isinstance(error, json.JSONDecodeError) or any(
        cls.__name__ in _MALFORMED_TYPE_NAMES for cls in type(error).__mro__
    )


def _output_of(result: Any) -> Any:
    return result[0] if isinstance(result, tuple) else result


class _Streaks:
    """Consecutive malformed answers per call in flight (keyed by the call's input list, the
    same object on every attempt of one ``Model.generate``), to bound unbounded retries."""

    def __init__(self) -> None:
        self._counts: dict[int, int] = {}

    def failed(self, key: int) -> int:
        self._counts[key] = self._counts.get(key, 0) + 1
        return self._counts[key]

    def done(self, key: int) -> None:
        self._counts.pop(key, None)


def _redact_result(result: Any) -> None:
    """Redact an error a provider returned instead of raising (and its recorded response)."""
    output = _output_of(result)
    if isinstance(output, BaseException):
        redact_error(output)
    elif not (isinstance(output, ModelOutput) and output.error):
        return  # a completion: its text is the model's answer, left as it is
    else:
        output.error = redact(output.error)
    call = result[1] if isinstance(result, tuple) and len(result) > 1 else None
    if isinstance(call, ModelCall) and call.response is not None:
        call.response = redact_value(call.response)


def harden(model: Model) -> Model:
    """Make ``model``'s malformed 200 responses transient errors Inspect retries (idempotent).

    Anything that is not an Inspect ``Model`` (a test's stand-in judge) has no provider API to
    harden and is returned as it is.
    """
    if not isinstance(model, Model):
        return model
    api = model.api
    if getattr(api, _HARDENED, False):
        return model
    inner_generate: Callable[..., Coroutine[Any, Any, Any]] = api.generate
    inner_should_retry = api.should_retry
    other_wait = api.retry_wait() or INSPECT_WAIT
    streaks = _Streaks()
    provider = str(model).split("/")[0]
    host = urlparse(api.base_url or "").netloc

    def malformed(message: str, key: int, bounded: bool) -> MalformedResponseError:
        return MalformedResponseError(message, streaks.failed(key), bounded, provider, host)

    async def generate(input: Any, tools: Any, tool_choice: Any, config: Any) -> Any:
        key = id(input)
        bounded = config.max_retries is not None or config.timeout is not None
        try:
            result = await inner_generate(
                input=input, tools=tools, tool_choice=tool_choice, config=config
            )
        except Exception as error:
            redact_error(error)  # before Inspect logs it: a provider may echo the key
            if not is_malformed_body_error(error):
                streaks.done(key)
                raise
            raise malformed(
                f"unreadable body ({type(error).__name__}: {error})", key, bounded
            ) from error
        output = _output_of(result)
        _redact_result(result)
        if isinstance(output, ModelOutput) and not output.choices:
            raise malformed("a completion without choices", key, bounded)
        streaks.done(key)
        return result

    def should_retry(error: Exception) -> bool | RetryDecision:
        if isinstance(error, MalformedResponseError):
            if error.bounded or error.attempt <= DEFAULT_MAX_MALFORMED_RETRIES:
                return RetryDecision.transient()
            return RetryDecision.no()
        return inner_should_retry(error)

    def wait(state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome else None
        if isinstance(error, MalformedResponseError):
            return float(MALFORMED_WAIT(state))
        return float(other_wait(state))

    # Instance attributes shadow the provider's methods for this instance only.
    api.generate = generate  # type: ignore[method-assign]
    api.should_retry = should_retry  # type: ignore[method-assign,assignment]
    api.retry_wait = lambda: wait  # type: ignore[method-assign]
    setattr(api, _HARDENED, True)
    return model


def harden_task_models() -> None:
    """Harden the active model and every model bound to a role (call inside a task)."""
    harden(get_model())
    for bound in model_roles().values():
        for member in bound if isinstance(bound, list) else [bound]:
            harden(member)


@hooks(
    name="research_taste_transient_responses",
    description="Retries malformed 200 responses (empty, non-JSON, no choices) as transient.",
)
class TransientResponses(Hooks):
    """At the start of each task of this package, harden its models (see :func:`harden`)."""

    async def on_task_start(self, data: TaskStart) -> None:
        if data.spec.task.startswith(PACKAGE_PREFIX):
            install_log_filter()
            harden_task_models()
