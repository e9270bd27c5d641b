"""AAAR test fixtures."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from research_taste_evals.core.embeddings import Embedder

SLOW_ENCODE_SECONDS = 0.6


@pytest.fixture
def slow_encode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> float:
    """Make every embedding encode take ``SLOW_ENCODE_SECONDS`` longer, with a fresh cache.

    For the never-blocks checks: the fresh cache keeps texts encoded by an earlier test from
    skipping the slow encode. Returns the added seconds.
    """
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path))
    original = Embedder.encode

    def encode(self: Embedder, texts: Any) -> np.ndarray:
        time.sleep(SLOW_ENCODE_SECONDS)
        return original(self, texts)

    monkeypatch.setattr(Embedder, "encode", encode)
    return SLOW_ENCODE_SECONDS
