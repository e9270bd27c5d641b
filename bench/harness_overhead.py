"""How much does the harness add to model latency? Every demo task under a fixed-latency model.

Each task of ``research-taste demo`` runs on its demo data with its offline baseline answering
after a fixed delay per call (``fixed-latency/<baseline name>``, roles too), with connections
enough for one wave. For each task the script prints:

- ``run``: seconds from building the task to the written log (start-up included);
- ``samples``: seconds from the first sample's start to the last sample's end;
- ``critical``: the ideal critical path, the longest chain of sequential model calls in any
  sample (calls that overlap in time ran concurrently and count once) times the latency;
- ``ratio``: samples / critical (1.0 would be a harness that adds nothing per call);
- ``calls`` and ``cpu/call``: model calls, and this process's CPU seconds per call while the
  samples ran and were scored (the package's and Inspect's work: the model only sleeps).

Prints figures; asserts nothing (tests never assert wall-clock times).

Run: ``python bench/harness_overhead.py`` (``--latency 0.5``; ``--task eqinfer`` to pick tasks)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

DEFAULT_LATENCY = 0.5  # seconds per model call, as in the measurement
PROVIDER = "fixed-latency"


class FixedLatencyAPI(ModelAPI):
    """The offline baseline of the same name, answering after a fixed delay."""

    def __init__(self, model_name: str, latency: float = DEFAULT_LATENCY, **kwargs: Any) -> None:
        from research_taste_evals.core.baselines import BaselineModelAPI

        super().__init__(model_name=model_name)
        self.latency = latency
        self.baseline = BaselineModelAPI(model_name)

    def max_connections(self) -> int:
        return 1024

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        await asyncio.sleep(self.latency)
        output = await self.baseline.generate(input, tools, tool_choice, config)
        assert isinstance(output, ModelOutput)
        return output


@modelapi(name=PROVIDER)
def fixed_latency() -> type[ModelAPI]:
    return FixedLatencyAPI


def _as_fixed_latency(model: str) -> str:
    return f"{PROVIDER}/{model.removeprefix('baseline/')}"


def sequential_depth(events: list[ModelEvent]) -> int:
    """The longest chain of model calls each starting after the previous one ended."""
    spans = sorted(
        (event.completed, event.timestamp) for event in events if event.completed is not None
    )
    depth, last_end = 0, None
    for end, start in spans:  # earliest-ending first: the classic interval-scheduling greedy
        if last_end is None or start >= last_end:
            depth, last_end = depth + 1, end
    return depth


def _seconds(start: str, end: str) -> float:
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def measure(log: EvalLog, latency: float) -> tuple[float, float, int]:
    """(samples' span in seconds, critical-path seconds, model calls) of one eval log.

    The span runs from the first sample's start to the last sample's end: the time the samples
    took, without task construction and log writing (which the ``run`` column includes).
    """
    samples = log.samples or []
    span = _seconds(
        min(str(sample.started_at) for sample in samples),
        max(str(sample.completed_at) for sample in samples),
    )
    depth, calls = 0, 0
    for sample in samples:
        model_events = [event for event in sample.events if isinstance(event, ModelEvent)]
        calls += len(model_events)
        depth = max(depth, sequential_depth(model_events))
    return span, depth * latency, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=DEFAULT_LATENCY)
    parser.add_argument("--task", action="append", help="run only these demo tasks")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from research_taste_evals.cli.demo import DEMO_RUNS

    runs = [run for run in DEMO_RUNS if not args.task or run.name in args.task]
    latency, config = args.latency, GenerateConfig(max_connections=1024)
    print(f"latency {args.latency:.2f} s per call, one wave (max_connections 1024)")
    header = f"{'task':<20} {'run s':>7} {'samples s':>9} {'critical s':>10} {'ratio':>6}"
    print(f"{header} {'calls':>6} cpu/call ms")
    with tempfile.TemporaryDirectory() as scratch:
        data_dir = Path(scratch) / "demo-data"
        for run in runs:
            started = time.perf_counter()
            task = run.build(data_dir)
            cpu_start = time.process_time()
            [log] = inspect_eval(
                task,
                model=_as_fixed_latency(run.model),
                model_args={"latency": latency},
                model_roles={
                    role: get_model(_as_fixed_latency(model), config=config, latency=latency)
                    for role, model in run.model_roles.items()
                }
                or None,
                log_dir=str(Path(scratch) / "logs"),
                display="none",
                max_connections=1024,
                max_samples=1024,
            )
            cpu, elapsed = time.process_time() - cpu_start, time.perf_counter() - started
            span, critical, calls = measure(log, args.latency)
            ratio = span / critical if critical else float("nan")
            per_call = 1000 * cpu / calls if calls else float("nan")
            print(
                f"{run.name:<20} {elapsed:>7.2f} {span:>9.2f} {critical:>10.2f} {ratio:>6.2f} "
                f"{calls:>6} "
                f"{per_call:>11.1f}" + ("" if log.status == "success" else f"  ({log.status})")
            )


if __name__ == "__main__":
    main()
