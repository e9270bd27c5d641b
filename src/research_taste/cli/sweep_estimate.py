"""``research-taste sweep --dry-run``: per run, samples, model calls, tokens and cost, estimated.

For each planned run the task is built on its arguments (so ``task_ids``, ``split``, ``tiers``
and the like have filtered its dataset) and:

- **samples**: the dataset's size, capped by the sweep's ``limit``, times ``epochs``;
- **calls**: samples x (the evaluated model's calls per sample + each role member's), read from
  the family ``eval.yaml`` (``metadata.extras.tasks.<task>.model_calls_per_sample``; a
  recognition probe's calls are either folded into these, as TastyBench's 1.05, or declared per
  distinct item and counted by :func:`probe_calls`);
- **input tokens**: the evaluated model's first prompt of each sample as the task's solver chain
  renders it (system message, template, sample text; the probe off, :data:`PROBE_ARGUMENT`):
  the first :data:`RENDER_LIMIT` samples are run with Inspect's ``mockllm`` model, unscored,
  and each first prompt counted with
  :func:`estimate_tokens` (tests/test_cli_estimate.py checks it within 20% of a real
  tokenizer's count of a demo run's prompts). Re-asks and the prompts of role calls (graders,
  critics) are not included: they depend on the answers;
- **output ceiling**: calls x the task's answer budget (``max_tokens`` of its GenerateConfig);
  "no cap" when the task sets none;
- **cost**: with a price per million input/output tokens for the model, from the sweep file's
  ``prices:`` or Inspect's model cost data (``set_model_cost``, ``--model-cost-config``; Inspect
  ships no prices): input tokens x input price + output ceiling x output price (an upper bound
  on the output side).
"""

from __future__ import annotations

import inspect
import logging
import math
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, resolve_sample_attachments
from inspect_ai.model import get_model_info

from research_taste.cli.sweep import PlannedRun, construct, each_warning_once, plan
from research_taste.cli.sweep_load import tasks_by_name
from research_taste.cli.sweep_schema import Price, SweepConfig

# Samples whose first prompt is rendered per run; the rest are estimated at their mean.
RENDER_LIMIT = 50
# Subword tokenizers (BPE, WordPiece) keep a common word whole and split a long one into pieces
# of about this many letters; digits and punctuation are a token each.
LETTERS_PER_PIECE = 8
_PIECES = re.compile(r"[^\W\d_]+|\d|[^\w\s]|_")
# The model that "answers" while prompts are rendered: Inspect's offline mock.
RENDER_MODEL = "mockllm/model"
# The task argument that turns a task's recognition probe off: prompts are rendered without it,
# so each sample's first prompt is the task's own question (the probe's calls are counted apart).
PROBE_ARGUMENT = "recall_probe"


@dataclass(frozen=True)
class RunEstimate:
    """The estimate of one planned run."""

    run: PlannedRun
    samples: int
    calls: float
    probe_calls: int
    input_tokens: int | None
    output_ceiling: int | None
    cost: float | None

    def line(self) -> str:
        roles = " ".join(
            f"{role}={'+'.join(m) if isinstance(m, list) else m}"
            for role, m in sorted(self.run.model_roles.items())
        )
        args = " ".join(f"{k}={v}" for k, v in sorted(self.run.args.items()))
        cost = "?" if self.cost is None else f"${self.cost:,.2f}"
        return (
            f"{self.run.model:<32} {self.run.task:<20} {args or '-'} {roles}".rstrip()
            + f"  samples={self.samples}  ~calls={round(self.calls)}"
            + (f" (probe {self.probe_calls})" if self.probe_calls else "")
            + f"  ~in_tokens={_count(self.input_tokens)}"
            + f"  out_tokens<={_count(self.output_ceiling, 'no cap')}  cost={cost}"
        )


def _count(value: int | None, missing: str = "?") -> str:
    return missing if value is None else f"{value:,}"


def task_figures(task: str) -> dict[str, Any]:
    """The family ``eval.yaml``'s ``metadata.extras.tasks.<task>`` mapping."""
    from research_taste.reporting.families import family_eval_yamls

    for data in family_eval_yamls().values():
        extras = ((data.get("metadata") or {}).get("extras") or {}).get("tasks") or {}
        if task in extras:
            return dict(extras[task])
    return {}


def calls_per_sample(run: PlannedRun) -> float:
    """Model calls per sample: the evaluated model's plus each role member's (eval.yaml)."""
    declared = task_figures(run.task).get("model_calls_per_sample") or {}
    calls = float(declared.get("model", 1.0))
    for role, members in run.model_roles.items():
        calls += float(declared.get(role, 0.0)) * (len(members) if isinstance(members, list) else 1)
    return calls


def probe_calls(run: PlannedRun, task: Task) -> int:
    """Calls of a task's recognition probe: one per distinct item.

    The family ``eval.yaml`` declares it under ``metadata.extras.tasks.<task>``:
    ``probe_items: [metadata key, ...]`` names the sample metadata fields that hold an item
    (a paper, an idea), and ``probe_calls_per_item`` (default 1) the calls per distinct item;
    a task that declares no ``probe_items`` has no probe (0). A run that turns the probe off
    with a task argument named in ``probe_off`` (e.g. ``{recognition_probe: false}``) has none.
    """
    figures = task_figures(run.task)
    keys = figures.get("probe_items") or []
    off = figures.get("probe_off") or {}
    if not keys or any(run.args.get(name) == value for name, value in off.items()):
        return 0
    items = {
        str(sample.metadata[key])
        for sample in task.dataset
        for key in keys
        if sample.metadata and sample.metadata.get(key) is not None
    }
    return len(items) * int(figures.get("probe_calls_per_item", 1))


