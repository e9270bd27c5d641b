"""Explanation scores are cached on disk: a warm re-score loads and computes no BERTScore."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from research_taste_evals.core.embedding_cache import EmbeddingCache
from research_taste_evals.core.embeddings import OFFLINE_MODEL, resolve_model
from research_taste_evals.reviewcritique import explanation
from research_taste_evals.reviewcritique.explanation import BertScore, rouge_triplets

CANDIDATES = ["The review ignores the ablation.", "", "Claims lack evidence."]
REFERENCES = ["It misses the ablation study.", "Empty candidate scores zero.", "No evidence."]


def _bert(cache_root: Path) -> BertScore:
    spec = resolve_model(OFFLINE_MODEL)
    return BertScore(
        model=OFFLINE_MODEL,
        revision=spec.revision,
        num_layers=explanation.OFFLINE_BERTSCORE_LAYERS,
        paper_faithful=False,
        load_from=spec.load_from,
        cache=EmbeddingCache(cache_root, "bertscore-test", spec.revision, np.float64),
    )


def test_warm_bertscore_loads_and_computes_nothing(tmp_path: Path) -> None:
    cold = _bert(tmp_path)
    first = cold.f1(CANDIDATES, REFERENCES)
    assert cold.scorer is not None  # the cold run loaded the weights
    assert first[1] == 0.0 and all(0.0 < s <= 1.0 for s in (first[0], first[2]))

    warm = _bert(tmp_path)  # a new process's scorer over the same cache
    assert warm.f1(CANDIDATES, REFERENCES) == first  # bit-identical, float64 round trip
    assert warm.scorer is None  # never loaded: no BERTScore work at all


def test_unavailable_weights_give_nan_and_cache_nothing(tmp_path: Path) -> None:
    broken = _bert(tmp_path)
    broken.load_from = str(tmp_path / "no-such-model")
    scores = broken.f1(CANDIDATES, REFERENCES)
    assert scores[1] == 0.0 and math.isnan(scores[0]) and math.isnan(scores[2])
    assert broken.error is not None
    healthy = _bert(tmp_path)
    assert not math.isnan(healthy.f1(CANDIDATES, REFERENCES)[0])  # NaN was never cached


def test_warm_rouge_computes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    first = rouge_triplets(CANDIDATES, REFERENCES)
    assert first[0] == explanation.rouge_triplet(CANDIDATES[0], REFERENCES[0])

    def fail(prediction: str, reference: str) -> dict[str, float]:
        raise AssertionError("ROUGE recomputed on a warm cache")

    monkeypatch.setattr(explanation, "rouge_triplet", fail)
    assert rouge_triplets(CANDIDATES, REFERENCES) == first
