"""Each family's eval.yaml is valid register metadata and agrees with the registered tasks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_evals.metadata import InternalEvalMetadata

from research_taste.cli.demo import DEMO_RUNS
from research_taste.reporting.families import family_eval_yamls, task_specs
from research_taste_evals._registry import TASKS
from research_taste_evals.core.data import CACHE_DIR_ENV
from research_taste_evals.core.families import families

TASK_VERSION = re.compile(r"^\d+-[A-Z]$")  # inspect_evals' "N-X" scheme


def test_every_family_has_valid_register_metadata() -> None:
    yamls = family_eval_yamls()
    # the family folders (core/families.py), found without a list
    assert list(yamls) == [family.name for family in families()]
    for family, data in yamls.items():
        metadata = InternalEvalMetadata.model_validate({**data, "id": family})
        assert str(metadata.version) == data["version"]


def test_eval_yaml_tasks_are_exactly_the_registered_tasks() -> None:
    declared = [spec.task for spec in task_specs().values()]
    assert sorted(declared) == sorted(fn.__name__ for fn in TASKS)
    for spec in task_specs().values():
        module = next(fn for fn in TASKS if fn.__name__ == spec.task).__module__
        assert module.split(".")[1] == spec.family, f"{spec.task} declared in the wrong family"


def _built_versions(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, str]:
    """Each task's version as the task itself sets it (built offline on its family's demo data)."""
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    return {run.name: str(run.build(tmp_path / "demo-data").version) for run in DEMO_RUNS}


def test_eval_yaml_versions_match_the_tasks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    built = _built_versions(monkeypatch, tmp_path)
    declared = {name: spec.version for name, spec in task_specs().items()}
    assert declared == built, "update metadata.extras.tasks.<task>.version in the eval.yaml"
    old_scheme = sorted(name for name, version in built.items() if not TASK_VERSION.match(version))
    assert not old_scheme, f"tasks not on the N-X version scheme: {old_scheme}"
    for family, data in family_eval_yamls().items():
        family_tasks = [spec for spec in task_specs().values() if spec.family == family]
        assert data["version"] in {spec.version for spec in family_tasks}


def test_paper_rows_are_a_model_and_numbers() -> None:
    # An unquoted comma in a flow mapping ({model: a (b, c), ...}) splits the name silently.
    for task, spec in task_specs().items():
        assert spec.paper.results or spec.paper.reason, f"{task}: paper numbers or a reason"
        for row in spec.paper.results:
            figures = {key: value for key, value in row.items() if key != "model"}
            assert isinstance(row.get("model"), str) and figures, (task, row)
            assert all(isinstance(value, int | float) for value in figures.values()), (task, row)
