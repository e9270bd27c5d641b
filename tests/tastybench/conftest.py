"""TastyBench test fixtures: the demo set on disk and the upstream folder when present."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import log_metrics
import pytest
from inspect_ai.log import EvalLog

from research_taste_evals.tastybench.demo import write_demo_tastybench


@pytest.fixture(autouse=True)
def _fresh_generation_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Extractor calls are cached by Inspect; keep each test's cache to itself."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))


@pytest.fixture
def demo_dir(tmp_path: Path) -> Path:
    """The project's ten invented papers, written in the upstream layout."""
    return write_demo_tastybench(tmp_path / "demo")


@pytest.fixture
def tastybench_upstream(upstream_dir: Path) -> Path:
    path = upstream_dir / "tastybench"
    if not (path / "model-elicitation" / "data" / "llm_rl_yix_curate.csv").is_file():
        pytest.skip(f"TastyBench upstream files not found under {path}")
    return path


@pytest.fixture
def metrics_of() -> Callable[[EvalLog], dict[str, float]]:
    """Every figure a successful log's metric computes, logged or not, by name (a test's
    analysis of the log's sample scores: ``log_metrics.every_figure_of``)."""
    return log_metrics.every_figure_of


REVIEW_COLUMNS = [
    "paper_id",
    "title",
    "pub_date",
    "abstract",
    "primary_area",
    "label",
    "fetch_date",
]


def _write_review_set(folder: Path, report: str, fetch_dates: tuple[str, ...] = ()) -> Path:
    """An OpenReview-built folder (``built_set.py``): four papers, one area, ``report``."""
    folder.mkdir()
    with (folder / "papers.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(REVIEW_COLUMNS)
        for k in range(4):
            fetch = fetch_dates[k] if k < len(fetch_dates) else "2025-11-20"
            writer.writerow(
                [f"or{k}", f"Title {k}", "2025-09-1" + str(k), f"Abstract {k}.", "rl", 3 + k, fetch]
            )
    (folder / "build_report.json").write_text(report, encoding="utf-8")
    return folder


@pytest.fixture
def write_review_set() -> Callable[..., Path]:
    """Writes an OpenReview-built folder: ``(folder, report_text, fetch_dates=())``."""
    return _write_review_set
