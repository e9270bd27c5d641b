"""This package's own view of a model: its errors redacted and empty completions refused.

Every ``model.generate`` the package makes itself (graders, judges, critics, extractors, the
recognition probe) runs through :func:`package_view`: a new :class:`PackageModel` over a
:class:`PackageAPI` that delegates every call to the model's own provider object (``ModelAPI``:
same client, same connection) and, in ``generate``,

- redacts every error before Inspect records it (a provider or proxy may echo the key in its
  error body: core/redaction.py), including the key the model was configured with
  (``-M api_key=``, a role's ``api_key``), which has no recognisable shape;
- raises :class:`MalformedResponseError` for a completion without choices, so Inspect records
  the failed attempt with its error and caches nothing for it (core/transient.py retries it).

Both classes are public Inspect extension points (``ModelAPI`` is what providers subclass;
``Model(api, config, model_args)`` is its documented constructor). Nothing of the shared
``Model`` or its provider object is changed, so another task calling them sees Inspect's own
behaviour. A view is made per call (it holds no client of its own, so it is cheap).

:class:`PackageAPI` overrides every public method of ``ModelAPI`` (a test pins the list, so
a method a new Inspect adds fails a test rather than silently taking the base behaviour), and
reads any other attribute (the provider's registry name, which ``str(model)`` uses) from the
provider object.
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlparse

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelAPI,
    ModelCall,
    ModelOutput,
    RetryDecision,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from research_taste_evals.core.redaction import redact, redact_error, redact_value


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


def no_choices(model: Model) -> MalformedResponseError:
    """The error for a completion of ``model`` without choices."""
    host = urlparse(model.api.base_url or "").netloc
    return MalformedResponseError("a completion without choices", str(model).split("/")[0], host)


class PackageAPI(ModelAPI):
    """A provider object that delegates to ``inner`` and redacts what its calls return."""

    def __init__(self, inner: ModelAPI, secrets: tuple[str, ...] = ()) -> None:
        self.inner = inner
        self.secrets = tuple(s for s in (*secrets, inner.api_key) if s)
        super().__init__(inner.model_name, inner.base_url, inner.api_key, [], GenerateConfig())

    @property
    def qualified_model_name(self) -> str | None:  # type: ignore[override]  # read: the provider's
        return self.inner.qualified_model_name

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes ModelAPI does not define (e.g. the provider's registry
        # name, which str(model) reads): the provider object's.
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> Any:
        try:
            result = await self.inner.generate(input, tools, tool_choice, config)
        except Exception as error:
            redact_error(error, self.secrets)  # before Inspect records it
            raise
        result = self._redacted(result)
        output = result[0] if isinstance(result, tuple) else result
        if isinstance(output, ModelOutput) and not output.choices:
            raise MalformedResponseError(
                "a completion without choices",
                str(self.qualified_model_name or "").split("/")[0],
                urlparse(self.base_url or "").netloc,
            )
        return result

    def _redacted(self, result: Any) -> Any:
        """``result`` with an error a provider returned instead of raising redacted (and the
        response recorded with it): new objects, the provider's are left as they are."""
        output = result[0] if isinstance(result, tuple) else result
        if isinstance(output, BaseException):
            redact_error(output, self.secrets)  # the SDK's exception, not yet seen by Inspect
        elif not (isinstance(output, ModelOutput) and output.error):
            return result  # a completion: its text is the model's answer, left as it is
        else:
            output = output.model_copy(update={"error": redact(output.error, self.secrets)})
        if not isinstance(result, tuple):
            return output
        call = result[1] if len(result) > 1 else None
        if isinstance(call, ModelCall) and call.response is not None:
            response = redact_value(call.response, self.secrets)
            call = call.model_copy(update={"response": response})
        return (output, call, *result[2:])

    # Everything else is the provider's own behaviour.
    def initialize(self) -> None:
        self.inner.initialize()

    async def refresh_credentials(self) -> None:
        await self.inner.refresh_credentials()

    async def aclose(self) -> None:
        """Nothing to close: the client is the shared provider object's."""

    def close(self) -> None:
        """Nothing to close: the client is the shared provider object's."""

    def canonical_name(self) -> str:
        return self.inner.canonical_name()

    def service_model_name(self) -> str:
        return self.inner.service_model_name()

    def input_tokens_name(self) -> str:
        return self.inner.input_tokens_name()

    def model_family(self) -> str:
        return self.inner.model_family()

    def cache_write_ttl(self) -> str | None:
        return self.inner.cache_write_ttl()

    def served_model_usage(self, output: ModelOutput) -> Any:
        return self.inner.served_model_usage(output)

    async def count_tokens(self, input: Any, config: GenerateConfig | None = None) -> int:
        return await self.inner.count_tokens(input, config)

    async def count_text_tokens(self, text: str) -> int:
        return await self.inner.count_text_tokens(text)

    async def count_media_tokens(self, media: Any) -> int:
        return await self.inner.count_media_tokens(media)

    async def tokenize(self, text: str) -> list[int]:
        return await self.inner.tokenize(text)

    def max_tokens(self) -> int | None:
        return self.inner.max_tokens()

    def max_tokens_for_config(self, config: GenerateConfig) -> int | None:
        return self.inner.max_tokens_for_config(config)

    def max_connections(self) -> int:
        return self.inner.max_connections()

    def connection_key(self) -> str:
        # Inspect prefixes this with the view's class name; the provider's keeps pools apart.
        return f"{type(self.inner).__name__}:{self.inner.connection_key()}"

    def should_retry(self, ex: Exception) -> bool | RetryDecision:
        return self.inner.should_retry(ex)

    def retry_wait(self) -> Any:
        return self.inner.retry_wait()

    def is_auth_failure(self, ex: Exception) -> bool:
        return self.inner.is_auth_failure(ex)

    def collapse_user_messages(self) -> bool:
        return self.inner.collapse_user_messages()

    def collapse_assistant_messages(self) -> bool:
        return self.inner.collapse_assistant_messages()

    def collapse_system_messages(self) -> bool:
        return self.inner.collapse_system_messages()

    def tools_required(self) -> bool:
        return self.inner.tools_required()

    def supports_remote_mcp(self) -> bool:
        return self.inner.supports_remote_mcp()

    def tool_result_images(self) -> bool:
        return self.inner.tool_result_images()

    def tool_result_documents(self) -> bool:
        return self.inner.tool_result_documents()

    def disable_computer_screenshot_truncation(self) -> bool:
        return self.inner.disable_computer_screenshot_truncation()

    def force_reasoning_history(self) -> Literal["none", "all", "last"] | None:
        return self.inner.force_reasoning_history()

    def auto_reasoning_history(self) -> Literal["none", "all", "last"]:
        return self.inner.auto_reasoning_history()

    def compact_reasoning_history(self) -> bool:
        return self.inner.compact_reasoning_history()

    async def compact(self, *args: Any, **kwargs: Any) -> Any:
        return await self.inner.compact(*args, **kwargs)


class PackageModel(Model):
    """A ``Model`` over a :class:`PackageAPI`, playing the role of the model it views (so its
    model events and usage are the role's, e.g. ``grader``)."""

    def __init__(self, model: Model) -> None:
        super().__init__(PackageAPI(model.api), model.config, model.model_args)
        self.viewed = model

    @property
    def role(self) -> str | None:
        return self.viewed.role

    @property
    def explicit_base_url(self) -> str | None:
        return self.viewed.explicit_base_url


def package_view(model: Model) -> Model:
    """This package's own view of ``model`` (see the module docstring). Anything that is not
    an Inspect ``Model`` (a test's stand-in) and a view itself are returned as they are."""
    if not isinstance(model, Model) or isinstance(model, PackageModel):
        return model
    return PackageModel(model)
