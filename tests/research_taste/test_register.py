"""``research-taste register``: each family's inspect_evals register entry, from its eval.yaml.

The entries validate as ``inspect_evals.metadata.ExternalEvalMetadata``; an entry is written
only when the family names its arXiv paper and pins every asset (each family is checked from
its folder, none named here).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_evals.metadata import AssetState, ExternalEvalMetadata

from research_taste import register as register_module
from research_taste.cli import main
from research_taste.register import (
    checked_out_commit,
    problems,
    register_entry,
    validated,
    write_entries,
)
from research_taste.reporting.families import family_eval_yamls
from research_taste_evals.core.data import DataError
from research_taste_evals.core.families import families

ROOT = Path(__file__).resolve().parents[2]
COMMIT = "0123456789abcdef0123456789abcdef01234567"
REPOSITORY = "https://github.com/example/research_taste_evals"
FAMILIES = [family.name for family in families()]


def _family(name: str) -> Any:
    return next(family for family in families() if family.name == name)


@pytest.mark.parametrize("name", FAMILIES)
def test_each_family_s_entry_validates_as_external_eval_metadata(name: str) -> None:
    data = family_eval_yamls()[name]
    entry = register_entry(_family(name), data, REPOSITORY, COMMIT)
    metadata = ExternalEvalMetadata.model_validate({**entry, "id": name})
    assert [task.name for task in metadata.tasks] == list(_family(name).tasks)
    assert metadata.source.repository_commit == COMMIT
    assert "\n" not in metadata.description
    for task in metadata.tasks:  # the path names the file that defines the @task function
        assert task.task_path is not None
        source = (ROOT / task.task_path).read_text(encoding="utf-8")
        assert f"def {task.name}(" in source, task.task_path
    versions = entry["metadata"]["extras"]["task_versions"]
    assert set(versions) == set(_family(name).tasks)


@pytest.mark.parametrize("name", FAMILIES)
def test_a_written_entry_names_only_pinned_assets_or_the_family_is_refused(
    name: str, tmp_path: Path
) -> None:
    reasons = problems(name, family_eval_yamls()[name])
    if reasons:  # not ready: every reason in the one sentence, nothing written
        with pytest.raises(DataError) as refused:
            write_entries(tmp_path, REPOSITORY, COMMIT, [name])
        assert all(reason in str(refused.value) for reason in reasons)
        assert not list(tmp_path.iterdir())
        return
    (written,) = write_entries(tmp_path, REPOSITORY, COMMIT, [name])
    assert written == tmp_path / name / "eval.yaml"
    entry = yaml.safe_load(written.read_text(encoding="utf-8"))
    metadata = ExternalEvalMetadata.model_validate({**entry, "id": name})
    assert metadata.arxiv is not None and str(metadata.arxiv).startswith("https://arxiv.org/")
    states = [asset["state"] for asset in entry["metadata"]["extras"]["external_assets"]]
    assert all(state in (AssetState.PINNED, AssetState.CONTROLLED) for state in states)


def _with(name: str, **changes: Any) -> dict[str, dict[str, Any]]:
    return {**family_eval_yamls(), name: {**family_eval_yamls()[name], **changes}}


def test_an_unpinned_asset_is_refused_naming_the_file_and_field(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    name = FAMILIES[0]
    floating = {
        "type": "huggingface",
        "source": "someone/some-data",
        "fetch_method": "hf_hub_download",
        "state": "floating",
    }
    yamls = _with(name, arxiv="https://arxiv.org/abs/2410.22394", external_assets=[floating])
    monkeypatch.setattr(register_module, "family_eval_yamls", lambda: yamls)
    with pytest.raises(DataError, match=rf"{name}/eval.yaml: field 'external_assets.0' "):
        write_entries(tmp_path, REPOSITORY, COMMIT, [name])
    assert not list(tmp_path.iterdir())


def test_a_missing_arxiv_url_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    name = FAMILIES[0]
    yamls = _with(name, arxiv=None, external_assets=[])
    monkeypatch.setattr(register_module, "family_eval_yamls", lambda: yamls)
    with pytest.raises(DataError, match=rf"{name}/eval.yaml: field 'arxiv' is missing"):
        write_entries(tmp_path, REPOSITORY, COMMIT, [name])


def test_an_invalid_entry_is_one_sentence_naming_the_field() -> None:
    name = FAMILIES[0]
    entry = register_entry(_family(name), family_eval_yamls()[name], REPOSITORY, COMMIT)
    with pytest.raises(DataError, match=r"register entry .*: field 'source.repository_url'"):
        validated(name, {**entry, "source": {**entry["source"], "repository_url": "not a url"}})


@pytest.mark.parametrize("commit", ["abc123", COMMIT.upper(), COMMIT + "0"])
def test_the_commit_is_a_full_sha(commit: str, tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"--commit .*: expected the full 40-character"):
        write_entries(tmp_path, REPOSITORY, commit, FAMILIES[:1])


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_checked_out_commit_of_a_clean_tree_only(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"is not in a git checkout.*--commit"):
        checked_out_commit(tmp_path)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "test@example.com")
    _git(tmp_path, "config", "user.name", "test")
    (tmp_path / "a.txt").write_text("a", encoding="utf-8")
    _git(tmp_path, "add", "a.txt")
    _git(tmp_path, "commit", "-q", "-m", "a")
    assert checked_out_commit(tmp_path) == _git(tmp_path, "rev-parse", "HEAD")
    (tmp_path / "a.txt").write_text("changed", encoding="utf-8")
    with pytest.raises(DataError, match=r"1 uncommitted change\(s\) \(first: M a.txt\)"):
        checked_out_commit(tmp_path)


def test_the_command_writes_the_entries_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ready = [name for name in FAMILIES if not problems(name, family_eval_yamls()[name])]
    assert ready, "no family is ready to register"
    arguments = ["register", "--out", str(tmp_path), "--commit", COMMIT]
    arguments += ["--repository", REPOSITORY, *(f"--family={name}" for name in ready)]
    assert main(arguments) == 0
    assert sorted(path.parent.name for path in tmp_path.glob("*/eval.yaml")) == sorted(ready)
    assert capsys.readouterr().out.splitlines() == [
        str(tmp_path / name / "eval.yaml") for name in FAMILIES if name in ready
    ]
    assert main([*arguments, "--family", "nonsense"]) == 2
    assert "--family nonsense: no such family" in capsys.readouterr().err


def test_an_invalid_asset_names_its_place_in_the_entry() -> None:
    name = FAMILIES[0]
    entry = register_entry(_family(name), family_eval_yamls()[name], REPOSITORY, COMMIT)
    entry["metadata"]["extras"]["external_assets"] = [{"type": "nonsense"}]
    with pytest.raises(DataError, match=r"field 'metadata.extras.external_assets.0.type'"):
        validated(name, entry)