def estimate_tokens(text: str) -> int:
    """Tokens of ``text`` in a subword tokenizer, estimated: a run of letters is one token per
    started :data:`LETTERS_PER_PIECE` letters, a digit or a punctuation mark one token."""
    return sum(
        1 + (len(piece) - 1) // LETTERS_PER_PIECE if piece[0].isalpha() else 1
        for piece in _PIECES.findall(text)
    )


def first_prompt_tokens(task: Task, roles: Sequence[str], limit: int) -> list[int]:
    """Estimated tokens of the evaluated model's first prompt in each of the first ``limit``
    samples, as the task's solvers render it (run with :data:`RENDER_MODEL`, every role bound
    to it too, unscored, logs in a scratch folder)."""
    # The tasks' run-time warnings would be about the mock model (e.g. its knowledge cutoff).
    package = logging.getLogger("research_taste_evals")
    level = package.level
    package.setLevel(logging.ERROR)
    try:
        return _render(task, roles, limit)
    finally:
        package.setLevel(level)


def _render(task: Task, roles: Sequence[str], limit: int) -> list[int]:
    with tempfile.TemporaryDirectory() as scratch:
        log = inspect_eval(
            task,
            model=RENDER_MODEL,
            model_roles=dict.fromkeys(roles, RENDER_MODEL) or None,
            limit=limit,
            score=False,
            display="none",
            log_dir=scratch,
            fail_on_error=False,
        )[0]
        return _first_prompts(log)  # samples load lazily from the scratch folder


def _first_prompts(log: EvalLog) -> list[int]:
    sizes = []
    for stored in log.samples or []:
        sample = resolve_sample_attachments(stored)  # long texts are stored as attachments
        first = next(
            (e for e in sample.events if isinstance(e, ModelEvent) and e.role is None), None
        )
        if first is not None:
            sizes.append(sum(estimate_tokens(message.text) for message in first.input))
    return sizes


def _without_probe(run: PlannedRun) -> Task | None:
    """The run's task built with its recognition probe off, or None when it has none."""
    parameters = inspect.signature(inspect.unwrap(tasks_by_name()[run.task])).parameters
    if PROBE_ARGUMENT not in parameters or run.args.get(PROBE_ARGUMENT) is False:
        return None
    return construct(replace(run, args={**run.args, PROBE_ARGUMENT: False}))


def price_of(model: str, config: SweepConfig) -> Price | None:
    """The sweep file's price for ``model``, else Inspect's model cost data, else None."""
    if model in config.prices:
        return config.prices[model]
    info = get_model_info(model)
    if info is None or info.cost is None:
        return None
    return Price(input=info.cost.input, output=info.cost.output)


def estimate(run: PlannedRun, config: SweepConfig, rendered: dict[str, list[int]]) -> RunEstimate:
    """The estimate of one run; ``rendered`` caches prompt sizes per (task, arguments)."""
    task = construct(run)
    size = len(task.dataset)
    limited = min(size, config.limit) if config.limit else size
    samples = limited * (config.epochs or 1)
    probe = probe_calls(run, task)
    calls = samples * calls_per_sample(run) + probe
    key = f"{run.task} {sorted(run.args.items())}"
    if key not in rendered:
        shown = _without_probe(run) or task
        rendered[key] = first_prompt_tokens(
            shown, list(run.model_roles), min(limited, RENDER_LIMIT)
        )
    tokens = rendered[key]
    input_tokens = math.ceil(sum(tokens) / len(tokens) * samples) if tokens else None
    max_tokens = task.config.max_tokens
    per_sample_calls = task_figures(run.task).get("model_calls_per_sample") or {}
    model_calls = samples * float(per_sample_calls.get("model", 1.0))
    output_ceiling = None if max_tokens is None else math.ceil(model_calls * max_tokens)
    price = price_of(run.model, config)
    cost = None
    if price is not None and input_tokens is not None and output_ceiling is not None:
        cost = (input_tokens * price.input + output_ceiling * price.output) / 1_000_000
    return RunEstimate(run, samples, calls, probe, input_tokens, output_ceiling, cost)


def dry_run_text(config: SweepConfig, shard: tuple[int, int] | None = None) -> str:
    """The planned grid with each run's estimate, and the totals."""
    rendered: dict[str, list[int]] = {}
    with each_warning_once():
        estimates = [estimate(run, config, rendered) for run in plan(config, shard)]
    lines = [f"log_dir: {config.log_dir}", *(e.line() for e in estimates)]
    calls = sum(e.calls for e in estimates)
    tokens = sum(e.input_tokens or 0 for e in estimates)
    costs = [e.cost for e in estimates]
    total_cost = (
        f"about ${sum(c for c in costs if c is not None):,.2f}"
        + ("" if all(c is not None for c in costs) else " for the runs with prices")
        if any(c is not None for c in costs)
        else "no prices (give 'prices:' in the sweep file)"
    )
    lines.append(
        f"{len(estimates)} runs, about {round(calls)} model calls, ~{tokens:,} input tokens "
        f"(first prompts), cost {total_cost}"
    )
    return "\n".join(lines)
