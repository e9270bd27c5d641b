from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from research_taste_evals.core.data import DataError, PinnedFile, git_blob_id, resolve_data


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_blob_id_equals_git_hash_object(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_bytes(b'{"a": NaN}\n' * 1000)
    expected = subprocess.run(
        ["git", "hash-object", str(path)], check=True, capture_output=True, text=True
    ).stdout.strip()
    assert git_blob_id(path) == expected


def test_pin_by_git_blob_only_and_both_digests(tmp_path: Path) -> None:
    source = tmp_path / "remote.jsonl"
    source.write_text('{"x": 1}\n')
    blob = git_blob_id(source)
    resolved = resolve_data(
        PinnedFile(url=source.as_uri(), sha256=None, filename="f", git_blob=blob)
    )
    assert resolved.path.read_text() == source.read_text()
    assert resolved.revision == f"git-blob:{blob}"
    wrong_sha = PinnedFile(url=source.as_uri(), sha256="1" * 64, filename="g", git_blob=blob)
    with pytest.raises(DataError, match="expected sha256"):
        resolve_data(wrong_sha)
    with pytest.raises(ValueError, match="needs a sha256 or a git blob"):
        PinnedFile(url=source.as_uri(), sha256=None, filename="h")
