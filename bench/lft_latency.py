"""How close does one LFT sample run to its critical path? A simulated model, no network.

A model with a fixed latency per call (``asyncio.sleep``) answers the task, critiques, revises
and grades (a valid JSON grade). One ``lft`` sample with ``followup="critique"`` (one round) and
a 10-member grader panel makes 13 calls, but only 4 are sequential: answer -> critique ->
revision -> panel (the 10 graders run concurrently). The critical path is therefore
4 x latency; the script prints the sample's wall time (Inspect's ``total_time``) and its ratio
to that. Target (issue 4): ratio <= 1.3. Prints figures; asserts nothing.

Run: ``python bench/lft_latency.py`` (``--latency 0.5`` or ``--repeats 20`` to vary it)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from typing import Any

from inspect_ai import eval as inspect_eval
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

from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.prompts import CRITIC_SYSTEM, LFT_GRADER_OUTPUT

DEFAULT_LATENCY = 0.2  # seconds per simulated model call
DEFAULT_REPEATS = 10  # grader panel size (AISI: 10)
SEQUENTIAL_TURNS = 4  # answer, critique, revision, grader panel (concurrent)
TARGET_RATIO = 1.3
TASK_ID = "petunia-plastid"
GRADE_MARKER = LFT_GRADER_OUTPUT.splitlines()[0]  # "# Output": only grading prompts have it
CALLS: list[str] = []


class FixedLatencyAPI(ModelAPI):
    """Sleeps a fixed time, then answers by the kind of request; no network."""

    latency = DEFAULT_LATENCY

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())

    def max_connections(self) -> int:
        return 64  # never the bottleneck: the panel must be able to run all at once

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        await asyncio.sleep(self.latency)
        if any(m.role == "system" and m.text == CRITIC_SYSTEM for m in input):
            kind, text = "critique", "The plan lacks selection and confirmation steps."
        elif GRADE_MARKER in input[-1].text:
            grade = {"level": 5, "criteria_met": [], "rationale": "simulated"}
            kind, text = "grade", "Stepping through.\n```json\n" + json.dumps(grade) + "\n```"
        else:
            kind, text = "answer", "Step 1. Identify EPSPS. Step 2. Transform the plastid genome."
        CALLS.append(kind)
        output = ModelOutput.from_content(model=f"latency-sim/{self.model_name}", content=text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


@modelapi(name="latency-sim")
def latency_sim() -> type[ModelAPI]:
    return FixedLatencyAPI


def run_once(latency: float, repeats: int, log_dir: str) -> tuple[float, float]:
    """(sample total_time, eval wall time) for one sample."""
    FixedLatencyAPI.latency = latency
    CALLS.clear()
    start = time.perf_counter()
    log = inspect_eval(
        # One simulated model plays every part, the grader included.
        lft(
            task_ids=TASK_ID,
            followup="critique",
            grader_repeats=repeats,
            allow_self_grading=True,
        ),
        model=get_model("latency-sim/fixed"),
        log_dir=log_dir,
        display="none",
    )[0]
    wall = time.perf_counter() - start
    if log.status != "success" or not log.samples:
        raise SystemExit(f"eval failed: {log.error}")
    total = log.samples[0].total_time
    if total is None:
        raise SystemExit("the log has no sample total_time")
    return total, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=DEFAULT_LATENCY)
    parser.add_argument("--repeats", type=int, default=DEFAULT_REPEATS)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    critical = SEQUENTIAL_TURNS * args.latency
    with tempfile.TemporaryDirectory(prefix="lft-latency-") as log_dir:
        run_once(args.latency, args.repeats, log_dir)  # warm-up: imports, registry, first log
        sample_time, wall = run_once(args.latency, args.repeats, log_dir)
    counts = {kind: CALLS.count(kind) for kind in ("answer", "critique", "grade")}
    print(f"latency per call        {args.latency:.3f} s")
    print(f"model calls             {len(CALLS)} {counts}")
    turns = f"{SEQUENTIAL_TURNS} turns x {args.latency:.3f} s"
    print(f"critical path           {turns} = {critical:.3f} s")
    print(f"sample wall time        {sample_time:.3f} s (eval() call {wall:.3f} s incl. setup/log)")
    print(f"ratio to critical path  {sample_time / critical:.3f} (target <= {TARGET_RATIO})")


if __name__ == "__main__":
    main()
