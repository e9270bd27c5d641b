"""The rubric format: validation errors name file, path and reason; helpers; shipped rubrics."""

from __future__ import annotations

import copy
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml

from research_taste_evals.core.data import DataError, validation_location
from research_taste_evals.lft.grader import grading_prompt
from research_taste_evals.lft.rubric import (
    DEFAULT_RUBRIC_DIR,
    MAX_LEVEL,
    TOP_LEVEL,
    Rubric,
    load_rubric,
    load_rubrics,
    parse_rubric,
)

SHIPPED_AI_TASKS = {"loss-spike-hypotheses", "ablation-plan", "contamination-audit"}


def rubric_dict(task_id: str = "toy") -> dict[str, Any]:
    """A valid rubric: level k has k criteria worth 1, 2, 3, 4, 1, ... points (hand-countable)."""
    levels = []
    for level in range(1, MAX_LEVEL + 1):
        criteria = [
            {"id": f"l{level}c{i}", "text": f"criterion {i} of level {level}", "points": 1 + i % 4}
            for i in range(level)
        ]
        levels.append({"level": level, "criteria": criteria})
    return {
        "task_id": task_id,
        "title": "Toy",
        "domain": "testing",
        "prompt": "Do it.",
        "levels": levels,
    }


def write(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def load_error(tmp_path: Path, data: Any) -> str:
    file = write(tmp_path / "bad.yaml", data)
    with pytest.raises(DataError) as caught:
        load_rubric(file)
    message = str(caught.value)
    assert message.startswith(f"{file.resolve()}: "), message  # always names the file
    return message


# --- the four malformed cases of the issue, each with file + path + reason ---------------------


def test_missing_level_names_file_path_and_reason(tmp_path: Path) -> None:
    data = rubric_dict()
    del data["levels"][4]
    message = load_error(tmp_path, data)
    assert message.endswith(": levels: missing level(s) 5: a rubric needs every level 1..10")


def test_missing_top_level_is_also_caught(tmp_path: Path) -> None:
    data = rubric_dict()
    data["levels"] = data["levels"][:9]
    assert "levels: missing level(s) 10" in load_error(tmp_path, data)


@pytest.mark.parametrize("points", [0, 5, -1])
def test_points_outside_one_to_four(tmp_path: Path, points: int) -> None:
    data = rubric_dict()
    data["levels"][3]["criteria"][1]["points"] = points
    message = load_error(tmp_path, data)
    assert ": levels[3].criteria[1].points: Input should be " in message
    assert f"(got {points})" in message


def test_duplicate_criterion_ids_across_levels(tmp_path: Path) -> None:
    data = rubric_dict()
    data["levels"][6]["criteria"][2]["id"] = "l2c0"
    message = load_error(tmp_path, data)
    assert message.endswith(
        ": levels[6].criteria[2].id: duplicate criterion id 'l2c0' "
        "(first used at levels[1].criteria[0].id)"
    )


def test_levels_out_of_order(tmp_path: Path) -> None:
    data = rubric_dict()
    data["levels"][2], data["levels"][3] = data["levels"][3], data["levels"][2]
    message = load_error(tmp_path, data)
    assert ": levels[2].level: levels out of order: expected level 3 here, got 4" in message


# --- further bad input ----------------------------------------------------------------------------


def test_duplicate_level_number(tmp_path: Path) -> None:
    data = rubric_dict()
    data["levels"][5]["level"] = 5
    assert ": levels[5].level: duplicate level 5 (already given at levels[4])" in load_error(
        tmp_path, data
    )


def test_level_outside_one_to_ten(tmp_path: Path) -> None:
    data = rubric_dict()
    data["levels"][9]["level"] = 11
    assert ": levels[9].level: Input should be less than or equal to 10 (got 11)" in load_error(
        tmp_path, data
    )


def test_level_without_criteria(tmp_path: Path) -> None:
    data = rubric_dict()
    data["levels"][0]["criteria"] = []
    assert ": levels[0].criteria: List should have at least 1 item" in load_error(tmp_path, data)


def test_misspelt_key_is_an_error_not_an_empty_list(tmp_path: Path) -> None:
    data = rubric_dict()
    data["levels"][1]["criterias"] = data["levels"][1].pop("criteria")
    message = load_error(tmp_path, data)
    assert "levels[1].criteria: Field required" in message


@pytest.mark.parametrize(
    "document",
    [{"title": "neither"}, {"title": "both", "text": "x", "path": "x.txt"}],
)
def test_context_document_needs_exactly_one_source(tmp_path: Path, document: dict) -> None:
    data = rubric_dict()
    data["context_documents"] = [{"title": "ok", "text": "fine"}, document]
    assert ": context_documents[1]: give exactly one of 'text' and 'path'" in load_error(
        tmp_path, data
    )


def test_context_document_path_must_exist(tmp_path: Path) -> None:
    data = rubric_dict()
    data["context_documents"] = [{"title": "paper", "path": "docs/missing.txt"}]
    assert ": context_documents[0].path: no such file " in load_error(tmp_path, data)


def test_block_list_takes_bare_domains(tmp_path: Path) -> None:
    data = rubric_dict()
    data["web_block_list"] = ["example.org", "https://leak.example.com/rubric"]
    assert ": web_block_list[1]: 'https://leak.example.com/rubric' is not a bare domain" in (
        load_error(tmp_path, data)
    )


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    file = tmp_path / "broken.yaml"
    file.write_text("task_id: x\nlevels: [1, 2\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"broken.yaml: invalid YAML at line \d+ column \d+"):
        load_rubric(file)


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    assert "expected a mapping at the top level, got list" in load_error(tmp_path, [1, 2])


def test_format_location() -> None:
    location = validation_location(("levels", 3, "criteria", 1, "points"), TOP_LEVEL)
    assert location == "levels[3].criteria[1].points"
    assert validation_location((), TOP_LEVEL) == "<top level>"


# --- helpers ---------------------------------------------------------------------------------


def test_flattened_total_and_cumulative_criteria() -> None:
    rubric = parse_rubric(rubric_dict(), "toy")
    flat = rubric.flattened_criteria()
    assert len(flat) == sum(range(1, 11)) == 55
    # Level k holds k criteria worth 1,2,3,4,1,...: per level 1,3,6,10,11,13,16,20,21,23.
    assert rubric.total_points() == 124
    assert rubric.criteria_up_to(0) == []
    assert [c.id for c in rubric.criteria_up_to(2)] == ["l1c0", "l2c0", "l2c1"]
    assert rubric.criteria_up_to(MAX_LEVEL) == flat
    with pytest.raises(ValueError, match="level must be in 0..10"):
        rubric.criteria_up_to(11)
    assert levels_by_id(rubric)["l7c3"] == 7


def test_content_hash_is_stable_and_tracks_content() -> None:
    first = parse_rubric(rubric_dict(), "a").content_hash()
    assert parse_rubric(rubric_dict(), "b").content_hash() == first
    changed = rubric_dict()
    changed["levels"][0]["criteria"][0]["text"] = "reworded"
    assert parse_rubric(changed, "c").content_hash() != first


def test_document_path_is_relative_to_the_rubric_file(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "paper.txt").write_text("PAPER TEXT", encoding="utf-8")
    data = rubric_dict()
    data["context_documents"] = [{"title": "A paper", "path": "docs/paper.txt"}]
    rubric = load_rubric(write(tmp_path / "task.yaml", data))
    assert rubric.context_documents[0].content() == "PAPER TEXT"


# --- directories --------------------------------------------------------------------------------


def test_load_rubrics_selects_and_rejects(tmp_path: Path) -> None:
    write(tmp_path / "b.yaml", rubric_dict("beta"))
    write(tmp_path / "a.yml", rubric_dict("alpha"))
    (tmp_path / "notes.txt").write_text("ignored", encoding="utf-8")
    assert [r.task_id for r in load_rubrics(tmp_path)] == ["alpha", "beta"]
    assert [r.task_id for r in load_rubrics(tmp_path, ["beta"])] == ["beta"]
    with pytest.raises(DataError, match=r"unknown task id\(s\) \['gamma'\]; known: \['alpha'"):
        load_rubrics(tmp_path, ["gamma"])
    write(tmp_path / "c.yaml", rubric_dict("alpha"))
    with pytest.raises(DataError, match=r"c.yaml: task_id: 'alpha' is already used by .*a.yml"):
        load_rubrics(tmp_path)


def test_load_rubrics_on_empty_or_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no rubric files"):
        load_rubrics(tmp_path)
    with pytest.raises(DataError, match="rubric directory does not exist"):
        load_rubrics(tmp_path / "nope")


# --- shipped rubrics ----------------------------------------------------------------------------


def test_shipped_rubrics_are_packaged_and_valid() -> None:
    packaged = files("research_taste_evals.lft").joinpath("rubrics")
    names = {entry.name for entry in packaged.iterdir()}
    assert {"petunia_plastid.yaml", "context"} <= names
    rubrics = {r.task_id: r for r in load_rubrics()}
    assert DEFAULT_RUBRIC_DIR.is_dir()
    assert {"petunia-plastid", *SHIPPED_AI_TASKS} <= set(rubrics)
    for rubric in rubrics.values():
        assert [level.level for level in rubric.levels] == list(range(1, 11))
        assert rubric.context_documents, f"{rubric.task_id} has no context documents"
        assert all(doc.content().strip() for doc in rubric.context_documents)
        assert rubric.sources, f"{rubric.task_id} names no sources"
        # Partial credit must discriminate: not every criterion worth the same.
        assert len({c.points for c in rubric.flattened_criteria()}) >= 3


def levels_by_id(rubric: Rubric) -> dict[str, int]:
    """Criterion id -> the level that introduces it."""
    return {c.id: level.level for level in rubric.levels for c in level.criteria}


def petunia() -> Rubric:
    return load_rubrics(task_ids=["petunia-plastid"])[0]


def test_petunia_rubric_follows_the_public_facts() -> None:
    rubric = petunia()
    level_one = " ".join(c.text for c in rubric.criteria_up_to(1))
    assert "EPSPS" in level_one and "plastid" in level_one and "maternally" in level_one
    text = " ".join(c.text for c in rubric.flattened_criteria())
    for fact in (
        "CP4",
        "accD-rbcL",
        "aadA",
        "biolistic",
        "homoplasmy",
        "Southern blot",
        "3 per million",
        "Pink Wave",
    ):
        assert fact in text, fact
    # The report's human-validation lesson: a generic vector must not pass.
    level_of = levels_by_id(rubric)
    by_id = {c.id: c for c in rubric.flattened_criteria()}
    assert level_of["petunia-named-vector"] == 5 and "generic" in by_id["petunia-named-vector"].text


FEASIBLE = 5
LOWEST_LEVEL_FOR_ONE_POINT = 9  # 1-point items must not gate what a working plan needs


def test_gating_review_of_the_shipped_rubrics() -> None:
    rubrics = {r.task_id: r for r in load_rubrics()}
    for rubric in rubrics.values():
        level_of = levels_by_id(rubric)
        blocking = [
            c.id
            for c in rubric.flattened_criteria()
            if c.points == 1 and level_of[c.id] < LOWEST_LEVEL_FOR_ONE_POINT
        ]
        assert blocking == [], rubric.task_id
    petunia_levels = levels_by_id(rubrics["petunia-plastid"])
    petunia_criteria = {c.id: c for c in rubrics["petunia-plastid"].flattened_criteria()}
    # Homoplasmy is part of the feasible route; valid alternatives are not hard gates.
    assert petunia_levels["petunia-homoplasmy"] <= FEASIBLE
    assert "PEG" in " ".join(petunia_criteria["petunia-biolistics"].alternatives)
    assert petunia_criteria["petunia-aada-selection"].alternatives
    # The contamination rubric no longer demands at level 4 what its level 8 calls near chance.
    audit = levels_by_id(rubrics["contamination-audit"])
    assert audit["cont-likelihood-signals"] >= audit["cont-method-limits"]


def test_alternatives_reach_the_grading_prompt() -> None:
    prompt = grading_prompt(petunia(), "x")
    assert "Also meets [petunia-biolistics]: PEG-mediated transformation" in prompt


def test_petunia_rubric_names_no_vector() -> None:
    """No plasmid-style name (pXY123, pABC-D) anywhere: no listed source names a vector."""
    raw = (DEFAULT_RUBRIC_DIR / "petunia_plastid.yaml").read_text(encoding="utf-8")
    raw += (DEFAULT_RUBRIC_DIR / "context" / "petunia_plastid_digest.md").read_text(
        encoding="utf-8"
    )
    assert re.findall(r"\bp[A-Z][A-Za-z]*-?[A-Za-z]*\d", raw) == []


def test_a_copy_of_a_valid_rubric_stays_valid(tmp_path: Path) -> None:
    data = copy.deepcopy(rubric_dict())
    data["web_block_list"] = ["example.org"]
    assert load_rubric(write(tmp_path / "ok.yaml", data)).web_block_list == ["example.org"]
