"""The package's view of a model: errors redacted, malformed 200s retried by Inspect's own
retries (replaced by: Inspect redacting recorded errors and retrying a 200 that is no completion).

The same provider object (client, attributes) seen through a subclass of its class overriding
two ``ModelAPI`` methods: ``generate`` redacts errors before Inspect records them and raises
:class:`MalformedResponseError` for ``choices: []`` (so nothing is cached), ``should_retry``
also accepts malformed bodies (empty, not JSON). The shared ``Model`` is left as it is.
"""

from __future__ import annotations

import functools
import json
from typing import Any
from urllib.parse import urlparse

from inspect_ai.model import Model, ModelAPI, ModelCall, RetryDecision

from research_taste_evals.core.redaction import redact, redact_error, redact_value


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

    return (
        json.JSONDecodeError,
        openai.APIResponseValidationError,
        anthropic.APIResponseValidationError,
        MalformedResponseError,
    )


def no_choices(model_name: str, base_url: str | None) -> MalformedResponseError:
    host = urlparse(base_url or "").netloc
    return MalformedResponseError("a completion without choices", model_name.split("/")[0], host)


@functools.cache
def _view_class(provider: type[ModelAPI]) -> type[ModelAPI]:
    """``provider`` with errors redacted and malformed bodies retried (one class a provider)."""

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
                call = call.model_copy(update={"response": redact_value(call.response, secrets)})
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
    """A ``Model`` over the view of ``model``'s provider, playing ``model``'s role."""

    def __init__(self, model: Model) -> None:
        api = model.api
        view = object.__new__(_view_class(type(api)))
        view.__dict__ = api.__dict__  # the same provider object, seen through the subclass
        super().__init__(view, model.config, model.model_args)
        self.viewed = model

    @property
    def role(self) -> str | None:
        return self.viewed.role

    @property
    def explicit_base_url(self) -> str | None:
        return self.viewed.explicit_base_url


def package_view(model: Model) -> Model:
    """The package's view of ``model``; a stand-in that is no ``Model`` and a view as they are."""
    if not isinstance(model, Model) or isinstance(model, PackageModel):
        return model
    return PackageModel(model)
