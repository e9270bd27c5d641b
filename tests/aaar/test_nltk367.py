"""AAAR budgets under NLTK 3.6.7, the version upstream pinned, checked against real 3.6.7 output.

``fixtures/nltk367/expected.json`` was written by real ``nltk==3.6.7`` in a side venv with
upstream's ``cut_word`` / ``cut_word_by_piece`` logic and upstream's own prompt templates (the
command is in ``fixtures/nltk367/make_expected.py``). The texts hold em/en dashes, leading and
curly quotes, abbreviations, contractions, LaTeX and the sentence ends where NLTK's later Punkt
differs. The prompts are taken from the model calls the real solvers make.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageUser
from mock_models import scripted_model

from research_taste_evals.aaar.dataset.expdesign import (
    EXPERIMENTS_KEY,
    EXPLANATIONS_KEY,
    ExpDesignRecord,
    expdesign_dataset,
)
from research_taste_evals.aaar.solvers import expdesign_solver, weakness_solver
from research_taste_evals.core.text import (
    UPSTREAM_NLTK,
    join_words,
    nltk_counting_is_upstream,
    nltk_words,
    word_counting_provenance,
)

FIXTURES = Path(__file__).parent / "fixtures" / "nltk367"
TEXTS = json.loads((FIXTURES / "texts.json").read_text(encoding="utf-8"))
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
CASES = list(zip(TEXTS["texts"], EXPECTED["cases"], strict=True))


def test_fixture_was_made_by_nltk_367() -> None:
    assert EXPECTED["nltk"] == UPSTREAM_NLTK == "3.6.7"
    assert EXPECTED["budget"] == TEXTS["budget"] and EXPECTED["window"] == TEXTS["window"]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_tokens_and_detokenized_text_equal_nltk_367(text: str, expected: dict[str, Any]) -> None:
    tokens = nltk_words(text)
    assert tokens == expected["tokens"]
    assert join_words(tokens, "nltk") == expected["detokenized"]


def test_installed_nltk_rules_differ_on_the_fixtures() -> None:
    """The fixtures can fail: the installed NLTK (3.8+) splits dashes and re-joins differently."""
    if word_counting_provenance("nltk_installed")["nltk_version"] == UPSTREAM_NLTK:
        pytest.skip("NLTK 3.6.7 itself is installed")
    differing = [
        text for text, expected in CASES if nltk_words(text, "installed") != expected["tokens"]
    ]
    assert len(differing) >= 3
    assert not nltk_counting_is_upstream("nltk_installed")
    assert nltk_counting_is_upstream("nltk")


def _user_prompts(task: Task) -> list[list[str]]:
    """Every sample's user prompts, in call order, as the real solver sent them."""
    seen: list[list[ChatMessage]] = []

    def respond(messages: list[ChatMessage]) -> str:
        seen.append(messages)
        return "1. An experiment."

    [log] = eval(task, model=scripted_model(respond), display="none", log_dir=None)
    assert log.status == "success", log.error
    return [[m.text for m in messages if isinstance(m, ChatMessageUser)] for messages in seen]


def test_rendered_expdesign_prompts_equal_upstream_under_nltk_367() -> None:
    records = [
        ExpDesignRecord.model_validate(
            {
                "id": f"p{i}",
                "input": [text],
                "output": {EXPERIMENTS_KEY: ["Ablate."], EXPLANATIONS_KEY: ["To see."]},
            }
        )
        for i, text in enumerate(TEXTS["texts"])
    ]
    task = Task(
        dataset=expdesign_dataset(records, TEXTS["budget"], "nltk"),
        solver=expdesign_solver("one_by_one", 0),
    )
    prompts = {p[0] for p in _user_prompts(task) if p[0].startswith("You are partially given")}
    sent_design = {p for p in prompts if "give me a list of experiments" in p}
    assert sent_design == {case["expdesign_prompt"] for case in EXPECTED["cases"]}


def test_rendered_weakness_piece_prompts_equal_upstream_under_nltk_367() -> None:
    samples = [Sample(id=f"p{i}", input=text) for i, text in enumerate(TEXTS["texts"])]
    task = Task(
        dataset=MemoryDataset(samples),
        solver=weakness_solver("split_combine", TEXTS["window"], "nltk"),
    )
    sent = sorted(p for prompts in _user_prompts(task) for p in prompts)
    expected = sorted(p for case in EXPECTED["cases"] for p in case["weakness_prompts"])
    assert len(expected) > len(CASES)  # the long text is cut into several pieces
    assert sent == expected
