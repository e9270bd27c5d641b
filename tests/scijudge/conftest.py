"""SciJudgeBench test fixtures: isolated caches."""

from __future__ import annotations

from pathlib import Path

import pytest

from research_taste_evals.core.data import CACHE_DIR_ENV


@pytest.fixture(autouse=True)
def _isolated_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inspect's generation cache and the package's data cache stay in the test's folder."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
