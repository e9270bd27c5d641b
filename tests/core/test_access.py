"""Information access: base / web (web_search + block list) / context (documents in system)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalSample, resolve_sample_attachments
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.solver import TaskState, generate, system_message

from research_taste_evals.core.access import (
    BLOCK_LIST_LIMITS,
    CONTEXT_ACCESS_INSTRUCTION,
    DEFAULT_WEB_PROVIDERS,
    WEB_ACCESS_INSTRUCTION,
    Access,
    Document,
    append_to_system_message,
    information_access,
    render_documents,
    web_search_providers,
)

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
DOCS = [Document("Paper one", "ALPHA BODY"), Document("Paper two", "BETA BODY")]
BLOCKED = ["leak.example.org"]


def run(access: Access, model: Model, documents: list[Document] | None = None) -> EvalSample:
    task = Task(
        dataset=[Sample(input="Plan the experiment.", id="s1")],
        solver=[
            system_message("You are helpful."),
            information_access(
                access,
                documents_of=(lambda state: documents or []) if documents is not None else None,
                block_list_of=lambda state: BLOCKED,
            ),
            generate(),
        ],
    )
    log = inspect_eval(task, model=model, display="none")[0]
    assert log.status == "success", log.error
    assert log.samples is not None
    return resolve_sample_attachments(log.samples[0])


def model_events(sample: EvalSample) -> list[ModelEvent]:
    return [event for event in sample.events if isinstance(event, ModelEvent)]


def test_context_puts_every_document_in_the_one_system_message(
    scripted_model: ScriptedModel,
) -> None:
    sample = run("context", scripted_model(lambda m: "plan"), DOCS)
    (event,) = model_events(sample)
    systems = [m for m in event.input if isinstance(m, ChatMessageSystem)]
    assert len(systems) == 1
    text = systems[0].text
    assert text.startswith("You are helpful.\n\n" + CONTEXT_ACCESS_INSTRUCTION)
    assert '<document title="Paper one">\nALPHA BODY\n</document>' in text
    assert "BETA BODY" in text
    assert "ALPHA BODY" not in event.input[-1].text  # in the system message, not the prompt
    assert event.tools == []


def test_web_offers_web_search_with_the_block_list(scripted_model: ScriptedModel) -> None:
    sample = run("web", scripted_model(lambda m: "plan"))
    (event,) = model_events(sample)
    assert [tool.name for tool in event.tools] == ["web_search"]
    options = event.tools[0].options or {}
    assert options["anthropic"] == {"blocked_domains": BLOCKED}
    assert options["grok"] == {"excluded_domains": BLOCKED}
    assert options["tavily"] == {"exclude_domains": BLOCKED}
    assert WEB_ACCESS_INSTRUCTION in event.input[0].text


def test_base_adds_nothing(scripted_model: ScriptedModel) -> None:
    sample = run("base", scripted_model(lambda m: "plan"), DOCS)
    (event,) = model_events(sample)
    assert event.tools == []
    assert [m.text for m in event.input] == ["You are helpful.", "Plan the experiment."]


def test_context_sample_without_documents_fails(scripted_model: ScriptedModel) -> None:
    task = Task(
        dataset=[Sample(input="x", id="s1")],
        solver=[information_access("context", documents_of=lambda s: []), generate()],
    )
    log = inspect_eval(task, model=scripted_model(lambda m: "plan"), display="none")[0]
    assert log.status == "error"
    assert log.error is not None and "no documents" in log.error.message


def test_web_search_providers_maps_the_block_list_per_provider() -> None:
    assert web_search_providers([], ["anthropic", "openai"]) == {"anthropic": True, "openai": True}
    assert web_search_providers(["a.org"], ["tavily"]) == {"tavily": {"exclude_domains": ["a.org"]}}
    with pytest.raises(ValueError, match="'openai' cannot exclude domains"):
        web_search_providers(["a.org"], ["anthropic", "openai"])
    with pytest.raises(ValueError, match="at least one search provider"):
        web_search_providers([], [])


def test_grok_blocks_a_short_list_and_is_left_out_of_the_default_for_a_long_one() -> None:
    short = [f"site{i}.org" for i in range(BLOCK_LIST_LIMITS["grok"])]
    long = [*short, "one-too-many.org"]
    assert web_search_providers(short)["grok"] == {"excluded_domains": short}
    # None = every default provider that can honour the list: Grok models go to Tavily.
    assert set(web_search_providers(long)) == {"anthropic", "tavily"}
    with pytest.raises(ValueError, match="'grok' takes at most 5 blocked domains"):
        web_search_providers(long, DEFAULT_WEB_PROVIDERS)
    assert web_search_providers([]) == dict.fromkeys(DEFAULT_WEB_PROVIDERS, True)


def test_bad_arguments_fail_when_the_task_is_built() -> None:
    with pytest.raises(ValueError, match="access must be one of"):
        information_access("internet")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs documents_of"):
        information_access("context")


def test_render_and_append_to_system_message() -> None:
    assert render_documents([Document("T", "body")]) == (
        f'{CONTEXT_ACCESS_INSTRUCTION}\n\n<document title="T">\nbody\n</document>'
    )
    state = TaskState(
        model="m",  # type: ignore[arg-type]
        sample_id=1,
        epoch=1,
        input="hi",
        messages=[ChatMessageUser(content="hi")],
    )
    append_to_system_message(state, "added")
    assert isinstance(state.messages[0], ChatMessageSystem) and state.messages[0].text == "added"
    append_to_system_message(state, "more")
    assert state.messages[0].text == "added\n\nmore" and len(state.messages) == 2
