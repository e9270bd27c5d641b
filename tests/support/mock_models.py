"""The test suite's one family of scripted mock models: every output carries usage (offline-safe).

- :func:`scripted_model`: Inspect's ``mockllm`` answering each request with ``respond(messages)``;
- :func:`counting_model`: the same, answering by call number and counting calls;
- :func:`failing_model`: a provider that is down (every call raises);
- :func:`in_flight_model`: counts how many calls run at the same time, to check concurrency
  without measuring time.

Outputs without ``usage`` make Inspect download a tokenizer to count tokens, which fails offline;
:func:`model_output` builds one with usage.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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

from research_taste_evals.core.recognition import NOT_RECOGNISED, is_probe_prompt

MOCK_MODEL = "mockllm/model"
# An in-flight model stops waiting for the others after this long (a sequential caller would
# otherwise wait forever); the test then sees fewer calls in flight than expected and fails.
IN_FLIGHT_GATE_TIMEOUT_SECONDS = 5.0


def model_output(content: str, **fields: Any) -> ModelOutput:
    """A mock ``ModelOutput`` with token usage; ``fields`` go to ``ModelOutput.from_content``."""
    output = ModelOutput.from_content(model=MOCK_MODEL, content=content, **fields)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def scripted_outputs(
    respond: Callable[[list[ChatMessage]], str | ModelOutput],
) -> Callable[..., ModelOutput]:
    """``mockllm``'s ``custom_outputs`` answering with ``respond(messages)`` (outputs carry
    usage): for a model named in ``eval(model="mockllm/model", model_args=...)``, which Inspect
    makes with the run's config."""

    def output(
        messages: list[ChatMessage],
        tools: list[ToolInfo],
        choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        answer = respond(messages)
        if isinstance(answer, str):
            return model_output(answer)
        if answer.usage is None:
            answer.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return answer

    return output


def answering_probes(
    respond: Callable[[list[ChatMessage]], str | ModelOutput],
) -> Callable[[list[ChatMessage]], str | ModelOutput]:
    """``respond``, with every recognition probe (``core.recognition``) answered "not
    recognised": a probe that fails now fails its sample, so a scripted judge that reads only
    its task's prompt answers the probe too."""

    def respond_or_decline(messages: list[ChatMessage]) -> str | ModelOutput:
        if is_probe_prompt(messages[-1].text):
            return NOT_RECOGNISED
        return respond(messages)

    return respond_or_decline


def scripted_model(respond: Callable[[list[ChatMessage]], str | ModelOutput]) -> Model:
    """A mock model answering each request with ``respond(messages)``; outputs carry usage.

    ``respond`` returns the answer text, or a whole ``ModelOutput`` (e.g. a refusal's stop
    reason), which gets usage if it has none.
    """
    return get_model(MOCK_MODEL, custom_outputs=scripted_outputs(respond))


def counting_model(answers: Callable[[int], str]) -> tuple[Model, list[int]]:
    """A mock model whose n-th call (0-based) answers ``answers(n)``; the list counts calls."""
    calls: list[int] = []

    def respond(messages: list[ChatMessage]) -> str:
        calls.append(len(calls))
        return answers(calls[-1])

    return scripted_model(respond), calls


class _FailingAPI(ModelAPI):
    """Raises on every call: a provider that is down."""

    def __init__(self, model_name: str, message: str = "provider is down", **kwargs: Any) -> None:
        super().__init__(model_name=model_name)
        self.message = message

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        raise RuntimeError(self.message)


@modelapi(name="test-failing")
def _failing_provider() -> type[ModelAPI]:
    return _FailingAPI


def failing_model(message: str = "provider is down") -> Model:
    """A model whose every call raises ``RuntimeError(message)``, with Inspect retries off."""
    return get_model(
        "test-failing/down", config=GenerateConfig(max_retries=0), memoize=False, message=message
    )


@dataclass
class InFlight:
    """Calls of an :func:`in_flight_model`: how many ran, and the most at one time."""

    expected: int
    calls: int = 0
    now: int = 0
    most: int = 0
    all_arrived: asyncio.Event = field(default_factory=asyncio.Event)


class _InFlightAPI(ModelAPI):
    """Answers after every expected call has started (or the gate times out)."""

    def __init__(self, model_name: str, answer: str, counter: InFlight, **kwargs: Any) -> None:
        super().__init__(model_name=model_name)
        self.answer = answer
        self.counter = counter

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        counter = self.counter
        counter.calls += 1
        counter.now += 1
        counter.most = max(counter.most, counter.now)
        if counter.now >= counter.expected:
            counter.all_arrived.set()
        try:
            await asyncio.wait_for(counter.all_arrived.wait(), IN_FLIGHT_GATE_TIMEOUT_SECONDS)
        except TimeoutError:
            pass  # sequential calls never all arrive: answer anyway, ``most`` tells the story
        finally:
            counter.now -= 1
        return model_output(self.answer)


def in_flight_model(answer: str, expected: int) -> tuple[Model, InFlight]:
    """A model that holds each call until ``expected`` calls are in flight at once.

    Concurrent callers release each other as soon as the last one arrives; a sequential caller
    waits out a gate timeout per call. Assert on ``InFlight.most`` (the most calls in flight at
    one time), never on elapsed time. Create it inside the event loop that will call it.
    """
    counter = InFlight(expected)
    config = GenerateConfig(max_connections=max(expected, 1), max_retries=0)
    model = get_model(
        "test-in-flight/model", config=config, memoize=False, answer=answer, counter=counter
    )
    return model, counter


@modelapi(name="test-in-flight")
def _in_flight_provider() -> type[ModelAPI]:
    return _InFlightAPI
