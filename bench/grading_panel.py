"""How close does a grader panel run to one call's latency? A simulated grader, no network.

A panel of ``repeats`` members of one grader that answers after a fixed delay
(``asyncio.sleep``). Run concurrently, the panel takes about one delay; run one after another it
would take ``repeats`` delays. Prints the panel's wall time and its ratio to one delay (the
test suite checks concurrency by counting calls in flight, never by timing: this is the timing
figure). Prints figures; asserts nothing.

Run: ``python bench/grading_panel.py`` (``--delay 0.5`` or ``--repeats 20`` to vary it)
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from research_taste_evals.core.grading import run_panel

DEFAULT_DELAY = 0.2  # seconds per simulated grader call
DEFAULT_REPEATS = 10  # panel members


class FixedDelayAPI(ModelAPI):
    """Answers "1" after a fixed delay; no network."""

    def __init__(self, model_name: str, delay: float = DEFAULT_DELAY, **kwargs: Any) -> None:
        super().__init__(model_name=model_name)
        self.delay = delay

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        await asyncio.sleep(self.delay)
        output = ModelOutput.from_content(model=f"fixed-delay/{self.model_name}", content="1")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


@modelapi(name="fixed-delay")
def fixed_delay() -> type[ModelAPI]:
    return FixedDelayAPI


def parse_int(text: str) -> int:
    return int(text.strip())


async def timed_panel(delay: float, repeats: int) -> float:
    """Wall time of one panel of ``repeats`` members."""
    config = GenerateConfig(max_connections=repeats)
    grader = get_model("fixed-delay/grader", config=config, memoize=False, delay=delay)
    start = time.perf_counter()
    result = await run_panel("grade this", parse_int, [grader], repeats=repeats)
    elapsed = time.perf_counter() - start
    if len(result.valid) != repeats:
        raise SystemExit(f"panel failed: {result.failure_counts()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=DEFAULT_DELAY)
    parser.add_argument("--repeats", type=int, default=DEFAULT_REPEATS)
    args = parser.parse_args()
    asyncio.run(timed_panel(args.delay, args.repeats))  # warm-up: imports, registry
    elapsed = asyncio.run(timed_panel(args.delay, args.repeats))
    print(f"delay per call          {args.delay:.3f} s")
    print(f"panel members           {args.repeats}")
    print(f"sequential would take   {args.repeats * args.delay:.3f} s")
    print(f"panel wall time         {elapsed:.3f} s")
    print(f"ratio to one call       {elapsed / args.delay:.2f} (1.0 = fully concurrent)")


if __name__ == "__main__":
    main()
