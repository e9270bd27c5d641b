from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from research_taste_evals.core.data import (
    DataError,
    HubFile,
    HubFolder,
    PinnedFile,
    cache_dir,
    read_csv,
    read_json,
    read_jsonl,
    resolve_data,
    validate_records,
)


def _pinned(tmp_path: Path, content: bytes, sha: str | None = None) -> PinnedFile:
    source = tmp_path / "remote" / "data.json"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_bytes(content)
    return PinnedFile(
        url=source.as_uri(),
        sha256=sha or hashlib.sha256(content).hexdigest(),
        filename="data.json",
    )


def test_local_path_wins_over_pinned_source(tmp_path: Path) -> None:
    local = tmp_path / "mine.json"
    local.write_text("[]")
    resolved = resolve_data(_pinned(tmp_path, b"[1]"), local)
    assert resolved.path == local.resolve()
    assert resolved.source.startswith("local:")


def test_missing_local_path_names_it(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="nope.json: data_path does not exist"):
        resolve_data(None, tmp_path / "nope.json")


def test_no_source_at_all_says_what_to_pass() -> None:
    with pytest.raises(DataError, match="data_path"):
        resolve_data(None, None)


def test_pinned_download_is_cached_and_verified(tmp_path: Path) -> None:
    pinned = _pinned(tmp_path, b'[{"a": 1}]')
    first = resolve_data(pinned)
    assert read_json(first.path) == [{"a": 1}]
    assert first.revision == f"sha256:{pinned.sha256}"
    # The cached copy is used even once the remote is gone.
    Path(pinned.url.removeprefix("file://")).unlink()
    assert resolve_data(pinned).path == first.path


def test_checksum_mismatch_names_source_and_leaves_nothing_in_cache(tmp_path: Path) -> None:
    pinned = _pinned(tmp_path, b"[]", sha="0" * 64)
    with pytest.raises(DataError, match=r"data.json: checksum mismatch: expected sha256 0+, got"):
        resolve_data(pinned)
    folder = cache_dir() / "files" / ("0" * 64)
    assert not folder.exists() or list(folder.iterdir()) == []


def test_failed_download_is_a_data_error(tmp_path: Path) -> None:
    pinned = PinnedFile(url=(tmp_path / "absent.json").as_uri(), sha256="1" * 64, filename="x")
    with pytest.raises(DataError, match="download failed"):
        resolve_data(pinned)


def test_hub_file_offline_gives_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hub = HubFile(repo_id="nobody/nothing", filename="f.json", revision="abc1234")
    with pytest.raises(DataError, match=r"hf://datasets/nobody/nothing@abc1234/f.json.*data_path"):
        resolve_data(hub)


def test_hub_folder_offline_gives_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hub = HubFolder(repo_id="nobody/nothing", pattern="Some/*/data.json", revision="abc1234")
    with pytest.raises(DataError, match=r"hf://datasets/nobody/nothing@abc1234/Some/\*/data.json"):
        resolve_data(hub)


def test_invalid_json_names_file_and_position(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"a": 1},\n {"a": }]')
    with pytest.raises(DataError, match=r"bad.json: invalid JSON at line 2 column"):
        read_json(bad)


def test_jsonl_accepts_bare_nan_and_names_bad_line(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text('{"x": NaN}\n\n{"x": 1}\n')
    records = read_jsonl(good)
    assert len(records) == 2 and records[0]["x"] != records[0]["x"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"x": 1}\n{"x": \n')
    with pytest.raises(DataError, match="bad.jsonl: line 2: invalid JSON"):
        read_jsonl(bad)


def test_csv_rows_are_text_and_errors_name_the_file(tmp_path: Path) -> None:
    good = tmp_path / "good.csv"
    good.write_text('id,title\n1,"a, quoted title"\n2,\n', encoding="utf-8")
    assert read_csv(good) == [{"id": "1", "title": "a, quoted title"}, {"id": "2", "title": ""}]
    with pytest.raises(DataError, match=r"missing.csv: cannot read CSV: .*No such file"):
        read_csv(tmp_path / "missing.csv")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("id,title\n1,caf\xe9\n".encode("latin-1"))
    with pytest.raises(DataError, match="latin.csv: cannot read CSV"):
        read_csv(latin)


def test_missing_jsonl_is_a_data_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"absent.jsonl: cannot read: No such file"):
        read_jsonl(tmp_path / "absent.jsonl")


class _Record(BaseModel):
    name: str
    values: list[int]


def test_validate_records_names_record_index_and_field() -> None:
    records = [{"name": "a", "values": [1]}, {"name": "b", "values": ["x"]}]
    with pytest.raises(DataError, match=r"src.json: record 1: field 'values\[0\]'"):
        validate_records(records, _Record, "src.json")
    with pytest.raises(DataError, match=r"record 0: field 'name': Field required"):
        validate_records([{"values": []}], _Record, "src.json")
    with pytest.raises(DataError, match="expected a JSON list of records, got dict"):
        validate_records({"name": "a"}, _Record, "src.json")
    assert (
        validate_records(json.loads('[{"name": "a", "values": []}]'), _Record, "s")[0].name == "a"
    )
