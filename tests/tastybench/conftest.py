"""TastyBench test fixtures: the demo set on disk and the upstream folder when present."""

from __future__ import annotations

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
    """Every metric of a successful log, by name."""
    return log_metrics.metrics_of
