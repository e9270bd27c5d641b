"""How much does the harness add to model latency? Every demo task under a fixed-latency model.

Each task of ``research-taste demo`` runs on its demo data with its offline baseline answering
after a fixed delay per call (``fixed-latency/<baseline name>``, roles too), with connections
enough for one wave. A one-sample warm-up eval runs first, untimed: Inspect imports the
provider SDKs it finds installed (``openai``, ``anthropic``) at the first sample of a process,
a cost of Inspect and of the venv, not of any task. Then each task runs ``cold`` (its first
run in the process: the package's first-use work, e.g. a lazily imported library or a model
loaded, is in it) and ``warm`` (the same task again, ``--repeat`` times, medians: the per-call
cost alone). For each task the script prints:

- ``run``: seconds from building the task to the written log (start-up included), cold run;
- ``samples``: seconds from the first sample's start to the last sample's end, warm runs;
- ``critical``: the ideal critical path, the longest chain of sequential model calls in any
  sample (calls that overlap in time ran concurrently and count once) times the latency;
- ``cold`` / ``warm``: samples / critical of each run (1.0 would be a harness that adds
  nothing per call; issue #24's budget: 1.5, the grader check aside);
- ``floor``: the same ratio for Inspect alone on the task's shape: a task with the same sample
  inputs whose solver makes the same calls per sample (``critical / latency`` sequential waves
  of concurrent calls) to the same fixed-latency model, and nothing else. The difference
  ``warm - floor`` is what the package adds; the floor is what Inspect's per-sample and
  per-call bookkeeping costs on this machine (it grows with the samples in one wave);
- ``calls`` and ``cpu/call``: model calls, and this process's CPU milliseconds per call over
  the warm evals (the package's and Inspect's work: the model only sleeps), and in brackets
  over the floor's evals (Inspect's alone: the model's answers are the floor's only other work).

``--json FILE`` also writes the figures with the machine they were measured on (CPUs, load
average, versions); ``bench/performance_readme.py`` turns that file into the README's
"Performance" section. Prints figures; asserts nothing (tests never assert wall-clock times).

Run: ``python bench/harness_overhead.py`` (``--latency 0.5``; ``--task eqinfer`` to pick tasks;
``--json bench/results/harness_overhead.json``)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
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
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver
from inspect_ai.tool import ToolChoice, ToolInfo

if TYPE_CHECKING:
    from research_taste_evals.core.demo import DemoRun

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


@dataclass(frozen=True)
class Measured:
    """One task's figures (see the module docstring)."""

    task: str
    run_s: float
    samples_s: float
    critical_s: float
    cold: float
    warm: float
    floor: float
    calls: int
    cpu_per_call_ms: float
    floor_cpu_per_call_ms: float
    status: str


def _eval(task: Task, model: str, roles: dict[str, str], latency: float, log_dir: str) -> EvalLog:
    config = GenerateConfig(max_connections=1024)
    [log] = inspect_eval(
        task,
        model=_as_fixed_latency(model),
        model_args={"latency": latency},
        model_roles={
            role: get_model(_as_fixed_latency(name), config=config, latency=latency)
            for role, name in roles.items()
        }
        or None,
        log_dir=log_dir,
        display="none",
        max_connections=1024,
        max_samples=1024,
    )
    return log


def warm_up(latency: float, log_dir: str) -> None:
    """One untimed one-sample eval: Inspect's first-sample imports happen here."""
    task = Task(dataset=[Sample(input="warm-up")], solver=generate())
    _eval(task, "baseline/all-positive", {}, latency, log_dir)


@solver
def _calls_only(waves: int, width: int) -> Solver:
    """``waves`` sequential rounds of ``width`` concurrent calls to the task's model."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        for _ in range(waves):
            await asyncio.gather(*(model.generate(state.input) for _ in range(width)))
        return state

    return solve


def floor_task(task: Task, calls: int, waves: int) -> Task:
    """Inspect alone on ``task``'s shape: its sample inputs, its calls, no package code."""
    samples = [Sample(input=sample.input, id=sample.id) for sample in task.dataset]
    width = max(1, math.ceil(calls / max(1, len(samples) * waves)))
    return Task(dataset=samples, solver=_calls_only(waves, width))


