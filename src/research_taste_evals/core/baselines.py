"""The offline ``baseline/<name>`` model provider: the papers' trivial baselines.

Every task runs with no API key against one of these, and the demo reports their honest
numbers. A benchmark adds its own baseline in its own folder with :func:`register_baseline`;
this module holds only the mechanism. Outputs carry token usage, so Inspect never tries to
download a tokenizer to count tokens (which fails offline).

The recognition probe (``core/recognition.py``) reaches baselines too: a baseline answers it
"I do not recognise this paper." (a rule knows no paper) unless it was registered with its own
``recall`` responder (a baseline meant to know papers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.recognition import NOT_RECOGNISED, is_probe_prompt

BaselineResponder = Callable[[list[ChatMessage]], str]
PROVIDER_NAME = "baseline"


@dataclass(frozen=True)
class Baseline:
    name: str
    description: str
    respond: BaselineResponder
    # How the baseline answers the recognition probe (None: it recognises nothing).
    recall: BaselineResponder | None = None


_BASELINES: dict[str, Baseline] = {}


def register_baseline(
    name: str, description: str, recall: BaselineResponder | None = None
) -> Callable[[BaselineResponder], Baseline]:
    """Register ``respond`` as the model ``baseline/<name>``.

    Args:
        name: The model name after ``baseline/``.
        description: One line shown by ``research-taste list`` and in errors.
        recall: How it answers the recognition probe (default: it recognises nothing).
    """

    def wrap(respond: BaselineResponder) -> Baseline:
        if name in _BASELINES:
            raise ValueError(f"baseline '{name}' is registered twice")
        registered = Baseline(name=name, description=description, respond=respond, recall=recall)
        _BASELINES[name] = registered
        return registered

    return wrap


def registered_baselines() -> dict[str, Baseline]:
    """All registered baselines by name."""
    return dict(_BASELINES)


def word_count(text: str) -> int:
    return len(text.split())


class BaselineModelAPI(ModelAPI):
    """Answers with a registered baseline's rule; no network, deterministic."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (Inspect's ModelAPI signature)
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_name not in _BASELINES:
            known = ", ".join(f"baseline/{n}" for n in sorted(_BASELINES)) or "none"
            raise ConfigError(
                f"unknown baseline model 'baseline/{model_name}': give --model one of {known} "
                "(research-taste list describes them)"
            )
        self.baseline = _BASELINES[model_name]

    def respond(self, input: list[ChatMessage]) -> str:
        """The baseline's answer; the recognition probe gets its ``recall`` answer."""
        if input and is_probe_prompt(input[-1].text):
            recall = self.baseline.recall
            return recall(input) if recall else NOT_RECOGNISED
        return self.baseline.respond(input)

    def max_connections(self) -> int:
        return 64

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        text = self.respond(input)
        output = ModelOutput.from_content(model=f"{PROVIDER_NAME}/{self.model_name}", content=text)
        prompt_words = sum(word_count(message.text) for message in input)
        output.usage = ModelUsage(
            input_tokens=prompt_words,
            output_tokens=word_count(text),
            total_tokens=prompt_words + word_count(text),
        )
        return output
