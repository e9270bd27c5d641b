"""A sweep runs with Inspect's cache on and sample retries by default (docs/running.md): what
it hands ``eval_set``, with the file's settings and without them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from research_taste.cli import sweep
from research_taste.cli.sweep_schema import DEFAULT_RETRY_ON_ERROR, SweepConfig


def _handed(config: SweepConfig, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(sweep, "build_tasks", lambda runs: [])
    monkeypatch.setattr(sweep, "eval_set", lambda **kwargs: seen.update(kwargs))
    sweep._run_eval_set(config, [], None, "none")
    return seen


def test_a_sweep_caches_and_retries_samples_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = SweepConfig(log_dir=str(tmp_path), tasks=[{"task": "eqinfer"}])
    handed = _handed(config, monkeypatch)
    assert handed["cache"] is True and handed["retry_on_error"] == DEFAULT_RETRY_ON_ERROR == 20


def test_a_sweep_file_turns_the_cache_and_the_retries_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = SweepConfig(
        log_dir=str(tmp_path), tasks=[{"task": "eqinfer"}], cache=False, retry_on_error=0
    )
    handed = _handed(config, monkeypatch)
    assert handed["cache"] is None and handed["retry_on_error"] is None  # Inspect's defaults
