"""The one way data comes in: pinned remote files, pinned Hugging Face files, or a local path.

Every loader in the package goes through :func:`resolve_data`, so a user can always replace the
pinned upstream file with a local copy (``-T data_path=...``), and every failure (a checksum
mismatch, a missing file, unreadable JSON, a record that does not fit its schema) raises
:class:`DataError` with a message that names the source, the record index and the field. The
readers of a local file (JSON, JSONL, YAML, CSV, the schema check) are core/records.py.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from research_taste_evals.core.network import OFFLINE_HINT, hub_offline, unreachable_reason
from research_taste_evals.core.records import (
    DataError,
    _first_line,
    describe_validation_error,
    describe_yaml_error,
    read_csv,
    read_json,
    read_jsonl,
    read_yaml,
    validate_records,
    validation_location,
)

# The readers and the schema check live in core/records.py; loaders import them from here too.
__all__ = [
    "CACHE_DIR_ENV",
    "DataError",
    "HubFile",
    "HubFolder",
    "PinnedFile",
    "ResolvedData",
    "cache_dir",
    "describe_validation_error",
    "describe_yaml_error",
    "git_blob_id",
    "read_csv",
    "read_json",
    "read_jsonl",
    "read_yaml",
    "resolve_data",
    "sha256_of",
    "validate_records",
    "validation_location",
]

CACHE_DIR_ENV = "RESEARCH_TASTE_CACHE_DIR"
DEFAULT_CACHE_DIR = Path.home() / ".cache" / "research_taste_evals"
DOWNLOAD_TIMEOUT_SECONDS = 120
_CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class PinnedFile:
    """A remote file pinned by its sha256 and/or its git blob id; downloaded once into the cache.

    Upstream repositories often publish only the git blob id of a large file (what ``git
    ls-tree`` shows); it pins the bytes as firmly as a sha256, so either (or both) may be given.
    """

    url: str
    sha256: str | None
    filename: str
    git_blob: str | None = None

    def __post_init__(self) -> None:
        if not self.sha256 and not self.git_blob:
            raise ValueError(f"{self.url}: a PinnedFile needs a sha256 or a git blob id")

    @property
    def cache_key(self) -> str:
        return self.sha256 or f"git-blob-{self.git_blob}"

    @property
    def revision(self) -> str:
        return f"sha256:{self.sha256}" if self.sha256 else f"git-blob:{self.git_blob}"

    def describe(self) -> str:
        pin = f"sha256 {self.sha256[:12]}..." if self.sha256 else f"git blob {self.git_blob}"
        return f"{self.url} ({pin})"


@dataclass(frozen=True)
class HubFile:
    """A file in a Hugging Face repository at a pinned revision."""

    repo_id: str
    filename: str
    revision: str
    repo_type: str = "dataset"

    def describe(self) -> str:
        return f"hf://{self.repo_type}s/{self.repo_id}@{self.revision}/{self.filename}"


@dataclass(frozen=True)
class HubFolder:
    """The files of a Hugging Face repository matching a glob, at a pinned revision."""

    repo_id: str
    pattern: str
    revision: str
    repo_type: str = "dataset"

    def describe(self) -> str:
        return f"hf://{self.repo_type}s/{self.repo_id}@{self.revision}/{self.pattern}"


@dataclass(frozen=True)
class ResolvedData:
    """Where data was actually read from; recorded in task metadata for reproducibility."""

    path: Path
    source: str
    revision: str | None = None

    def as_metadata(self) -> dict[str, str | None]:
        return {"data_source": self.source, "data_revision": self.revision}


def cache_dir() -> Path:
    """The cache directory: ``$RESEARCH_TASTE_CACHE_DIR``, else ~/.cache/research_taste_evals."""
    return Path(os.environ.get(CACHE_DIR_ENV) or DEFAULT_CACHE_DIR).expanduser()


def resolve_data(
    pinned: PinnedFile | HubFile | HubFolder | None,
    data_path: str | os.PathLike[str] | None = None,
    what: str = "data_path",
) -> ResolvedData:
    """Return a local copy of the data: the user's ``data_path`` if given, else the pinned source.

    For a :class:`HubFolder` the path is the snapshot root holding the matching files.
    ``what`` names the task parameter the local path came from, for the error message.

    Raises:
        DataError: the local path does not exist, the download fails, or a checksum mismatches.
    """
    if data_path is not None:
        path = Path(data_path).expanduser()
        if not path.exists():
            raise DataError(f"{path}: {what} does not exist")
        return ResolvedData(path=path.resolve(), source=f"local:{path.resolve()}")
    if pinned is None:
        raise DataError("no pinned source for this dataset: pass -T data_path=<file or directory>")
    if isinstance(pinned, HubFile | HubFolder):
        return _fetch_hub(pinned)
    return _fetch_pinned(pinned)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def git_blob_id(path: Path) -> str:
    """The git blob id of a file (``git hash-object``): sha1 of ``b"blob <size>\\0"`` + bytes."""
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode(), usedforsecurity=False)
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def verify_git_blob(path: Path, expected: str, source: str) -> None:
    actual = git_blob_id(path)
    if actual != expected:
        raise DataError(f"{source}: checksum mismatch: expected git blob {expected}, got {actual}")


def verify_pinned(path: Path, pinned: PinnedFile, source: str) -> None:
    """Check every digest the pin names (sha256 and/or git blob id)."""
    if pinned.sha256:
        verify_sha256(path, pinned.sha256, source=source)
    if pinned.git_blob:
        verify_git_blob(path, pinned.git_blob, source=source)


def _fetch_pinned(pinned: PinnedFile) -> ResolvedData:
    target = cache_dir() / "files" / pinned.cache_key / pinned.filename
    if not target.exists():
        unreachable = unreachable_reason(pinned.url)
        if unreachable is not None:
            raise DataError(f"{pinned.describe()}: download failed: {unreachable}. {OFFLINE_HINT}")
        target.parent.mkdir(parents=True, exist_ok=True)
        # Download next to the target and rename only after the checksum matches, so an
        # interrupted or tampered download never leaves a half-written file in the cache.
        fd, tmp_name = tempfile.mkstemp(dir=target.parent, suffix=".part")
        tmp = Path(tmp_name)
        try:
            with (
                os.fdopen(fd, "wb") as out,
                urllib.request.urlopen(pinned.url, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response,
            ):
                for chunk in iter(lambda: response.read(_CHUNK_BYTES), b""):
                    out.write(chunk)
            verify_pinned(tmp, pinned, source=pinned.url)
            tmp.replace(target)
        except OSError as error:
            raise DataError(
                f"{pinned.describe()}: download failed: {error}. {OFFLINE_HINT}"
            ) from error
        finally:
            tmp.unlink(missing_ok=True)
    verify_pinned(target, pinned, source=str(target))
    return ResolvedData(path=target, source=pinned.url, revision=pinned.revision)


def verify_sha256(path: Path, expected: str, source: str) -> None:
    actual = sha256_of(path)
    if actual != expected:
        raise DataError(f"{source}: checksum mismatch: expected sha256 {expected}, got {actual}")


def _fetch_hub(pinned: HubFile | HubFolder) -> ResolvedData:
    from huggingface_hub import hf_hub_download, snapshot_download

    # Unreachable Hub: read the cache only, so a miss fails now rather than after retries.
    local_only = hub_offline()
    try:
        if isinstance(pinned, HubFile):
            local = hf_hub_download(
                repo_id=pinned.repo_id,
                filename=pinned.filename,
                revision=pinned.revision,
                repo_type=pinned.repo_type,
                cache_dir=cache_dir() / "hf",
                local_files_only=local_only,
            )
        else:
            local = snapshot_download(
                repo_id=pinned.repo_id,
                allow_patterns=[pinned.pattern],
                revision=pinned.revision,
                repo_type=pinned.repo_type,
                cache_dir=cache_dir() / "hf",
                local_files_only=local_only,
            )
    except Exception as error:  # huggingface_hub raises many unrelated types for one cause
        cause = (
            "the Hub is unreachable (or HF_HUB_OFFLINE is set) and it is not in the cache"
            if local_only
            else f"{type(error).__name__}: {_first_line(error)}"
        )
        raise DataError(
            f"{pinned.describe()}: could not download: {cause}. {OFFLINE_HINT}"
        ) from error
    path = Path(local)
    # The snapshot folder is named by the full commit hash the pinned revision resolved to.
    resolved = path.parts[path.parts.index("snapshots") + 1] if "snapshots" in path.parts else None
    return ResolvedData(path=path, source=pinned.describe(), revision=resolved or pinned.revision)
