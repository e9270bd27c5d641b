"""Real tasks against the fault server: demo data, scripted answer rules, runs and their figures.

Tasks are driven by registry name (``research_taste_evals/<task>``), never by importing task
modules, and the demo data writers are named in :data:`DEMO_WRITERS` only, so a module move in
the package is a one-line fix here.

Every answer is a pure function of (model name, prompt): a fault-free run and a faulty run of
the same task get the same answers for the same calls, so their metrics must be equal.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import inspect_ai
from fault_server import SERVICE, Faults, FaultServer, Message, Rule, ServerStats
from inspect_ai.log import EvalLog

from research_taste_evals.core.task_metric import log_results

EVALUATED = "evaluated"
GRADERS = ("grader-a", "grader-b", "grader-c")
JUDGE = "judge"
UNPARSEABLE = "I am not sure; both readings seem possible."
UNPARSEABLE_TOPIC = "plastid"  # the last grader cannot grade the petunia-plastid task
EXPDESIGN_MARKER = "### Your Experiment List:"
EMBEDDING_MODEL = "offline-minilm"  # the packaged MiniLM: expdesign scores offline
DEFAULT_SEED = 14
CACHE_VAR = "INSPECT_CACHE_DIR"
MODEL_MAX_RETRIES = 6  # Inspect's own retries per call (each after the client's two quick ones)
# How the fault tests run a task (docs/running.md): Inspect's cache on, and a sample failed by
# a malformed body run again, as many times as a sweep does by default.
SAMPLE_RETRIES = 20  # research_taste.cli.sweep_schema.DEFAULT_RETRY_ON_ERROR (checked there)
FAULT_EVAL_ARGS: dict[str, Any] = {"cache": True, "retry_on_error": SAMPLE_RETRIES}
LATENCY = 0.005  # seconds before every answer

# Every fault and resume figure line a test printed, shown again at the end of the session by
# tests/reliability/conftest.py (pytest captures prints of passing tests).
REPORT_LINES: list[str] = []


def report_lines(text: str) -> str:
    """Print ``text`` and keep it for the end-of-session summary; returns it for assertions."""
    print("\n" + text)
    REPORT_LINES.append(text)
    return text


def model_name(name: str) -> str:
    """The Inspect model string reaching the fault server as ``name``."""
    return f"openai-api/{SERVICE}/{name}"


def stable(*parts: str) -> int:
    """A stable integer of strings (Python's ``hash`` is salted per process)."""
    return int(hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:12], 16)


# Each demo's writer, ``module:function`` (imported when used).
DEMO_WRITERS = {
    "eqinfer": "research_taste_evals.aaar.demo:write_demo_eqinfer",
    "expdesign": "research_taste_evals.aaar.demo:write_demo_expdesign",
    "paper_weakness": "research_taste_evals.aaar.demo:write_demo_weakness",
    "paper_weakness_round": "research_taste_evals.aaar.demo:write_demo_weakness_round",
    "tastybench": "research_taste_evals.tastybench.demo:write_demo_tastybench",
    "tastybench_round": "research_taste_evals.tastybench.demo:write_demo_round",
    "reviewcritique": "research_taste_evals.reviewcritique.demo:write_demo_reviewcritique",
    "idea_pairs": "research_taste_evals.ideapairs.demo:write_demo_pairs",
    "scijudge": "research_taste_evals.scijudge.demo:write_demo",
}


def write_demo(family: str, folder: Path) -> Path:
    """Write a family's demo data under ``folder``; returns what its data argument takes."""
    if family not in DEMO_WRITERS:
        raise ValueError(f"no demo data for {family!r}")
    module, _, name = DEMO_WRITERS[family].partition(":")
    writer: Callable[[Path], Path] = getattr(importlib.import_module(module), name)
    return writer(folder)


def _eqinfer_rule(model: str, messages: list[Message]) -> str:
    return "1" if stable(model, messages[-1]["content"]) % 3 == 0 else "0"


