"""The ``lft`` task end to end: every follow-up and access variant, offline, scripted models."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval as inspect_eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, EvalSample, resolve_sample_attachments
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, Model

from research_taste_evals.core.task_metric import log_results
from research_taste_evals.lft.baselines import GENERIC_PROTOCOL
from research_taste_evals.lft.lft import lft
from research_taste_evals.lft.prompts import (
    CRITIC_SYSTEM,
    LFT_SYSTEM,
    NUDGE_SYSTEM,
    STATIC_FOLLOWUPS,
)
from research_taste_evals.lft.rubric import DEFAULT_RUBRIC_DIR

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
PETUNIA = "petunia-plastid"
DIGEST_LINE = "Stable transformation\nof petunia plastids"  # from the petunia context document
_ANSWER = re.compile(r"<solution>\s*ANSWER (\d+)")


def answer_number(messages: list[ChatMessage]) -> str:
    """The evaluated model: its k-th answer is 'ANSWER k'; as critic it says CRITIQUE/HINT."""
    if messages[0].text == CRITIC_SYSTEM:
        return "CRITIQUE: the plan lacks a selection step."
    if messages[0].text == NUDGE_SYSTEM:
        return "HINT: think about selection."
    return f"ANSWER {sum(isinstance(m, ChatMessageAssistant) for m in messages) + 1}"


def grader_by_answer(levels: dict[int, int]) -> Callable[[list[ChatMessage]], str]:
    """A grader giving answer k the level ``levels[k]`` (reads the solution in its prompt)."""

    def grade(messages: list[ChatMessage]) -> str:
        match = _ANSWER.search(messages[-1].text)
        level = levels[int(match.group(1))] if match else 0
        payload = f'{{"level": {level}, "criteria_met": [], "rationale": "r"}}'
        return f"Stepping through.\n```json\n{payload}\n```"

    return grade


def run(
    scripted_model: ScriptedModel,
    grader_levels: dict[int, int] | None = None,
    critic: Model | None = None,
    **params: Any,
) -> tuple[EvalLog, EvalSample]:
    roles: dict[str, Model] = {
        "grader": scripted_model(grader_by_answer(grader_levels or {1: 3, 2: 5, 3: 6}))
    }
    if critic is not None:
        roles["critic"] = critic
    params.setdefault("task_ids", PETUNIA)
    params.setdefault("grader_repeats", 2)
    log = inspect_eval(
        lft(**params), model=scripted_model(answer_number), model_roles=roles, display="none"
    )[0]
    assert log.status == "success", log.error
    assert log.samples is not None
    return log, resolve_sample_attachments(log.samples[0])


def value(sample: EvalSample) -> dict[str, Any]:
    assert sample.scores is not None
    score = next(iter(sample.scores.values())).value
    assert isinstance(score, dict)
    return score


def test_baseline_model_and_baseline_grader_run_offline() -> None:
    log = inspect_eval(
        lft(grader_repeats=3),
        model="baseline/lft-generic-protocol",
        model_roles={"grader": "baseline/lft-grader"},
        display="none",
    )[0]
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) >= 4
    for sample in log.samples:
        assert sample.output.completion == GENERIC_PROTOCOL
        assert value(sample)["valid_grades"] == 3.0
    assert log.results is not None
    metrics = log_results(log)
    assert metrics["grader_failure_rate"] == 0.0
    assert metrics["feasible_share"] == 0.0  # a generic plan is never a feasible protocol
    assert log.eval.metadata is not None
    block = log.eval.metadata["provenance"]
    assert block["data_source"] == "package:rubrics"
    assert set(block["rubric_hashes"]) == {s.id for s in log.samples}
    assert block["paper_faithful"]["grader_repeats"] is False  # 3 repeats, not AISI's 10


def test_no_followup_grades_the_first_answer(scripted_model: ScriptedModel) -> None:
    log, sample = run(scripted_model)
    assert [m.role for m in sample.messages] == ["system", "user", "assistant"]
    assert sample.messages[0].text == LFT_SYSTEM
    assert value(sample)["end_to_end"] == 3.0
    assert log.eval.metadata is not None and log.eval.metadata["followup"] == "none"


def test_static_followups_are_graded_on_the_last_revision(scripted_model: ScriptedModel) -> None:
    _, sample = run(scripted_model, followup="static", followup_rounds=2)
    users = [m.text for m in sample.messages if m.role == "user"]
    assert users[1:] == list(STATIC_FOLLOWUPS[:2])
    assert sample.output.completion == "ANSWER 3"
    assert value(sample)["end_to_end"] == 6.0


def test_critique_shows_critic_and_revision_turns(scripted_model: ScriptedModel) -> None:
    critic = scripted_model(lambda m: "CRITIC ROLE: step 4 is vague.")
    _, sample = run(scripted_model, critic=critic, followup="critique", access="context")
    roles = [m.role for m in sample.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant"]
    assert "CRITIC ROLE: step 4 is vague." in sample.messages[3].text
    assert sample.messages[4].text == "ANSWER 2"
    assert value(sample)["end_to_end"] == 5.0  # the revision is what was graded
    critic_calls = [
        e
        for e in sample.events
        if isinstance(e, ModelEvent) and e.output.completion.startswith("CRITIC ROLE")
    ]
    assert len(critic_calls) == 1
    # The critic has no external information, even when the model had the documents.
    assert all(DIGEST_LINE not in m.text for m in critic_calls[0].input)
    assert DIGEST_LINE in sample.messages[0].text


def test_context_puts_the_documents_in_the_system_message(scripted_model: ScriptedModel) -> None:
    _, sample = run(scripted_model, access="context")
    first_call = next(e for e in sample.events if isinstance(e, ModelEvent))
    system = first_call.input[0]
    assert isinstance(system, ChatMessageSystem)
    assert system.text.startswith(LFT_SYSTEM)
    assert DIGEST_LINE in system.text
    assert DIGEST_LINE not in first_call.input[1].text


def test_web_offers_web_search_with_the_rubric_block_list(scripted_model: ScriptedModel) -> None:
    log, sample = run(scripted_model, access="web")
    first_call = next(e for e in sample.events if isinstance(e, ModelEvent))
    assert [tool.name for tool in first_call.tools] == ["web_search"]
    assert (first_call.tools[0].options or {})["anthropic"] == {"blocked_domains": ["aisi.gov.uk"]}
    assert log.eval.metadata is not None
    assert log.eval.metadata["web_providers"] == ["anthropic", "grok", "tavily"]


def test_nudges_until_the_panel_grades_ten(scripted_model: ScriptedModel) -> None:
    log, sample = run(
        scripted_model, grader_levels={1: 4, 2: 7, 3: 10}, followup="nudge", max_nudges=5
    )
    record = sample.metadata["nudges"]
    assert record["levels"] == [4, 7, 10]
    assert record["nudges"] == 2 and record["reached_top"] is True
    assert "HINT: think about selection." in sample.messages[3].text
    assert value(sample)["end_to_end"] == 10.0
    # The nudge count reaches the score value (survives epochs) and the nudge metric.
    assert value(sample)["nudges_to_top"] == 2.0 and value(sample)["reached_top"] == 1.0
    assert log.results is not None
    metrics = log_results(log)
    assert metrics["nudges_to_top"] == 2.0 and metrics["reached_top"] == 1.0


def test_nudge_critic_sees_the_next_level_requirements(scripted_model: ScriptedModel) -> None:
    shown: list[str] = []

    def critic(messages: list[ChatMessage]) -> str:
        shown.append(messages[-1].text)
        return "HINT"

    run(
        scripted_model,
        grader_levels={1: 4, 2: 4},
        critic=scripted_model(critic),
        followup="nudge",
        max_nudges=1,
    )
    # Level 4 reached, so the critic sees level 5: delivery and homoplasmy (not level 6).
    assert "biolistic bombardment" in shown[0] and "homoplasmy" in shown[0]
    assert "Southern" not in shown[0]


def write_rubric(directory: Path, task_id: str, **extra: Any) -> Path:
    levels = [
        {"level": k, "criteria": [{"id": f"c{k}", "text": f"does step {k}", "points": 1 + k % 4}]}
        for k in range(1, 11)
    ]
    data = {"task_id": task_id, "title": "T", "domain": "d", "prompt": "Plan X.", "levels": levels}
    path = directory / f"{task_id}.yaml"
    path.write_text(yaml.safe_dump({**data, **extra}), encoding="utf-8")
    return path


def test_a_users_own_rubric_directory(tmp_path: Path, scripted_model: ScriptedModel) -> None:
    write_rubric(tmp_path, "mine")
    log, sample = run(scripted_model, rubric_dir=str(tmp_path), task_ids=None)
    assert sample.id == "mine" and sample.input == "Plan X."
    assert log.eval.metadata is not None
    assert log.eval.metadata["provenance"]["data_source"] == f"local:{tmp_path.resolve()}"


def test_bad_parameters_fail_when_the_task_is_built(tmp_path: Path) -> None:
    write_rubric(tmp_path, "nodocs", web_block_list=["leak.example.org"])
    with pytest.raises(ValueError, match=r"no context_documents: \['nodocs'\]"):
        lft(rubric_dir=str(tmp_path), access="context")
    with pytest.raises(ValueError, match="'openai' cannot exclude domains"):
        lft(rubric_dir=str(tmp_path), access="web", web_providers="anthropic,openai")
    with pytest.raises(ValueError, match="argument 'followup' got 'sometimes'"):
        lft(followup="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="argument 'access' got 'internet'"):
        lft(access="internet")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="argument 'grader_repeats' got 0; allowed: 1 or more"):
        lft(grader_repeats=0)


def test_shipped_rubric_dir_is_the_default() -> None:
    assert DEFAULT_RUBRIC_DIR.name == "rubrics"
    assert len(lft().dataset) == len(list(DEFAULT_RUBRIC_DIR.glob("*.yaml")))
