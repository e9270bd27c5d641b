"""The Inspect behaviours the runtime modules rely on, pinned (CONTRIBUTING, "Inspect
behaviours the package relies on"): an Inspect upgrade that changes one fails here, not in a
user's run."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import Generate, TaskState, solver
from mock_models import scripted_model

OUT = "KWARGS_PROBE_OUT"  # the file the task writes what it received to (Inspect loads this
# file as a module of its own, so a list here would not be the one the test reads)


@task
def named_probe(known: int = 1) -> Task:
    Path(os.environ[OUT]).write_text(json.dumps({"known": known}))
    return Task(dataset=[Sample(input="x", target="y")])


def test_inspect_drops_a_task_argument_the_signature_does_not_take(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``task_create`` passes a task only the names its signature takes (it warns "param ... not
    used by task" for the others) unless it declares ``**kwargs``: no task of the package does,
    so a misspelt -T name is Inspect's to handle."""
    out = tmp_path / "seen.json"
    monkeypatch.setenv(OUT, str(out))
    eval(
        f"{__file__}@named_probe",
        task_args={"known": 2, "varient": "binary"},
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )
    assert json.loads(out.read_text()) == {"known": 2}


def _empty() -> ModelOutput:
    return ModelOutput(model="mockllm/model", choices=[], usage=ModelUsage(total_tokens=1))


@pytest.fixture
def inspect_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def test_inspect_returns_and_caches_a_reply_without_choices(inspect_cache: Path) -> None:
    """``model.generate`` returns a 200 reply with empty ``choices`` as it is and caches it
    (``cache_store`` skips only content-filter stops), and ``cache=False`` asks afresh. Its
    completion is ``""``: the package's parsers count it unparsed (CONTRIBUTING.md)."""
    calls: list[int] = []

    def respond(messages: object) -> ModelOutput | str:
        calls.append(0)
        return _empty() if len(calls) == 1 else "an answer"

    model = scripted_model(respond)
    first = asyncio.run(model.generate("q", cache=True))
    again = asyncio.run(model.generate("q", cache=True))
    assert first.choices == [] and again.choices == [] and len(calls) == 1
    assert asyncio.run(model.generate("q", cache=False)).completion == "an answer"
    assert len(calls) == 2


def test_inspect_generate_sets_the_output_then_fails_on_a_reply_without_choices(
    tmp_path: Path,
) -> None:
    """Inspect's ``generate`` stores the reply in ``state.output`` and then reads its message,
    raising ``IndexError`` with nothing appended: a reply without choices to ``generate()`` fails
    the sample, and the package asks nothing again (CONTRIBUTING.md, "Inspect versions")."""
    seen: dict[str, Any] = {}

    @solver
    def probe():  # type: ignore[no-untyped-def]
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            before, messages = state.output, len(state.messages)
            try:
                await generate(state)
            except IndexError:
                seen.update(
                    replaced=state.output is not before,
                    empty=state.output.choices == [],
                    appended=len(state.messages) - messages,
                )
            return state

        return solve

    model = scripted_model(lambda messages: _empty())
    task = Task(dataset=[Sample(input="q")], solver=probe())
    eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert seen == {"replaced": True, "empty": True, "appended": 0}


FAIL_ONCE = "INSPECT_PIN_FAILED_ONCE"  # a file: the sample's first attempt fails after a call


@solver
def call_then_fail_once():  # type: ignore[no-untyped-def]
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state = await generate(state)
        marker = Path(os.environ[FAIL_ONCE])
        if not marker.exists():
            marker.write_text("failed")
            raise RuntimeError("a malformed body, after the first call finished")
        return await generate(state)

    return solve


def test_a_retried_sample_reads_its_finished_calls_from_the_cache(
    inspect_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``retry_on_error`` runs a failed sample again from its first step; with ``cache=True``
    each call that had finished is read back, not made again (docs/running.md, #23)."""
    monkeypatch.setenv(FAIL_ONCE, str(inspect_cache / "failed-once"))
    prompts: list[str] = []

    def respond(messages: list[Any]) -> str:
        prompts.append(messages[-1].text)
        return f"answer {len(messages)}"

    task = Task(dataset=[Sample(input="q")], solver=call_then_fail_once())
    (log,) = eval(
        task,
        model=scripted_model(respond),
        log_dir=str(inspect_cache / "logs"),
        display="none",
        retry_on_error=1,
        cache=True,
    )
    assert log.status == "success" and log.samples and log.samples[0].error is None
    assert len(log.samples[0].error_retries or []) == 1
    assert prompts == ["q", "answer 1"]  # the first call once, though the sample ran twice


def test_the_evaluated_models_config_holds_the_runs_cache_and_a_turn_can_drop_it(
    inspect_cache: Path,
) -> None:
    """Inside ``solve()``, ``get_model().config.cache`` is the eval's ``cache`` for a model
    Inspect makes from its name (``core.cache_scope.run_cache`` reads it), and
    ``generate(state, cache=False)`` makes an uncached call under ``cache=True``."""
    seen: list[object] = []
    calls: list[int] = []

    @solver
    def turns():  # type: ignore[no-untyped-def]
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            seen.append(get_model().config.cache)
            start = list(state.messages)
            for cache in ({}, {}, {"cache": False}):
                state.messages = list(start)
                state = await generate(state, **cache)
            return state

        return solve

    def respond(messages: object) -> str:
        calls.append(0)
        return "an answer"

    logs = str(inspect_cache / "logs")
    task = Task(dataset=[Sample(input="named")], solver=turns())
    eval(task, model="mockllm/model", log_dir=logs, display="none", cache=True)
    assert seen == [True]
    task = Task(dataset=[Sample(input="counted")], solver=turns())
    eval(task, model=scripted_model(respond), log_dir=logs, display="none", cache=True)
    assert len(calls) == 2  # the second turn read the first one's answer, the third did not
