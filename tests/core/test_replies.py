"""A reply without choices is what Inspect returns, asked no more by the package: through
``generate()`` Inspect fails the sample, through ``Model.generate`` it is an empty completion the
parser counts as unparsed. Every other fault is Inspect's: nothing here retries a provider error.
A re-ask of an unparsed answer has its own cache scope under the run's ``--cache``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage
from inspect_ai.solver import generate
from mock_models import scripted_model, scripted_outputs

from research_taste_evals.core.answers import (
    ATTEMPTS_KEY,
    generate_until_parsed,
    last_parses,
    parse_binary,
    until_parsed,
)


def _empty() -> ModelOutput:
    return ModelOutput(model="mockllm/model", choices=[], usage=ModelUsage(total_tokens=1))


EMPTY = "<a reply without choices>"


class Script:
    """Answers from a list (the last entry again once used up); counts calls. Each reply is a
    new object, as a provider's is."""

    def __init__(self, *steps: str | Exception) -> None:
        self.steps, self.calls = list(steps), 0

    def __call__(self, messages: list[ChatMessage]) -> str | ModelOutput:
        self.calls += 1
        step = self.steps[min(self.calls, len(self.steps)) - 1]
        if isinstance(step, Exception):
            raise step
        return _empty() if step == EMPTY else step


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))


def _run(script: Script, solver: Any, tmp_path: Path, **eval_args: Any) -> Any:
    task = Task(dataset=[Sample(input=f"question {id(script)}")], solver=solver)
    (log,) = eval(
        task,
        model=scripted_model(script),
        log_dir=str(tmp_path / "logs"),
        display="none",
        **eval_args,
    )
    return log


def test_an_empty_reply_to_generate_is_inspects_and_asked_no_more(tmp_path: Path) -> None:
    """Inspect's ``generate()`` fails the sample on a reply without choices (it reads the reply's
    message); the package asks nothing behind the user's back (one call, no re-ask)."""
    script = Script(EMPTY, "never reached")
    log = _run(script, generate(), tmp_path, cache=True)
    assert log.samples and log.samples[0].error is not None and script.calls == 1


def test_a_provider_error_is_not_retried_by_the_package(tmp_path: Path) -> None:
    """Inspect's own retries decide (a RuntimeError is none of its transient errors)."""
    script = Script(RuntimeError("a bug, not a fault"), "never reached")
    log = _run(script, generate(), tmp_path)
    assert log.samples and "a bug" in (log.samples[0].error or {"message": ""}).message  # type: ignore[union-attr]
    assert script.calls == 1


def test_an_empty_reply_to_model_generate_is_an_empty_completion_unparsed(tmp_path: Path) -> None:
    """``Model.generate`` returns a reply without choices as it is: its completion is ``""``,
    which the answer's parser counts as unparsed (and the protocol's re-ask asks again)."""
    script = Script(EMPTY, "1")
    calls = []

    async def attempt(cache: object) -> ModelOutput:
        calls.append(cache)
        return await scripted_model(script).generate("question")

    output, texts = asyncio.run(
        until_parsed(attempt, lambda o: o.completion, last_parses(parse_binary), 1)
    )
    assert texts == ["", "1"] and output.completion == "1" and script.calls == 2
    assert calls == [
        None,
        False,
    ]  # the first ask: the run's --cache; the re-ask: none outside a run


def test_under_the_cache_a_re_ask_is_a_new_call_and_a_rerun_pays_for_none(tmp_path: Path) -> None:
    """A re-ask has its own cache scope: with ``--cache`` on it is asked afresh (not the cached
    unparsed answer read back), and a second run reads both answers from the cache. The model
    is named, as on the command line: Inspect makes it with the run's config."""
    script = Script("not a digit", "1")
    solver = generate_until_parsed(parse_binary, retries=1)
    task = Task(dataset=[Sample(input="a re-asked question")], solver=solver)
    outputs = scripted_outputs(script)
    for _ in range(2):
        (log,) = eval(
            task,
            model="mockllm/model",
            model_args={"custom_outputs": outputs},
            log_dir=str(tmp_path),
            display="none",
            cache=True,
        )
        assert log.samples and log.samples[0].metadata[ATTEMPTS_KEY] == ["not a digit", "1"]
    assert script.calls == 2
