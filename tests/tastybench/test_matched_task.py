"""schedule=matched end to end: the citation oracle scores pairwise_accuracy 1 on the demo set
and on a built set; a position-only judge scores 0.5; other schedules report NaN."""

from __future__ import annotations

import csv
import json
import logging
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from research_taste.reporting.families import task_specs
from research_taste_evals.tastybench.tastybench import tastybench

Metrics = Callable[[EvalLog], dict[str, float]]
FAST = {"display": "none", "max_connections": 100, "max_samples": 100, "log_realtime": False}
BUILT_COLUMNS = [
    "paper_id", "title", "pub_date", "abstract", "total_citations", "citation_dates",
    "citation_counts", "velocity", "fetch_date",
]  # fmt: skip
# (id, publication day, citations gained per month): six papers, two per month, fetched
# 2026-01-15 (every paper has at least three month starts).
BUILT = [
    ("S2-A", "2025-07-03", 5),
    ("S2-B", "2025-07-21", 9),
    ("S2-C", "2025-08-02", 2),
    ("S2-D", "2025-08-28", 7),
    ("S2-E", "2025-09-10", 4),
    ("S2-F", "2025-09-25", 1),
]


def _run(task: object, model: str, tmp_path: Path) -> EvalLog:
    [log] = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), **FAST)  # type: ignore[arg-type]
    assert log.status == "success", log.error
    return log


def _write_built_set(folder: Path) -> Path:
    """A folder in the builder's layout (``built_set.py``): papers.csv and build_report.json."""
    folder.mkdir()
    with (folder / "papers.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(BUILT_COLUMNS)
        for paper_id, day, per_month in BUILT:
            year, month = int(day[:4]), int(day[5:7])
            starts = [f"{year + (month + k) // 12}-{(month + k) % 12 + 1:02d}-01" for k in range(4)]
            counts = [per_month * (k + 1) for k in range(4)]
            writer.writerow(
                [paper_id, f"Title {paper_id}", day, f"Abstract of {paper_id}.", counts[-1],
                 json.dumps(starts), json.dumps(counts), per_month, "2026-01-15"]
            )  # fmt: skip
    (folder / "build_report.json").write_text(json.dumps({"query": "test"}), encoding="utf-8")
    return folder


def test_the_citation_oracle_gets_every_matched_pair_right_on_the_demo_set(
    demo_dir: Path, tmp_path: Path, metrics_of: Metrics
) -> None:
    task = tastybench(data_path=str(demo_dir), schedule="matched", bootstrap_resamples=100)
    log = _run(task, "baseline/citation-oracle", tmp_path)
    metrics = metrics_of(log)
    assert metrics["pairwise_accuracy"] == 1.0
    assert metrics["pairwise_accuracy_ci_low"] == metrics["pairwise_accuracy_ci_high"] == 1.0
    assert metrics["pairwise_accuracy_consistent"] == 1.0
    assert metrics["matched_pairs"] == 4 and metrics["matched_unclear"] == 0
    metadata = log.eval.metadata or {}
    assert metadata["headline_metric"] == "pairwise_accuracy"
    assert metadata["matching"]["pairs"] == 4 and metadata["matching"]["unpaired"] == 2
    samples = log.samples or []
    assert len(samples) == 8
    spec = task_specs()["tastybench"]  # every figure of a matched run has its eval.yaml meaning
    assert [name for name in metrics if not spec.meaning(name)] == []
    assert all(s.metadata["pair_gap_days"] <= 61 for s in samples)


def test_a_position_only_judge_scores_one_half(
    demo_dir: Path, tmp_path: Path, metrics_of: Metrics
) -> None:
    task = tastybench(data_path=str(demo_dir), schedule="matched", bootstrap_resamples=100)
    metrics = metrics_of(_run(task, "baseline/tastybench-first", tmp_path))
    assert metrics["pairwise_accuracy"] == 0.5
    assert metrics["pairwise_accuracy_consistent"] == 0.0
    adjacent = tastybench(data_path=str(demo_dir), rounds=1, bootstrap_resamples=100)
    other = metrics_of(_run(adjacent, "baseline/tastybench-first", tmp_path))
    assert math.isnan(other["pairwise_accuracy"]) and other["matched_pairs"] == 0


@pytest.mark.parametrize("velocity", ["windowed", "common_window"])
def test_the_citation_oracle_gets_every_matched_pair_right_on_a_built_set(
    tmp_path: Path, metrics_of: Metrics, velocity: str
) -> None:
    built = _write_built_set(tmp_path / "set")
    task = tastybench(
        data_path=str(built),
        representation="abstract",
        schedule="matched",
        velocity=velocity,  # type: ignore[arg-type]
        window_months=3,
        bootstrap_resamples=100,
    )
    log = _run(task, "baseline/citation-oracle", tmp_path)
    metrics = metrics_of(log)
    assert metrics["pairwise_accuracy"] == 1.0 and metrics["matched_pairs"] == 3
    matching = (log.eval.metadata or {})["matching"]
    assert matching["same_month_pairs"] == 3 and matching["unpaired"] == 0


@pytest.mark.parametrize(("limit", "pairs"), [(1, 0), (3, 1)])
def test_a_limit_that_halves_a_pair_scores_whole_pairs_only(
    demo_dir: Path,
    tmp_path: Path,
    metrics_of: Metrics,
    caplog: pytest.LogCaptureFixture,
    limit: int,
    pairs: int,
) -> None:
    """``--limit 1`` / ``--limit 3``: the pair with one order judged is left out of
    pairwise_accuracy, counted in matched_incomplete_pairs, and said once."""
    task = tastybench(data_path=str(demo_dir), schedule="matched", bootstrap_resamples=50)
    with caplog.at_level(logging.WARNING):
        [log] = inspect_eval(
            task,
            model="baseline/citation-oracle",
            log_dir=str(tmp_path / "logs"),
            limit=limit,
            **FAST,  # type: ignore[arg-type]
        )
    assert log.status == "success", log.error
    metrics = metrics_of(log)
    assert metrics["matched_pairs"] == pairs and metrics["matched_incomplete_pairs"] == 1
    if pairs:
        assert metrics["pairwise_accuracy"] == 1.0
    else:
        assert math.isnan(metrics["pairwise_accuracy"])
    said = [r for r in caplog.records if "matched_incomplete_pairs" in r.getMessage()]
    assert len(said) == 1 and "1 pairs in one order only" in said[0].getMessage()