def _tastybench_rule(model: str, messages: list[Message]) -> str:
    return f"Having weighed both, I recommend Project {1 + stable(messages[-1]['content']) % 2}."


def _extract_rule(model: str, messages: list[Message]) -> str:
    prompt = messages[-1]["content"]
    if stable(prompt) % 5 == 0:
        return "The abstract is too vague to say."  # no tags: counted as not extracted
    return f"<idea>Core idea {stable(prompt) % 1000}: train with a verifier.</idea>"


def _grader_rule(model: str, messages: list[Message]) -> str:
    level = stable(model, messages[-1]["content"]) % 11
    return f'Reasoning.\n```json\n{{"level": {level}, "criteria_met": [], "rationale": "r"}}\n```'


def _weakness_rule(model: str, messages: list[Message]) -> str:
    prompt = messages[-1]["content"]
    items = 1 + stable(prompt) % 3
    return "\n".join(f"{i}. weakness {stable(prompt, str(i)) % 89}" for i in range(1, items + 1))


def _idea_pairs_rule(model: str, messages: list[Message]) -> str:
    prompt = messages[-1]["content"]
    letter = "AB"[stable(prompt) % 2]
    confidence = 0.5 + (stable(prompt, "c") % 50) / 100
    return f"Idea {letter} fits the goal better.\nAnswer: {letter}\nConfidence: {confidence}"


def _scijudge_rule(model: str, messages: list[Message]) -> str:
    return f"<answer>{'AB'[stable(messages[-1]['content']) % 2]}</answer>"


def _lft_rule(model: str, messages: list[Message]) -> str:
    prompt = messages[-1]["content"]
    if model == EVALUATED:
        return f"<solution>Step 1: plan variant {stable(prompt) % 5}. Step 2: verify.</solution>"
    if model == GRADERS[-1] and UNPARSEABLE_TOPIC in prompt.lower():
        return UNPARSEABLE  # counted as an unparseable grade, never a 0
    level = stable(model, prompt) % 11
    return f'Reasoning.\n```json\n{{"level": {level}, "criteria_met": [], "rationale": "r"}}\n```'


def _expdesign_rule(model: str, messages: list[Message]) -> str:
    prompt = messages[-1]["content"]
    if model == JUDGE:
        roll = stable(prompt) % 6
        return UNPARSEABLE if roll == 0 else ("1" if roll % 2 else "0")
    if EXPDESIGN_MARKER in prompt:
        items = 2 + stable(prompt) % 2
        listed = "\n".join(f"{i}. experiment {stable(prompt, str(i)) % 97}" for i in range(1, 4))
        return "```\n" + "\n".join(listed.splitlines()[:items]) + "\n```"
    return f"To show effect {stable(prompt) % 13} holds."


SEGMENT_ID = re.compile(r"^\[(\d+)\] ", re.MULTILINE)
LABELING_ALL_MARKER = '"reliability"'  # only the Labeling-All prompt asks for this key
REVIEW_HEADER = "Review, split into indexed segments:"  # the segments follow it (not the paper)


def _review_critique_rule(model: str, messages: list[Message]) -> str:
    """Valid JSON for both prompts; each segment's verdict is a hash of (prompt, id)."""
    prompt = messages[-1]["content"]
    ids = sorted({int(i) for i in SEGMENT_ID.findall(prompt.rpartition(REVIEW_HEADER)[2])})
    deficient = {i: stable(prompt, str(i)) % 3 == 0 for i in ids}
    if LABELING_ALL_MARKER in prompt:
        entries = [
            {"id": i, "reliability": "No" if bad else "Yes", "explanation": f"reason {i}"}
            for i, bad in deficient.items()
        ]
        return json.dumps({"segments": entries})
    selected = [{"id": i, "explanation": f"reason {i}"} for i, bad in deficient.items() if bad]
    return json.dumps({"deficient_segments": selected})


