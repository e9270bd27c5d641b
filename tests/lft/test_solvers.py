"""Follow-ups: static revision requests, critic-then-revise, rubric nudges."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalSample, resolve_sample_attachments
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser, Model
from inspect_ai.solver import Solver, TaskState, generate, system_message

from research_taste_evals.lft.nudges import LevelOf, nudge
from research_taste_evals.lft.prompts import CRITIC_SYSTEM, NUDGE_SYSTEM, STATIC_FOLLOWUPS
from research_taste_evals.lft.solvers import critique_followups, followup_solver, static_followups
from research_taste_evals.lft.turns import NUDGE_METADATA_KEY

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
PROMPT = "Plan the experiment."
SECRET = "SYSTEM-ONLY CONTEXT"


def answer_number(messages: list[ChatMessage]) -> str:
    """The evaluated model: answer k says 'ANSWER k' (k = assistant turns so far + 1)."""
    return f"ANSWER {sum(isinstance(m, ChatMessageAssistant) for m in messages) + 1}"


def run(solvers: list[Solver], model: Model, roles: dict[str, Model] | None = None) -> EvalSample:
    task = Task(
        dataset=[Sample(input=PROMPT, id="s1")],
        solver=[system_message(SECRET), generate(), *solvers],
    )
    log = inspect_eval(task, model=model, model_roles=roles, display="none")[0]
    assert log.status == "success", log.error
    assert log.samples is not None
    return resolve_sample_attachments(log.samples[0])


def test_static_followups_cycle_through_the_fixed_requests(scripted_model: ScriptedModel) -> None:
    rounds = len(STATIC_FOLLOWUPS) + 1
    sample = run([static_followups(rounds)], scripted_model(answer_number))
    requests = [m for m in sample.messages if isinstance(m, ChatMessageUser)][1:]
    assert [m.text for m in requests] == [*STATIC_FOLLOWUPS, STATIC_FOLLOWUPS[0]]
    assert [m.metadata for m in requests][0] == {"followup": "static", "round": 1}
    assert sample.output.completion == f"ANSWER {rounds + 1}"


def test_critique_shows_critic_and_revision_turns(scripted_model: ScriptedModel) -> None:
    critic_inputs: list[list[ChatMessage]] = []

    def critic(messages: list[ChatMessage]) -> str:
        critic_inputs.append(messages)
        return f"CRITIQUE of {messages[-1].text.split('<solution>')[1].split()[0:2]}"

    sample = run(
        [critique_followups(2)],
        scripted_model(answer_number),
        roles={"critic": scripted_model(critic)},
    )
    texts = [(m.role, m.text) for m in sample.messages]
    assert [role for role, _ in texts] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
    ]
    assert "CRITIQUE of ['ANSWER', '1']" in texts[3][1]
    assert "CRITIQUE of ['ANSWER', '2']" in texts[5][1]
    assert texts[4][1] == "ANSWER 2" and texts[6][1] == "ANSWER 3"
    assert sample.messages[3].metadata is not None
    assert sample.messages[3].metadata["followup"] == "critique"
    # The critic's own calls are model events with its critique as output.
    critic_events = [
        e for e in sample.events if isinstance(e, ModelEvent) and "CRITIQUE" in e.output.completion
    ]
    assert len(critic_events) == 2
    # No external information: the critic sees its own system prompt, the task and the answer.
    for messages in critic_inputs:
        assert messages[0].text == CRITIC_SYSTEM
        assert all(SECRET not in m.text for m in messages)
        assert PROMPT in messages[1].text


def test_critic_defaults_to_the_evaluated_model(scripted_model: ScriptedModel) -> None:
    seen_critic_prompt: list[bool] = []

    def model(messages: list[ChatMessage]) -> str:
        if messages[0].text == CRITIC_SYSTEM:
            seen_critic_prompt.append(True)
            return "SELF-CRITIQUE"
        return answer_number(messages)

    sample = run([critique_followups(1)], scripted_model(model))
    assert seen_critic_prompt == [True]
    assert "SELF-CRITIQUE" in sample.messages[3].text
    assert sample.output.completion == "ANSWER 2"


def test_empty_critique_ends_the_rounds_and_is_recorded(scripted_model: ScriptedModel) -> None:
    sample = run(
        [critique_followups(3)],
        scripted_model(answer_number),
        roles={"critic": scripted_model(lambda m: "   ")},
    )
    assert sample.output.completion == "ANSWER 1"
    assert sample.metadata["critique_failed_round"] == 1


def levels_from(sequence: list[int | None]) -> LevelOf:
    values: Iterator[int | None] = iter(sequence)

    async def level_of(state: TaskState) -> int | None:
        return next(values)

    return level_of


def test_nudges_until_the_top_level(scripted_model: ScriptedModel) -> None:
    shown: list[str] = []

    def critic(messages: list[ChatMessage]) -> str:
        assert messages[0].text == NUDGE_SYSTEM
        shown.append(messages[-1].text)
        return "HINT"

    sample = run(
        [nudge(levels_from([4, 7, 10]), lambda state, level: f"NEXT AFTER {level}", 5)],
        scripted_model(answer_number),
        roles={"critic": scripted_model(critic)},
    )
    assert sample.metadata[NUDGE_METADATA_KEY] == {
        "levels": [4, 7, 10],
        "nudges": 2,
        "reached_top": True,
        "nudges_to_top": 2,
        "nudges_to_top_capped": 2,
        "max_nudges": 5,
        "grading_failed": False,
    }
    assert "NEXT AFTER 4" in shown[0] and "level 4 of 10" in shown[0]
    assert "NEXT AFTER 7" in shown[1] and "ANSWER 2" in shown[1]
    assert "HINT" in sample.messages[3].text and sample.output.completion == "ANSWER 3"


def test_nudges_are_capped(scripted_model: ScriptedModel) -> None:
    sample = run(
        [nudge(levels_from([3, 3, 3]), lambda state, level: "req", 2)],
        scripted_model(answer_number),
    )
    record = sample.metadata[NUDGE_METADATA_KEY]
    assert record["levels"] == [3, 3, 3]  # the answer after the last nudge is graded too
    assert record["nudges"] == 2 and record["reached_top"] is False
    assert record["nudges_to_top"] is None and record["nudges_to_top_capped"] == 2


def test_failed_grading_ends_the_nudges_and_is_not_level_zero(
    scripted_model: ScriptedModel,
) -> None:
    sample = run(
        [nudge(levels_from([2, None]), lambda state, level: "req", 5)],
        scripted_model(answer_number),
    )
    record = sample.metadata[NUDGE_METADATA_KEY]
    assert record["levels"] == [2] and record["nudges"] == 1
    assert record["grading_failed"] is True and record["reached_top"] is False


def test_followup_solver_dispatch_and_bad_arguments() -> None:
    assert followup_solver("none") == []
    assert len(followup_solver("static", 2)) == 1
    with pytest.raises(ValueError, match="needs level_of and requirements_of"):
        followup_solver("nudge")
    with pytest.raises(ValueError, match="followup must be one of"):
        followup_solver("sometimes")
    with pytest.raises(ValueError, match="followup_rounds must be >= 1"):
        static_followups(0)
    with pytest.raises(ValueError, match="max_nudges must be >= 0"):
        nudge(levels_from([]), lambda s, level: "", -1)
