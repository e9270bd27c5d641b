"""A built OpenReview folder through the unchanged tasks, offline: tastybench with the review
label (the oracle agrees on every pair) and paper_weakness (the packaged MiniLM)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import log_metrics
import pytest
from fake_openreview import FETCH_DATE, FakeOpenReview
from inspect_ai import eval as inspect_eval

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.aaar.dataset.paper_weakness import load_weakness_records
from research_taste_evals.aaar.paper_weakness import paper_weakness
from research_taste_evals.core.data import DataError
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.tastybench.built_set import load_built_set
from research_taste_evals.tastybench.tastybench import tastybench

FAST = {"display": "none", "max_connections": 50, "max_samples": 50, "log_realtime": False}


@pytest.fixture
def built(iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path) -> Path:
    out = tmp_path / "iclr"
    run_build(iclr, out)
    return out


def test_the_label_is_every_velocity_modes_truth(built: Path) -> None:
    loaded = load_built_set(built, "abstract", None, window_months=6)
    with (built / "papers.csv").open(encoding="utf-8") as handle:
        labels = {row["paper_id"]: float(row["label"]) for row in csv.DictReader(handle)}
    for paper in loaded.papers:
        for mode in ("upstream", "windowed", "common_window"):
            assert paper.velocity(mode) == labels[paper.paper_id]  # type: ignore[arg-type]
    assert loaded.metadata["paper_set"] == "openreview"
    assert loaded.metadata["label"] == "mean_rating"
    assert loaded.metadata["pub_date_range"] == ("2025-09-12", "2025-09-20")


def test_citation_oracle_agrees_on_every_within_area_pair(built: Path, tmp_path: Path) -> None:
    task = tastybench(
        data_path=str(built),
        representation="abstract",
        prompt="reviews",
        schedule="file",
        pairs_file=str(built / "pairs_within_area.csv"),
        recall_probe=False,
        bootstrap_resamples=50,
    )
    log = inspect_eval(
        task, model="baseline/citation-oracle", log_dir=str(tmp_path / "logs"), **FAST
    )[0]
    metrics = log_metrics.every_figure_of(log)
    assert metrics["pairwise_agreement"] == 1.0
    assert metrics["comparisons_used"] == 8.0
    samples = log.samples or []
    assert "the conference's reviewers will give my submission" in samples[0].input  # type: ignore[operator]
    metadata = log.eval.metadata or {}
    assert metadata["build"]["venue"] == "ICLR.cc/2026/Conference"
    assert metadata["build"]["fetch_date"] == FETCH_DATE
    assert metadata["build"]["papers_unchanged_since_build"] is True


def test_citation_oracle_ranks_all_pairs_perfectly(built: Path, tmp_path: Path) -> None:
    task = tastybench(
        data_path=str(built),
        representation="abstract",
        prompt="reviews",
        schedule="all_pairs",
        recall_probe=False,
        bootstrap_resamples=50,
    )
    log = inspect_eval(
        task, model="baseline/citation-oracle", log_dir=str(tmp_path / "logs"), **FAST
    )[0]
    metrics = log_metrics.every_figure_of(log)
    assert metrics["pairwise_agreement"] == 1.0 and metrics["bt_spearman"] == pytest.approx(1.0)


def test_paper_weakness_runs_on_the_built_records(built: Path, tmp_path: Path) -> None:
    task = paper_weakness(
        data_path=str(built), embedding_model=OFFLINE_MODEL, itf_idf_model=OFFLINE_MODEL
    )
    log = inspect_eval(
        task, model="baseline/generic-weaknesses", log_dir=str(tmp_path / "logs"), **FAST
    )[0]
    metrics = log_metrics.every_figure_of(log)
    assert 0.0 < metrics["s_f1"] <= 1.0
    assert metrics["itf_idf_score"] == pytest.approx(0.0, abs=1e-9)  # one list for every paper
    samples = {sample.id: sample for sample in log.samples or []}
    assert set(samples) == {"Ab1RlQ7x2m", "Ab2RlK3p9z", "Ab3GnM5t1k", "Ab7RlV6y5s"}
    assert samples["Ab2RlK3p9z"].metadata["item_dates"] == ["2025-09-15"]
    assert (log.eval.metadata or {})["item_dates"] == "2025-09-12 to 2025-09-20"


def test_paper_weakness_on_a_build_without_pdfs_is_one_sentence(
    iclr: FakeOpenReview, run_build: Callable[..., dict], tmp_path: Path
) -> None:
    out = tmp_path / "no-pdfs"
    run_build(iclr, out, pdfs=False)
    with pytest.raises(DataError, match="wrote no PaperWeakness records"):
        load_weakness_records(str(out))


def test_matched_pairs_stay_within_a_primary_area(built: Path, tmp_path: Path) -> None:
    task = tastybench(
        data_path=str(built),
        representation="abstract",
        prompt="reviews",
        schedule="matched",
        recall_probe=False,
        bootstrap_resamples=50,
    )
    log = inspect_eval(
        task, model="baseline/citation-oracle", log_dir=str(tmp_path / "logs"), **FAST
    )[0]
    metrics = log_metrics.every_figure_of(log)
    assert metrics["pairwise_accuracy"] == 1.0
    # RL (09-12, 09-15, 09-20): one date-neighbour pair, one paper left over; generative: one
    assert metrics["matched_pairs"] == 2.0
    areas = {}
    with (built / "papers.csv").open(encoding="utf-8") as handle:
        areas = {row["paper_id"]: row["primary_area"] for row in csv.DictReader(handle)}
    for sample in log.samples or []:
        metadata = sample.metadata or {}
        assert areas[metadata["paper_1"]] == areas[metadata["paper_2"]]
