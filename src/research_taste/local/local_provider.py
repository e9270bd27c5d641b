"""``local/<name>``: Inspect's own ``hf`` provider on a packaged GGUF model (``local-llm`` extra).

:class:`LocalChatAPI` wraps the model API of Inspect's ``hf`` provider (built through the
public ``get_model("hf/...")``) loading the converted folder of a model named in
:mod:`research_taste.local.local_llm`, with three additions a CPU run needs:

- **Context overflow is an answer, not a crash.** Inspect's ``hf`` provider passes any prompt
  to ``generate`` (a prompt past the context gives garbage, or exhausts memory). Here a prompt
  that leaves no room in the context returns, without a model call, the output Inspect's API
  providers return for a context overflow: ``stop_reason="model_length"``, empty text, and the
  reason in ``error`` (prompt tokens, context), so the task counts it like any unparsed or
  failed answer and the log says why.
- **Bounded answers.** ``max_new_tokens`` (default 128) caps each answer, and the answer never
  runs past the context; an answer cut there ends with ``stop_reason="max_tokens"``.
- **Reproducible by default**: greedy decoding (``do_sample=False``) unless set otherwise.
- **The decoding it uses is the one recorded.** A task's generate config (AAAR's temperature
  1, top-p 0.99, 200 tokens) is what the log's plan shows, but a greedy local model ignores
  temperature and top-p and answers in at most ``max_new_tokens``. Each call therefore sends
  Inspect's ``hf`` provider only what it uses (no temperature/top-p/top-k when greedy, the
  capped ``max_tokens``) and returns the request as its model call (the ``API`` view of each
  model event) and as ``output.metadata["decoding"]``: ``do_sample``, ``max_new_tokens``.

Model arguments (``-M name=value``): ``context_length`` (tokens of prompt + answer; default
the model's entry in ``LOCAL_MODELS``), ``max_new_tokens``, ``threads`` (torch CPU threads),
and any argument of Inspect's ``hf`` provider.
"""

from __future__ import annotations

import os
from typing import Any

import torch
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelCall,
    ModelOutput,
    get_model,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from research_taste.local.local_llm import converted_folder, local_model

DEFAULT_MAX_NEW_TOKENS = 128  # a CPU budget: a 135M model rarely says more that parses


def context_overflow_message(prompt_tokens: int, context_length: int) -> str:
    return (
        f"context overflow: the prompt has {prompt_tokens} tokens, the model's context is "
        f"{context_length} tokens (prompt + answer); not sent to the model"
    )


class LocalChatAPI(ModelAPI):
    """Inspect's ``hf`` provider on a packaged model, with a context check (see module doc)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        packaged = local_model(model_name)
        self.context_length = int(model_args.pop("context_length", packaged.context_length))
        self.max_new_tokens = int(model_args.pop("max_new_tokens", DEFAULT_MAX_NEW_TOKENS))
        if self.context_length < 1 or self.max_new_tokens < 1:
            raise ValueError("context_length and max_new_tokens must be positive")
        threads = model_args.pop("threads", None)
        if threads is not None:
            torch.set_num_threads(int(threads))
        model_args.setdefault("do_sample", False)
        self.do_sample = bool(model_args["do_sample"])
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # everything comes from the package
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        # Inspect's own hf provider, reached through the public registry: its API does the work.
        self.hf: Any = get_model(
            f"hf/{model_name}",
            config=config or GenerateConfig(),
            memoize=False,
            model_path=str(converted_folder(model_name)),
            **model_args,
        ).api

    def max_tokens(self) -> int | None:
        """The answer budget when a task sets none: ``max_new_tokens``, the cap every call
        keeps to (Inspect records it in each call's config), not the hf provider's default."""
        return self.max_new_tokens

    def max_connections(self) -> int:
        return int(self.hf.max_connections())

    def collapse_user_messages(self) -> bool:
        return bool(self.hf.collapse_user_messages())

    def close(self) -> None:
        self.hf.close()

    def prompt_tokens(self, input: list[ChatMessage], tools: list[ToolInfo]) -> int:
        """Tokens of the prompt exactly as ``generate`` would send it (chat template applied)."""
        chat = self.hf.hf_chat(input, tools)
        return len(self.hf.tokenizer(chat, **(self.hf.tokenizer_call_args or {}))["input_ids"])

    def decoding(self, config: GenerateConfig, max_new_tokens: int) -> dict[str, Any]:
        """The decoding a call really uses: greedy drops the sampling settings it ignores."""
        used: dict[str, Any] = {"do_sample": self.do_sample, "max_new_tokens": max_new_tokens}
        if self.do_sample:
            sampling = {"temperature": config.temperature, "top_p": config.top_p}
            used.update({k: v for k, v in {**sampling, "top_k": config.top_k}.items() if v})
        return used

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> tuple[ModelOutput, ModelCall]:
        prompt_tokens = self.prompt_tokens(input, tools)
        room = self.context_length - prompt_tokens
        if room <= 0:
            overflow = ModelOutput.from_content(
                self.model_name,
                "",
                stop_reason="model_length",
                error=context_overflow_message(prompt_tokens, self.context_length),
            )
            request = {"prompt_tokens": prompt_tokens, "sent": False}
            return overflow, ModelCall.create(request, {"error": overflow.error})
        wanted = min(config.max_tokens or self.max_new_tokens, self.max_new_tokens, room)
        used = self.decoding(config, wanted)
        sent = config.model_copy(update={"max_tokens": wanted})
        if not self.do_sample:
            sent = sent.model_copy(update={"temperature": None, "top_p": None, "top_k": None})
        output: ModelOutput = await self.hf.generate(input, tools, tool_choice, sent)
        if output.usage is not None and output.usage.output_tokens >= wanted:
            output.choices[0].stop_reason = "max_tokens" if wanted < room else "model_length"
        output.metadata = {**(output.metadata or {}), "decoding": used}
        request = {"prompt_tokens": prompt_tokens, **used}
        response = {"completion": output.completion, "stop_reason": output.stop_reason}
        return output, ModelCall.create(request, response)
