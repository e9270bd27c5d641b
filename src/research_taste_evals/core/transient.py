"""Malformed 200s survived, errors redacted (CONTRIBUTING.md, "The runtime layer")."""

from __future__ import annotations

import functools
import json
from typing import Any, Literal
from urllib.parse import urlparse

from inspect_ai.log import transcript
from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    GenerateConfig,
    Model,
    ModelAPI,
    ModelCall,
    ModelOutput,
    RetryDecision,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from research_taste_evals.core.failure_text import describe_error
from research_taste_evals.core.redaction import redact, redact_error, unwrap_error

DEFAULT_MAX_MALFORMED_RETRIES = 10  # Inspect's own default (retry forever) is for HTTP errors
MALFORMED_WAIT = wait_exponential_jitter(multiplier=0.5, max=8, jitter=0.5)  # a proxy hiccup
RETRY_SOURCE = "malformed response retry"  # the info event's source


class MalformedResponseError(Exception):
    """A 200 completion without choices (provider, host, status for ``describe_error``)."""

    status_code = 200

    def __init__(self, message: str, provider: str = "", host: str = "") -> None:
        super().__init__(message)
        self.provider, self.host = provider, host


@functools.cache
def malformed_errors() -> tuple[type[BaseException], ...]:
    """The errors of a 200 body that is no usable response (SDKs imported on first use)."""
    import anthropic
    import openai

    api_errors = (openai.APIResponseValidationError, anthropic.APIResponseValidationError)
    return (json.JSONDecodeError, *api_errors, MalformedResponseError)


def no_choices(model_name: str, base_url: str | None) -> MalformedResponseError:
    host = urlparse(base_url or "").netloc
    return MalformedResponseError("a completion without choices", model_name.split("/")[0], host)


@functools.cache
def _view_class(provider: type[ModelAPI]) -> type[ModelAPI]:
    """``provider`` with errors redacted before Inspect records them and malformed bodies
    retried by Inspect's own retries (one class a provider)."""

    async def generate(self: ModelAPI, *args: Any, **kwargs: Any) -> Any:
        secrets = [self.api_key or ""]
        try:
            result = await provider.generate(self, *args, **kwargs)
        except Exception as error:
            redact_error(error, secrets)  # before Inspect records it
            raise
        output, call = (result[0], result[1]) if isinstance(result, tuple) else (result, None)
        if isinstance(output, BaseException):  # returned, not raised: it and its response
            redact_error(output, secrets)
            if isinstance(call, ModelCall) and call.response is not None:
                call = call.model_copy(update={"response": redact(call.response, secrets)})
            return output, call
        if output.error:
            output = output.model_copy(update={"error": redact(output.error, secrets)})
        if not output.choices:
            raise no_choices(str(self.qualified_model_name or ""), self.base_url)
        return (output, call) if isinstance(result, tuple) else output

    def should_retry(self: ModelAPI, ex: Exception) -> bool | RetryDecision:
        if isinstance(ex, malformed_errors()):
            return RetryDecision.transient()
        return provider.should_retry(self, ex)

    overrides = {"generate": generate, "should_retry": should_retry}
    return type(provider.__name__, (provider,), overrides)


class PackageModel(Model):
    """A ``Model`` over the view of ``model``'s provider (the same object), playing its role."""

    def __init__(self, model: Model) -> None:
        view = object.__new__(_view_class(type(model.api)))
        view.__dict__ = model.api.__dict__
        super().__init__(view, model.config, model.model_args)
        self.viewed = model

    role = property(lambda self: self.viewed.role)
    explicit_base_url = property(lambda self: self.viewed.explicit_base_url)


def package_view(model: Model) -> Model:
    """The package's view of ``model``; a stand-in that is no ``Model`` and a view as they are."""
    wrap = isinstance(model, Model) and not isinstance(model, PackageModel)
    return PackageModel(model) if wrap else model


async def generate_retrying(
    model: Model, input: str | list[ChatMessage], config: GenerateConfig | None = None, **kw: Any
) -> ModelOutput:
    """``model.generate`` through the package's view: Inspect retries malformed bodies too."""
    return await package_view(model).generate(input, config=config or GenerateConfig(), **kw)


def _retry_cache(cache: bool | CachePolicy | None, attempt: int) -> bool | CachePolicy:
    policy = CachePolicy() if cache is True else cache
    if not policy:
        return False
    return policy.model_copy(update={"scopes": {**policy.scopes, "malformed_retry": str(attempt)}})


def retrying(generate: Generate) -> Generate:
    """``generate`` (the evaluated model's turn, a shared unwrapped ``Model``), run again in its
    own cache scope while it fails on a malformed body, each retry an info event."""

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
                cache = {"cache": _retry_cache(kwargs.get("cache"), number)} if number > 1 else {}
                call = {**kwargs, **cache}
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
