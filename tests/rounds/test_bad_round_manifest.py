"""Issue 52 (items 4, 5): a hand-edited or truncated ``round.json`` is one sentence naming the
file and the field wherever it is read (core/round_manifest.py), before any model call: the
round tasks, ``round resolve``/``score``, the report and a sweep's round glob share the reader.
Before, a text ``opened_at`` or a numeric ``round_id`` was recorded into judgment logs as it was,
and a missing ``label_plan`` crashed the task with a ``KeyError``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from research_taste_evals.core.data import DataError
from research_taste_evals.core.rounds import load_round
from research_taste_evals.tastybench import tastybench_round
from research_taste_evals.tastybench.demo import write_demo_round

Edit = Callable[[dict[str, Any]], None]


def _set(field: str, value: object) -> Edit:
    return lambda manifest: manifest.update({field: value})


def _drop(field: str) -> Edit:
    return lambda manifest: manifest.pop(field)


CASES: list[tuple[str, Edit, str]] = [
    ("opened_at-text", _set("opened_at", "yesterday"), "field 'opened_at' must be an ISO time"),
    ("opened_at-missing", _drop("opened_at"), "field 'opened_at' must be an ISO time"),
    ("judge_by-number", _set("judge_by", 5), "field 'judge_by' must be an ISO time"),
    ("judge_by-before-open", _set("judge_by", "2020-01-01T00:00:00Z"), "must be after opened_at"),
    ("round_id-number", _set("round_id", 5), "field 'round_id' must be a non-empty text"),
    ("round_id-empty", _set("round_id", ""), "field 'round_id' must be a non-empty text"),
    ("name-list", _set("name", []), "field 'name' must be a non-empty text"),
    ("items_sha256-missing", _drop("items_sha256"), "field 'items_sha256' must be the sha256"),
    ("label_plan-missing", _drop("label_plan"), "field 'label_plan' must be an object"),
    ("label_plan-text", _set("label_plan", "goodhart"), "field 'label_plan' must be an object"),
    ("pairs-text", _set("pairs", "four"), "field 'pairs' must be a whole number"),
    ("query-list", _set("query", []), "field 'query' must be an object"),
    ("label_versions-text", _set("label_versions", "v1"), "field 'label_versions' must be a list"),
    ("label_version-no-file", _set("label_versions", [{"version": "v1"}]), "label_versions.0.file"),
    ("not-an-object", lambda manifest: manifest.clear(), "not a JSON object"),
]


@pytest.mark.parametrize(("name", "edit", "named"), CASES, ids=[case[0] for case in CASES])
def test_a_bad_round_manifest_field_is_one_sentence_naming_it(
    tmp_path: Path, name: str, edit: Edit, named: str
) -> None:
    folder = write_demo_round(tmp_path / "round")
    path = folder / "round.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.write_text(json.dumps([] if name == "not-an-object" else manifest))
    for read in (load_round, lambda f: tastybench_round(round=str(f))):
        with pytest.raises(DataError) as raised:
            read(folder)
        message = str(raised.value)
        assert str(path) in message and named in message, message
        assert len(message.splitlines()) == 1


def test_a_round_without_a_prompt_names_the_field(tmp_path: Path) -> None:
    folder = write_demo_round(tmp_path / "round")
    path = folder / "round.json"
    manifest = json.loads(path.read_text())
    del manifest["label_plan"]["prompt"]
    path.write_text(json.dumps(manifest))
    with pytest.raises(DataError, match=r"field 'label_plan\.prompt' is missing"):
        tastybench_round(round=str(folder))


def test_a_round_prompt_the_task_does_not_know_names_the_field_and_the_prompts(
    tmp_path: Path,
) -> None:
    folder = write_demo_round(tmp_path / "round")
    path = folder / "round.json"
    manifest = json.loads(path.read_text())
    manifest["label_plan"]["prompt"] = "nope"
    path.write_text(json.dumps(manifest))
    with pytest.raises(DataError) as raised:
        tastybench_round(round=str(folder))
    message = str(raised.value)
    assert str(path) in message and "field 'label_plan.prompt' is 'nope'" in message
    assert "goodhart" in message and "journal" in message
