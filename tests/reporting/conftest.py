"""Shared by the reporting tests: the demo sweep, run once per session into a scratch folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_taste.cli.sweep import run_sweep
from research_taste.cli.sweep_load import load_sweep
from research_taste_evals.core.data import CACHE_DIR_ENV

DEMO_SWEEP = Path(__file__).resolve().parents[2] / "sweeps" / "demo.yaml"
DEMO_LIMIT = 4  # a few samples per run keep the suite quick; the grid is the full demo grid


@pytest.fixture(scope="session")
def demo_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sweeps/demo.yaml (every task, two models each) run into a scratch folder."""
    log_dir = tmp_path_factory.mktemp("demo-sweep") / "logs"
    config = load_sweep(DEMO_SWEEP).model_copy(
        update={"log_dir": str(log_dir), "limit": DEMO_LIMIT}
    )
    # Session fixtures run before the function-scoped cache isolation: set it here too, to the
    # same scratch folder, so the demo data path (a task argument) is the same in every test.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_ENV, str(tmp_path_factory.getbasetemp() / "cache"))
        assert run_sweep(config, display="none")
    return log_dir