@dataclass(frozen=True)
class FaultTask:
    """One task as the fault tests run it: registry name, arguments, roles and answer rule."""

    name: str
    rule: Rule
    demo: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, str | list[str]] = field(default_factory=dict)
    data_arg: str = "data_path"

    def task_args(self, folder: Path) -> dict[str, Any]:
        args = dict(self.args)
        if self.demo is not None:
            args[self.data_arg] = str(write_demo(self.demo, folder / "data"))
        return args


PANEL = [model_name(g) for g in GRADERS]
TASKS: dict[str, FaultTask] = {
    "eqinfer": FaultTask("eqinfer", _eqinfer_rule, demo="eqinfer"),
    "tastybench": FaultTask(
        "tastybench",
        _tastybench_rule,
        demo="tastybench",
        args={"schedule": "all_pairs", "bootstrap_resamples": 50},
    ),
    "lft": FaultTask(
        "lft", _lft_rule, args={"grader_repeats": 2, "grader_cache": True}, roles={"grader": PANEL}
    ),
    "expdesign": FaultTask(
        "expdesign",
        _expdesign_rule,
        demo="expdesign",
        args={"embedding_model": EMBEDDING_MODEL},
        roles={"grader": model_name(JUDGE)},
    ),
    "review_critique": FaultTask(
        "review_critique",
        _review_critique_rule,
        demo="reviewcritique",
        args={"bertscore_model": EMBEDDING_MODEL, "bootstrap_resamples": 50},
    ),
    "paper_weakness": FaultTask(
        "paper_weakness",
        _weakness_rule,
        demo="paper_weakness",
        args={"embedding_model": EMBEDDING_MODEL, "itf_idf_model": EMBEDDING_MODEL},
    ),
    "lft_grader_check": FaultTask("lft_grader_check", _grader_rule, args={"grader_repeats": 2}),
    "tastybench_extract": FaultTask("tastybench_extract", _extract_rule, demo="tastybench"),
    "idea_pairs": FaultTask(
        "idea_pairs",
        _idea_pairs_rule,
        demo="idea_pairs",
        args={"split": "all", "bootstrap_resamples": 50},
        data_arg="pairs_file",
    ),
    "scijudge": FaultTask("scijudge", _scijudge_rule, demo="scijudge"),
    # The round tasks on their demo rounds (judged before any label: the first group is the
    # pending round's, and the faults must not change it either).
    "tastybench_round": FaultTask(
        "tastybench_round", _tastybench_rule, demo="tastybench_round", data_arg="round"
    ),
    "paper_weakness_round": FaultTask(
        "paper_weakness_round",
        _weakness_rule,
        demo="paper_weakness_round",
        args={"embedding_model": EMBEDDING_MODEL, "itf_idf_model": EMBEDDING_MODEL},
        data_arg="round",
    ),
}
# A task run again with other arguments: TastyBench with its clean twin (the papers a 2024-12
# cutoff leaves unseen, scored apart in the first group).
VARIANTS: dict[str, FaultTask] = {
    "tastybench_cutoff": FaultTask(
        "tastybench",
        _tastybench_rule,
        demo="tastybench",
        args={"schedule": "all_pairs", "bootstrap_resamples": 50, "knowledge_cutoff": "2024-12"},
    ),
}


@dataclass
class RunFigures:
    """What one run cost and what it produced, for the printed report and assertions."""

    task: str
    status: str
    calls: int
    answered: int
    faults: Counter[str]
    sample_retries: int
    samples_completed: int
    samples_total: int
    sample_errors: list[str]

    @property
    def retried_calls(self) -> int:
        """Calls that got no answer (each one retried by the client, Inspect or the sample)."""
        return self.calls - self.answered

    def line(self) -> str:
        faults = ", ".join(f"{k}={v}" for k, v in sorted(self.faults.items())) or "none"
        return (
            f"{self.task}: status={self.status} calls={self.calls} answered={self.answered} "
            f"faults[{faults}] retried_calls={self.retried_calls} "
            f"sample_retries={self.sample_retries} "
            f"samples={self.samples_completed}/{self.samples_total}"
        )


