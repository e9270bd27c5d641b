"""The Inspect behaviours core/roles.py and core/package_model.py rely on, pinned.

CONTRIBUTING ("Inspect behaviours relied on") names them: an Inspect upgrade that changes one
fails here, not in a user's run.
"""

from __future__ import annotations

import inspect as pyinspect
import json
import os
from pathlib import Path

import pytest
from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelAPI, get_model, model_roles

from research_taste_evals.core.package_model import PackageAPI, PackageModel, package_view
from research_taste_evals.core.roles import EVAL_MODEL_VARIABLE, roles_bound_at_build

OUT = "ROLES_PROBE_OUT"  # the file each build appends what it saw to (Inspect loads this file
# as a module of its own, so a list here would not be the one the test reads)


@task
def probe_task() -> Task:
    seen = [roles_bound_at_build(), sorted(model_roles())]
    with open(os.environ[OUT], "a") as out:
        out.write(json.dumps(seen) + "\n")
    return Task(dataset=[Sample(input="x", target="y")])


def test_roles_are_bound_while_inspect_builds_a_task_by_name_and_not_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(EVAL_MODEL_VARIABLE, raising=False)
    out = tmp_path / "seen.jsonl"
    monkeypatch.setenv(OUT, str(out))
    eval(
        f"{__file__}@probe_task",
        model="mockllm/model",
        model_roles={"grader": "mockllm/model"},
        log_dir=str(tmp_path),
        display="none",
    )
    eval(f"{__file__}@probe_task", model="mockllm/model", log_dir=str(tmp_path), display="none")
    probe_task()  # called directly, after two evals in this process
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    # By name with a role; by name without one (the active model tells); called directly.
    assert seen == [[True, ["grader"]], [True, []], [False, []]]


def test_package_api_overrides_every_public_method_of_model_api() -> None:
    """A method a new Inspect adds to ModelAPI would otherwise take the base behaviour silently
    instead of the provider's."""
    public = {
        name
        for name, member in vars(ModelAPI).items()
        if not name.startswith("_") and callable(member)
    }
    missing = sorted(name for name in public if name not in vars(PackageAPI))
    assert missing == [], f"PackageAPI does not delegate {missing}"


def test_a_view_keeps_the_models_name_role_and_config_and_changes_nothing_of_it() -> None:
    model = get_model("mockllm/model", memoize=False)
    api_before = model.api
    view = package_view(model)
    assert isinstance(view, PackageModel) and view is not model
    assert str(view) == str(model) and view.config == model.config
    assert model.api is api_before and type(model) is not PackageModel
    assert package_view(view) is view
    assert pyinspect.iscoroutinefunction(PackageAPI.generate)
