"""The disk cache of vectors: one SQLite file per (model, revision), keyed by sha256 of the text.

Embeddings store float32 rows keyed by :func:`text_hash`; pair scores (BERTScore, ROUGE) store
float64 rows keyed by :func:`pair_hash` of (candidate, reference).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import


_SQLITE_TIMEOUT_SECONDS = 60.0
_SQLITE_MAX_PARAMS = 900  # below SQLite's historical 999 bound-parameter limit


def text_hash(text: str) -> bytes:
    """The cache key of a text: sha256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).digest()


def pair_hash(candidate: str, reference: str) -> bytes:
    """The cache key of an ordered text pair (length-prefixed, so no separator can collide)."""
    digest = hashlib.sha256()
    for text in (candidate, reference):
        data = text.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.digest()


class EmbeddingCache:
    """Vectors on disk, one SQLite file per (model, revision), keyed by sha256(text).

    SQLite gives atomic, concurrent-safe writes across threads and processes (WAL mode); each
    vector is a blob of ``dtype`` (float32 for embeddings; float64 for pair scores, so a cached
    score equals the computed one exactly). A connection is opened per operation, so instances
    are thread-safe.
    """

    def __init__(
        self, root: Path, model_id: str, revision: str, dtype: str | type[np.floating] = "float32"
    ) -> None:
        self.dtype = dtype
        label = re.sub(r"[^A-Za-z0-9._-]+", "_", model_id.rsplit("/", 1)[-1])[:40]
        digest = hashlib.sha256(f"{model_id}\n{revision}".encode()).hexdigest()[:16]
        self.path = root / f"{label}-{digest}.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            db.execute("CREATE TABLE IF NOT EXISTS vectors (hash BLOB PRIMARY KEY, vector BLOB)")
            db.executemany(
                "INSERT OR IGNORE INTO meta VALUES (?, ?)",
                [("model_id", model_id), ("revision", revision)],
            )

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=_SQLITE_TIMEOUT_SECONDS)
        try:
            with db:
                yield db
        finally:
            db.close()

    def get(self, hashes: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        """Return the cached vectors among ``hashes`` (missing keys are absent)."""
        import numpy as np

        found: dict[bytes, np.ndarray] = {}
        with self._connect() as db:
            for start in range(0, len(hashes), _SQLITE_MAX_PARAMS):
                chunk = hashes[start : start + _SQLITE_MAX_PARAMS]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    f"SELECT hash, vector FROM vectors WHERE hash IN ({marks})", chunk
                ).fetchall()
                for key, blob in rows:
                    found[key] = np.frombuffer(blob, dtype=self.dtype)
        return found

    def put(self, hashes: Sequence[bytes], vectors: np.ndarray) -> None:
        """Store ``vectors`` (one row per hash) as ``dtype``."""
        import numpy as np

        rows = [
            (key, np.ascontiguousarray(row, self.dtype).tobytes())
            for key, row in zip(hashes, vectors, strict=True)
        ]
        with self._connect() as db:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
