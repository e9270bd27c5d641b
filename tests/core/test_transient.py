"""Malformed 200 answers survived at the package's calls (Inspect's own retries through the
package's view of a model, core/transient.py; a loop for the evaluated model's turns),
errors redacted before Inspect records them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
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
from tenacity import RetryError, wait_none

from research_taste_evals.core import transient
from research_taste_evals.core.redaction import REDACTED
from research_taste_evals.core.transient import (
    RETRY_SOURCE,
    MalformedResponseError,
    generate_retrying,
    generate_step,
)

KEY = "sk-unit-SECRET-0123456789abcdef"


class ScriptedAPI(ModelAPI):
    """Answers each call with the next scripted step: an output, or an exception to raise
    (or the last step again once the script is used up)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (Inspect's signature)
        steps: list[Any] | None = None,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        self.steps: list[Any] = list(steps or [])
        self.calls = 0

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        self.calls += 1
        step = self.steps[min(self.calls, len(self.steps)) - 1]
        if isinstance(step, BaseException):
            raise step
        return step

    def retry_wait(self) -> Any:
        return wait_none()  # Inspect's retries without its backoff sleep (not under test here)


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


@pytest.fixture(autouse=True)
def _no_backoff(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The turns' retries without the backoff sleep (tenacity's, not under test here)."""
    monkeypatch.setattr(transient, "MALFORMED_WAIT", lambda state: 0.0)
    yield


def _generate(model: Model, max_retries: int | None = None) -> ModelOutput:
    config = GenerateConfig(max_retries=max_retries)
    try:
        return asyncio.run(generate_retrying(model, "question", config=config))
    except RetryError as retries:  # Inspect's retries ran out: its last attempt's error
        raise retries.last_attempt.exception() from None  # type: ignore[misc]


def test_empty_non_json_and_choiceless_answers_are_retried_until_a_real_one() -> None:
    model, api = _model(
        [json.JSONDecodeError("Expecting value", "", 0), _no_choices(), _answer("the answer")]
    )
    assert _generate(model).completion == "the answer"
    assert api.calls == 3


def test_a_model_that_never_answers_properly_fails_after_max_retries() -> None:
    model, api = _model([_no_choices()])
    with pytest.raises(MalformedResponseError, match="without choices"):
        _generate(model, max_retries=1)
    assert api.calls == 2


def test_other_errors_are_not_retried() -> None:
    model, api = _model([ValueError("a bug, not a bad body"), _answer("never reached")])
    with pytest.raises(ValueError, match="a bug"):
        _generate(model)
    assert api.calls == 1


def test_an_echoed_key_is_redacted_from_the_provider_error() -> None:
    model, _ = _model([RuntimeError(f"401: bad key; got Authorization: Bearer {KEY}")])
    with pytest.raises(RuntimeError) as caught:
        _generate(model, max_retries=0)
    assert KEY not in str(caught.value) and REDACTED in str(caught.value)


def test_the_shared_model_and_its_provider_are_left_as_they_are() -> None:
    """The package calls through its own view; the model others call still answers as Inspect
    does (an output without choices is returned, nothing is redacted or retried)."""
    model, api = _model([_no_choices(), _answer("the answer"), _no_choices()])
    assert _generate(model).completion == "the answer"
    assert type(model.api) is ScriptedAPI and "generate" not in vars(api)
    assert asyncio.run(model.generate("question")).choices == []
    assert api.calls == 3


@modelapi(name="transient-turns")
def _turns() -> type[ModelAPI]:
    return TurnsAPI


class TurnsAPI(ModelAPI):
    """Per prompt: the first answer has no choices, the second is not JSON, then it answers."""

    calls: dict[str, int] = {}

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        prompt = input[-1].text
        TurnsAPI.calls[prompt] = TurnsAPI.calls.get(prompt, 0) + 1
        if TurnsAPI.calls[prompt] == 1:
            return _no_choices()
        if TurnsAPI.calls[prompt] == 2:
            raise json.JSONDecodeError("Expecting value", "<html>", 0)
        return _answer(f"answer to {prompt}")


@pytest.mark.parametrize("cache", [False, True])
def test_a_turn_through_inspect_generate_is_run_again_cleanly(
    cache: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failed turns stay in the transcript; the conversation has one answer. With the
    cache on, Inspect cached the empty output: the retried turn has its own cache scope."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    TurnsAPI.calls.clear()
    prompt = f"turn question (cache={cache})"
    task = Task(dataset=[Sample(input=prompt)], solver=generate_step(cache=cache))
    (log,) = eval(task, model="transient-turns/m", log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success" and log.samples, log.error
    sample = log.samples[0]
    assert sample.error is None
    assert [m.role for m in sample.messages] == ["user", "assistant"]
    assert sample.output.completion == f"answer to {prompt}"
    events = [e for e in sample.events if e.event == "model"]
    assert len(events) == 3 and TurnsAPI.calls[prompt] == 3
    assert events[0].output.choices == [] and events[1].error is not None
    retries = [e for e in sample.events if e.event == "info" and e.source == RETRY_SOURCE]
    assert len(retries) == 2, retries  # each retry says why, in the transcript
