"""A reply without choices (Inspect caches it as it is): asked once more with ``cache=False``,
counted, and raised when the second has none either (core/calls.py). Every other fault is
Inspect's: nothing here retries a provider error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage
from mock_models import scripted_model, scripted_outputs

from research_taste_evals.core.answers import ATTEMPTS_KEY, generate_until_parsed, parse_binary
from research_taste_evals.core.calls import EMPTY_REASKS_KEY, reply_step


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


@pytest.mark.parametrize("cache", [False, True])
def test_an_empty_reply_is_asked_once_more_uncached_and_counted(
    cache: bool, tmp_path: Path
) -> None:
    script = Script(EMPTY, "the answer")
    log = _run(script, reply_step(), tmp_path, cache=cache)
    assert log.status == "success" and log.samples, log.error
    sample = log.samples[0]
    assert sample.output.completion == "the answer" and script.calls == 2
    assert [m.role for m in sample.messages] == ["user", "assistant"]
    assert sample.store[EMPTY_REASKS_KEY] == 1


def test_a_second_empty_reply_fails_the_sample(tmp_path: Path) -> None:
    script = Script(EMPTY)
    log = _run(script, reply_step(), tmp_path, cache=True)
    assert log.samples and log.samples[0].error is not None
    assert "without choices, twice" in log.samples[0].error.message and script.calls == 2


def test_a_provider_error_is_not_retried_by_the_package(tmp_path: Path) -> None:
    """Inspect's own retries decide (a RuntimeError is none of its transient errors)."""
    script = Script(RuntimeError("a bug, not a fault"), "never reached")
    log = _run(script, reply_step(), tmp_path)
    assert log.samples and "a bug" in (log.samples[0].error or {"message": ""}).message  # type: ignore[union-attr]
    assert script.calls == 1


def test_an_empty_reply_of_a_parsed_answer_counts_as_a_re_ask(tmp_path: Path) -> None:
    script = Script(EMPTY, "1")
    log = _run(script, generate_until_parsed(parse_binary, retries=0), tmp_path, cache=True)
    assert log.samples and log.samples[0].error is None, log.samples
    sample = log.samples[0]
    assert sample.metadata[ATTEMPTS_KEY] == ["", "1"] and script.calls == 2
    assert sample.store[EMPTY_REASKS_KEY] == 1


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
