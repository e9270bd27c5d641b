"""The one way data comes in: pinned remote files, pinned Hugging Face files, or a local path.

Every loader in the package goes through :func:`resolve_data`, so a user can always replace the
pinned upstream file with a local copy (``-T data_path=...``), and every failure (a checksum
mismatch, a missing file, unreadable JSON, a record that does not fit its schema) raises
:class:`DataError` with a message that names the source, the record index and the field.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import tempfile
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from research_taste_evals.core.errors import UserError
from research_taste_evals.core.network import OFFLINE_HINT, hub_offline, unreachable_reason

CACHE_DIR_ENV = "RESEARCH_TASTE_CACHE_DIR"
DEFAULT_CACHE_DIR = Path.home() / ".cache" / "research_taste_evals"
DOWNLOAD_TIMEOUT_SECONDS = 120
_CHUNK_BYTES = 1 << 20

ModelT = TypeVar("ModelT", bound=BaseModel)


class DataError(UserError, ValueError):
    """Input data that cannot be used: the message names the source, record and field."""


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


def read_json(path: Path) -> Any:
    """Parse a JSON file; errors name the file and the position."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 text: byte {error.start}: {error.reason}") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DataError(
            f"{path}: invalid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from error


def read_yaml(path: Path) -> Any:
    """Parse a YAML file (``yaml.safe_load``); errors name the file, line and column."""
    import yaml  # imported on use: most runs read no YAML

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: cannot read: not UTF-8 text: byte {error.start}") from error
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise DataError(f"{path}: invalid YAML {describe_yaml_error(error)}") from error


def read_jsonl(path: Path) -> list[Any]:
    """Parse a JSON-lines file (Python's json, which accepts bare NaN); errors name the line."""
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from error
    records = []
    for line_number, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataError(
                f"{path}: line {line_number}: not UTF-8 text: byte {error.start}: {error.reason}"
            ) from error
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise DataError(
                f"{path}: line {line_number}: invalid JSON at column {error.colno}: {error.msg}"
            ) from error
    return records


def validate_records(records: Any, model: type[ModelT], source: Path | str) -> list[ModelT]:
    """Validate a list of raw records against a pydantic model.

    Raises:
        DataError: no records at all, or naming the source, the index of the first bad record
            and the field at fault.
    """
    if not isinstance(records, Sequence) or isinstance(records, str | bytes):
        raise DataError(f"{source}: expected a JSON list of records, got {type(records).__name__}")
    if not records:
        # Every caller builds a dataset from these; Inspect's own "dataset is empty" names no file.
        raise DataError(f"{source}: no records (the file holds an empty list or only a header)")
    validated = []
    for index, record in enumerate(records):
        try:
            validated.append(model.model_validate(record))
        except ValidationError as error:
            raise DataError(
                f"{source}: record {index}: {describe_validation_error(error)}"
            ) from error
    return validated


def validation_location(loc: Iterable[int | str], root: str = "<record>") -> str:
    """``('levels', 3, 'criteria', 1, 'points')`` -> ``levels[3].criteria[1].points``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or root


def describe_validation_error(error: ValidationError) -> str:
    """The first problem of a pydantic error as ``field '<path>': <message>``.

    The one formatter for validation errors: every loader and config reader names the field
    the same way.
    """
    problem = error.errors()[0]
    message = problem["msg"].removeprefix("Value error, ")
    return f"field '{validation_location(problem['loc'])}': {message}"


def _first_line(error: BaseException) -> str:
    """The first line of an error message (Hub errors run to a dozen lines of advice)."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def describe_yaml_error(error: Exception) -> str:
    """A YAML parse error in one line: ``at line L column C: <problem>`` (PyYAML's own text
    spans several lines and quotes the file as ``<unicode string>``)."""
    mark = getattr(error, "problem_mark", None)
    where = f"at line {mark.line + 1} column {mark.column + 1}: " if mark else ""
    problem = getattr(error, "problem", None) or _first_line(error)
    return f"{where}{problem}"


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows of a CSV file (header row first) as dicts; errors name the file and the line."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DataError(f"{path}: cannot read CSV: {error.strerror or error}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_number = data.count(b"\n", 0, error.start) + 1
        raise DataError(
            f"{path}: cannot read CSV: line {line_number}: not UTF-8 text: byte {error.start}: "
            f"{error.reason}"
        ) from error
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        return list(reader)
    except csv.Error as error:
        raise DataError(f"{path}: cannot read CSV: line {reader.line_num}: {error}") from error
