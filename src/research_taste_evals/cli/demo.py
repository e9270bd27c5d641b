"""``research-taste demo``: every task, offline, on demo data the project writes, with baselines.

Each benchmark contributes a :class:`DemoRun`; the demo writes the demo data under a scratch
folder, runs each task against its ``baseline/...`` model with Inspect, writes the logs to the
log directory and prints one line per task.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from research_taste_evals.aaar.demo import (
    write_demo_eqinfer,
    write_demo_expdesign,
    write_demo_weakness,
)
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.ideapairs.demo import write_demo_pairs
from research_taste_evals.ideapairs.ideapairs import idea_pairs
from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.lft_grader_check import lft_grader_check
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique
from research_taste_evals.reviewcritique.reviewcritique import review_critique
from research_taste_evals.tastybench.demo import write_demo_tastybench
from research_taste_evals.tastybench.tastybench import tastybench
from research_taste_evals.tastybench.tastybench_extract import tastybench_extract

DEFAULT_LOG_DIR = "logs"


@dataclass(frozen=True)
class DemoRun:
    """One task of the demo: how to build it on demo data, and which offline models run it."""

    name: str
    build: Callable[[Path], Task]
    model: str
    model_roles: dict[str, str] = field(default_factory=dict)


DEMO_RUNS: tuple[DemoRun, ...] = (
    DemoRun(
        name="eqinfer",
        build=lambda data_dir: eqinfer(data_path=str(write_demo_eqinfer(data_dir / "eqinfer"))),
        model="baseline/all-positive",
    ),
    # The AAAR embedding metrics use the packaged MiniLM explicitly (recorded in the log
    # metadata): the paper's all-mpnet-base-v2 needs the Hub, so these are not paper numbers.
    DemoRun(
        name="expdesign",
        build=lambda data_dir: expdesign(
            data_path=str(write_demo_expdesign(data_dir / "expdesign")),
            embedding_model=OFFLINE_MODEL,
        ),
        model="baseline/copy-input",
        model_roles={"grader": "baseline/word-overlap-judge"},
    ),
    DemoRun(
        name="paper_weakness",
        build=lambda data_dir: paper_weakness(
            data_path=str(write_demo_weakness(data_dir / "paper_weakness")),
            embedding_model=OFFLINE_MODEL,
            itf_idf_model=OFFLINE_MODEL,
        ),
        model="baseline/generic-weaknesses",
    ),
    # Three invented papers with labelled reviews; every segment flagged (recall 1, precision =
    # base rate). BERTScore uses the packaged MiniLM explicitly (logged as not paper-faithful).
    DemoRun(
        name="review_critique",
        build=lambda data_dir: review_critique(
            data_path=str(write_demo_reviewcritique(data_dir / "review_critique")),
            bertscore_model=OFFLINE_MODEL,
            bootstrap_resamples=200,
        ),
        model="baseline/flag-all",
    ),
    # The shipped rubrics; a generic plan graded by the keyword-overlap baseline panel.
    DemoRun(
        name="lft",
        build=lambda data_dir: lft(),
        model="baseline/lft-generic-protocol",
        model_roles={"grader": "baseline/lft-grader"},
    ),
    # The shipped reference solutions with known levels, graded by the keyword-overlap baseline.
    DemoRun(
        name="lft_grader_check",
        build=lambda data_dir: lft_grader_check(),
        model="baseline/lft-grader",
    ),
    # Ten invented papers, every pair in both orders, judged by a length prior.
    DemoRun(
        name="tastybench",
        build=lambda data_dir: tastybench(
            data_path=str(write_demo_tastybench(data_dir / "tastybench")),
            schedule="all_pairs",
            bootstrap_resamples=200,
        ),
        model="baseline/tastybench-longer",
    ),
    # The extraction step on the same papers, with a lead-sentences extractor.
    DemoRun(
        name="tastybench_extract",
        build=lambda data_dir: tastybench_extract(
            data_path=str(write_demo_tastybench(data_dir / "tastybench_extract"))
        ),
        model="baseline/tastybench-lead",
    ),
    # Pairs built by the real builder from two invented leaderboards; both splits, since a
    # demo-sized board leaves few test pairs. The length prior answers.
    DemoRun(
        name="idea_pairs",
        build=lambda data_dir: idea_pairs(
            pairs_file=str(write_demo_pairs(data_dir / "idea_pairs")),
            split="all",
            bootstrap_resamples=1000,
        ),
        model="baseline/longer",
    ),
)


def is_headline(metric_name: str) -> bool:
    """Overall figures only: per-group breakdowns, standard errors and CI bounds stay in the log."""
    return "/" not in metric_name and not metric_name.endswith(("_stderr", "_ci_low", "_ci_high"))


def summarize(log: EvalLog) -> str:
    """One line: task, status, and the overall metrics of each scorer."""
    parts = []
    if log.results is not None:
        for eval_score in log.results.scores:
            for name, eval_metric in eval_score.metrics.items():
                if not is_headline(name):
                    continue
                value = eval_metric.value
                shown = "nan" if isinstance(value, float) and math.isnan(value) else f"{value:.3f}"
                parts.append(f"{name}={shown}")
    error = f"  error: {log.error.message}" if log.error else ""
    return f"{log.eval.task:<16} {log.status:<8} {' '.join(parts)}{error}"


def run_demo(log_dir: str = DEFAULT_LOG_DIR, only: list[str] | None = None) -> list[EvalLog]:
    """Run the demo tasks and return their logs (one per task)."""
    # The demo promises to work with no network: never let a library reach for the Hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    runs = [run for run in DEMO_RUNS if only is None or run.name in only]
    unknown = set(only or []) - {run.name for run in DEMO_RUNS}
    if unknown:
        raise ValueError(
            f"unknown demo task(s) {sorted(unknown)}; known: {[r.name for r in DEMO_RUNS]}"
        )
    logs = []
    with tempfile.TemporaryDirectory(prefix="research-taste-demo-") as scratch:
        for run in runs:
            task = run.build(Path(scratch))
            logs.extend(
                inspect_eval(
                    task,
                    model=run.model,
                    model_roles=run.model_roles or None,
                    log_dir=log_dir,
                    display="none",
                )
            )
    return logs