def figures(task: str, log: EvalLog, stats: ServerStats) -> RunFigures:
    samples = log.samples or []
    return RunFigures(
        task=task,
        status=log.status,
        calls=stats.total_calls,
        answered=stats.total_answered,
        faults=Counter(stats.faults),
        sample_retries=sum(len(s.error_retries or []) for s in samples),
        samples_completed=sum(1 for s in samples if s.error is None and s.scores),
        samples_total=len(samples),
        sample_errors=[f"{s.id}: {s.error.message}" for s in samples if s.error is not None],
    )


def run(
    server: FaultServer,
    spec: FaultTask,
    folder: Path,
    faults: Faults,
    seed: int = DEFAULT_SEED,
    **eval_args: Any,
) -> tuple[EvalLog, ServerStats]:
    """Run ``spec`` once against ``server`` under ``faults``; returns its log and the counts.

    The run has its own log folder and its own Inspect cache (``folder/cache``), and the fault
    RNG restarts from ``seed``, so a run is repeatable and never reuses another run's answers.
    """
    server.set_rule(spec.rule)
    server.set_faults(faults, seed)
    server.reset_stats()
    eval_args.setdefault("max_retries", MODEL_MAX_RETRIES)
    saved_cache = os.environ.get(CACHE_VAR)
    os.environ[CACHE_VAR] = str(folder / "cache")
    try:
        log = inspect_ai.eval(
            f"research_taste_evals/{spec.name}",
            model=model_name(EVALUATED),
            model_roles=spec.roles or None,
            task_args=spec.task_args(folder),
            log_dir=str(folder / "logs"),
            display="none",
            **eval_args,
        )[0]
    finally:
        if saved_cache is None:
            os.environ.pop(CACHE_VAR, None)
        else:
            os.environ[CACHE_VAR] = saved_cache
    return log, server.reset_stats()


class CleanRuns:
    """Each task's fault-free run (``FAULT_EVAL_ARGS``), made once per session and shared by
    the tests comparing a faulty run with it (its own folder and cache)."""

    def __init__(self, server: FaultServer, folder: Path) -> None:
        self.server = server
        self.folder = folder
        self._runs: dict[str, tuple[EvalLog, ServerStats]] = {}

    def get(self, task: str) -> tuple[EvalLog, ServerStats]:
        if task not in self._runs:
            spec = {**TASKS, **VARIANTS}[task]
            clean = Faults(latency=LATENCY)
            log, stats = run(self.server, spec, self.folder / task, clean, **FAULT_EVAL_ARGS)
            assert log.status == "success", log.error
            self._runs[task] = (log, stats)
        return self._runs[task]


def first_group(log: EvalLog) -> dict[str, float]:
    """The first score group's metrics (``results.scores[0]``: what Inspect shows first)."""
    if log.results is None or not log.results.scores:
        return {}
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of a log by name (empty when the run has no results)."""
    if log.results is None:
        return {}
    return log_results(log)


# Embedding metrics (S-Match, S-F1, ITF-IDF, BERTScore) come from float32 matrix products whose
# last bits depend on how texts were batched (a warm embedding cache changes the batches, and so
# does which sample a retry delayed): ITF-IDF was seen 1.3e-6 apart on identical answers, so the
# bound is 1e-5, still far below what one changed answer moves (1e-3 and more on these sets).
REL_TOL = 1e-5


def differing_metrics(a: dict[str, float], b: dict[str, float]) -> dict[str, tuple[Any, Any]]:
    """The metrics that differ (missing on one side, or unequal), NaN equal to NaN."""
    return {
        k: (a.get(k), b.get(k))
        for k in sorted(a.keys() | b.keys())
        if k not in a
        or k not in b
        or not (
            (math.isnan(a[k]) and math.isnan(b[k]))
            or math.isclose(a[k], b[k], rel_tol=REL_TOL, abs_tol=1e-12)
        )
    }


def same_metrics(a: dict[str, float], b: dict[str, float]) -> bool:
    """Equal metric sets, NaN equal to NaN (an undefined metric stays undefined)."""
    return not differing_metrics(a, b)