def _per_call_ms(cpu_seconds: list[float], calls: int) -> float:
    return 1000 * statistics.median(cpu_seconds) / calls if calls else float("nan")


def _ratio(span: float, critical: float) -> float:
    return span / critical if critical else float("nan")


def measure_task(
    run: DemoRun, data_dir: Path, latency: float, log_dir: str, repeat: int
) -> Measured:
    """The cold run, then the medians of ``repeat`` warm runs and Inspect-alone floors."""
    started = time.perf_counter()
    cold_log = _eval(run.build(data_dir), run.model, run.model_roles, latency, log_dir)
    elapsed = time.perf_counter() - started
    cold_span, cold_critical, _ = measure(cold_log, latency)
    spans, cpus, floors, floor_cpus, statuses = [], [], [], [], {cold_log.status}
    for _ in range(repeat):
        task = run.build(data_dir)
        cpu_start = time.process_time()
        log = _eval(task, run.model, run.model_roles, latency, log_dir)
        cpus.append(time.process_time() - cpu_start)
        span, critical, calls = measure(log, latency)
        spans.append(span)
        statuses.add(log.status)
        floor = floor_task(task, calls, round(critical / latency))
        cpu_start = time.process_time()
        floor_log = _eval(floor, run.model, {}, latency, log_dir)
        floor_cpus.append(time.process_time() - cpu_start)
        floors.append(_ratio(*measure(floor_log, latency)[:2]))
    span = statistics.median(spans)
    return Measured(
        task=run.name,
        run_s=elapsed,
        samples_s=span,
        critical_s=critical,
        cold=_ratio(cold_span, cold_critical),
        warm=_ratio(span, critical),
        floor=statistics.median(floors),
        calls=calls,
        cpu_per_call_ms=_per_call_ms(cpus, calls),
        floor_cpu_per_call_ms=_per_call_ms(floor_cpus, calls),
        status="/".join(sorted(statuses)),
    )


def machine(latency: float) -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "latency_s": latency,
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "inspect_ai": version("inspect_ai"),
        "date": datetime.now().strftime("%Y-%m-%d"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=DEFAULT_LATENCY)
    parser.add_argument("--task", action="append", help="run only these demo tasks")
    parser.add_argument("--repeat", type=int, default=3, help="warm runs per task (median)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from research_taste.cli.demo import DEMO_RUNS

    runs = [run for run in DEMO_RUNS if not args.task or run.name in args.task]
    print(f"latency {args.latency:.2f} s per call, one wave (max_connections 1024)")
    header = f"{'task':<20} {'run s':>7} {'samples s':>9} {'critical s':>10} {'cold':>6}"
    print(f"{header} {'warm':>6} {'floor':>6} {'calls':>6} cpu/call ms (floor)")
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        log_dir = str(Path(scratch) / "logs")
        warm_up(args.latency, log_dir)
        for run in runs:
            m = measure_task(run, Path(scratch) / "demo-data", args.latency, log_dir, args.repeat)
            results.append(m)
            print(
                f"{m.task:<20} {m.run_s:>7.2f} {m.samples_s:>9.2f} {m.critical_s:>10.2f} "
                f"{m.cold:>6.2f} {m.warm:>6.2f} {m.floor:>6.2f} {m.calls:>6} "
                f"{m.cpu_per_call_ms:>11.1f} ({m.floor_cpu_per_call_ms:.1f})"
                + ("" if m.status == "success" else f"  ({m.status})")
            )
    figures = {"machine": machine(args.latency), "tasks": [asdict(m) for m in results]}
    print(f"measured on: {json.dumps(figures['machine'])}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
