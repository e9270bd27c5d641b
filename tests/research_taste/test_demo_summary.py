"""The demo's and the sweep's closing summaries. The demo's: one line a log, its columns
aligned however long a task or model name is (paper_weakness_round pushed its line out of
line), and an undefined standard error left out rather than printed as ``± nan`` (LFT's demo
printed ``0.000 ± nan``). The sweep's: each round judgment names its round."""

from __future__ import annotations

import math
from pathlib import Path

from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalLog,
    EvalMetric,
    EvalResults,
    EvalScore,
    EvalSpec,
)

from research_taste.cli.demo import summarize
from research_taste.cli.sweep_status import sweep_outcome


def _log(task: str, model: str, value: float, stderr: float) -> EvalLog:
    metrics = {
        "score": EvalMetric(name="score", value=value),
        "score_stderr": EvalMetric(name="score_stderr", value=stderr),
    }
    spec = EvalSpec(
        created="2026-12-08T00:00:00+00:00",
        task=f"research_taste_evals/{task}",
        dataset=EvalDataset(),
        model=model,
        config=EvalConfig(),
    )
    score = EvalScore(name="s", scorer="s", metrics=metrics, scored_samples=4)
    return EvalLog(eval=spec, status="success", results=EvalResults(scores=[score]))


def test_columns_align_and_an_undefined_stderr_is_not_printed() -> None:
    lines = summarize(
        [
            _log("eqinfer", "baseline/all-positive", 0.4, 0.05),
            _log("paper_weakness_round", "baseline/generic-weaknesses", 0.0, math.nan),
        ]
    )
    models = [line.index("baseline/") for line in lines]
    statuses = [line.index("success") for line in lines]
    assert models[0] == models[1] and statuses[0] == statuses[1]
    assert lines[0].endswith("score=0.400 ± 0.050 n=4")
    assert lines[1].endswith("score=0.000 n=4") and "nan" not in lines[1]


def test_the_sweep_summary_names_the_round_of_each_round_judgment(tmp_path: Path) -> None:
    # Two rounds judged by one model were two identical-looking lines.
    planned = [
        ("tastybench_round", "baseline/random", {"round": "rounds/iclr2027-a"}),
        ("tastybench_round", "baseline/random", {"round": "rounds/iclr2027-b"}),
        ("eqinfer", "baseline/random", {"data_path": "x.json"}),
    ]
    outcome = sweep_outcome(str(tmp_path), planned, False, None, {"tastybench_round": "round"})
    lines = outcome.table().splitlines()[1:]
    assert lines[0].startswith("tastybench_round on iclr2027-a  ")
    assert lines[1].startswith("tastybench_round on iclr2027-b  ")
    assert lines[2].startswith("eqinfer  ")
    assert "tastybench_round on iclr2027-b  baseline/random  not started" in outcome.summary("x")
