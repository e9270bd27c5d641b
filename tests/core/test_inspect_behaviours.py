"""The Inspect behaviours the runtime modules rely on, pinned (CONTRIBUTING, "Inspect
behaviours the package relies on"): an Inspect upgrade that changes one fails here, not in a
user's run."""

from __future__ import annotations

import inspect as pyinspect
import json
import os
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelAPI, get_model

from research_taste_evals.core.transient import PackageModel, package_view

OUT = "KWARGS_PROBE_OUT"  # the file the task writes what it received to (Inspect loads this
# file as a module of its own, so a list here would not be the one the test reads)


@task
def kwargs_probe(known: int = 1, **kwargs: Any) -> Task:
    Path(os.environ[OUT]).write_text(json.dumps({"known": known, **kwargs}))
    return Task(dataset=[Sample(input="x", target="y")])


def test_inspect_hands_a_task_with_kwargs_every_task_argument_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``task_create`` passes names the signature does not take only to a ``**kwargs`` task
    (core/task_args.refuse_unknown_arguments relies on it to refuse a misspelt -T name)."""
    out = tmp_path / "seen.json"
    monkeypatch.setenv(OUT, str(out))
    eval(
        f"{__file__}@kwargs_probe",
        task_args={"known": 2, "varient": "binary"},
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )
    assert json.loads(out.read_text()) == {"known": 2, "varient": "binary"}


def test_the_view_overrides_only_generate_and_should_retry_of_the_providers_class() -> None:
    """Every other method is the provider's own; both overridden names are ModelAPI's."""
    model = get_model("mockllm/model", memoize=False)
    view = package_view(model)
    provider, seen_as = type(model.api), type(view.api)
    assert issubclass(seen_as, provider) and seen_as is not provider
    assert {name for name in vars(seen_as) if not name.startswith("_")} == {
        "generate",
        "should_retry",
    }
    assert {"generate", "should_retry"} <= set(vars(ModelAPI))
    assert pyinspect.iscoroutinefunction(seen_as.generate)
    assert view.api.__dict__ is model.api.__dict__  # the same provider object: same client


def test_a_view_keeps_the_models_name_role_and_config_and_changes_nothing_of_it() -> None:
    model = get_model("mockllm/model", memoize=False)
    api_before = model.api
    view = package_view(model)
    assert isinstance(view, PackageModel) and view is not model
    assert str(view) == str(model) and view.config == model.config
    assert view.role == model.role
    assert model.api is api_before and type(model) is not PackageModel
    assert package_view(view) is view
