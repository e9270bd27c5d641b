"""core/transient.py: malformed 200 responses become retried transient errors, errors redacted."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from research_taste_evals.core.failures import unwrap_error
from research_taste_evals.core.redaction import REDACTED
from research_taste_evals.core.transient import MalformedResponseError, harden

KEY = "sk-unit-SECRET-0123456789abcdef"


class ScriptedAPI(ModelAPI):
    """Answers each call with the next scripted step: an output, or an exception to raise."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (Inspect's signature)
        steps: list[Any] | None = None,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        self.steps: Iterator[Any] = iter(steps or [])
        self.calls = 0

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        self.calls += 1
        step = next(self.steps)
        if isinstance(step, BaseException):
            raise step
        return step


@modelapi(name="transient-scripted")
def _scripted() -> type[ModelAPI]:
    return ScriptedAPI


def _model(steps: list[Any]) -> tuple[Model, ScriptedAPI]:
    model = get_model("transient-scripted/m", memoize=False, steps=steps)
    assert isinstance(model.api, ScriptedAPI)
    return model, model.api


def _answer(text: str) -> ModelOutput:
    output = ModelOutput.from_content(model="scripted", content=text)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def _no_choices() -> ModelOutput:
    return ModelOutput(model="scripted", choices=[], usage=ModelUsage(total_tokens=1))


def _generate(model: Model, max_retries: int | None = None) -> ModelOutput:
    config = GenerateConfig(max_retries=max_retries)
    return asyncio.run(harden(model).generate("question", config=config))


def test_empty_non_json_and_choiceless_answers_are_retried_until_a_real_one() -> None:
    model, api = _model(
        [json.JSONDecodeError("Expecting value", "", 0), _no_choices(), _answer("the answer")]
    )
    assert _generate(model).completion == "the answer"
    assert api.calls == 3


def test_a_model_that_never_answers_properly_fails_after_max_retries() -> None:
    model, api = _model([_no_choices()] * 3)
    with pytest.raises(Exception) as caught:  # noqa: PT011 (Inspect wraps it in a RetryError)
        _generate(model, max_retries=1)
    error = unwrap_error(caught.value)
    assert isinstance(error, MalformedResponseError) and "without choices" in str(error)
    assert api.calls == 2


def test_hardening_twice_wraps_once_and_other_errors_are_not_retried() -> None:
    model, api = _model([ValueError("a bug, not a bad body"), _answer("never reached")])
    harden(model)
    with pytest.raises(ValueError, match="a bug"):
        _generate(model)
    assert api.calls == 1


def test_an_echoed_key_is_redacted_from_the_provider_error() -> None:
    model, _ = _model([RuntimeError(f"401: bad key; got Authorization: Bearer {KEY}")])
    with pytest.raises(RuntimeError) as caught:
        _generate(model, max_retries=0)
    assert KEY not in str(caught.value) and REDACTED in str(caught.value)
