from __future__ import annotations

import math
from collections.abc import Callable

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, Model
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.core.answers import (
    ATTEMPTS_KEY,
    answer_rates,
    generate_until_parsed,
    json_objects,
    last_json_object,
    parse_binary,
    parse_choice,
    strip_reasoning,
)
from research_taste_evals.core.metrics import answer_shape, reasked_rate


def test_parse_binary_accepts_only_a_bare_digit() -> None:
    for text, expected in [("1", 1), (" 0\n", 0), ("**1**", 1), ("`0`", 0), ("1.", 1)]:
        assert parse_binary(text) == expected, text
    for text in ["maybe", "", "10", "1 or 0", "Answer: 1", "2", "yes"]:
        assert parse_binary(text) is None, text


def test_parse_choice() -> None:
    letters = ("A", "B", "C", "D")
    assert parse_choice("(B)", letters) == "B"
    assert parse_choice("C.", letters) == "C"
    assert parse_choice("E", letters) is None
    assert parse_choice("A or B", letters) is None


def test_generate_until_parsed_re_asks_from_the_original_prompt(
    scripted_model: Callable[[Callable[[list[ChatMessage]], str]], Model],
) -> None:
    answers = iter(["maybe", "hmm", "1"])
    seen_lengths: list[int] = []

    def respond(messages: list[ChatMessage]) -> str:
        seen_lengths.append(len(messages))
        return next(answers)

    task = Task(
        dataset=[Sample(input="question", target="1")],
        solver=generate_until_parsed(parse_binary, retries=3),
    )
    log = inspect_eval(task, model=scripted_model(respond), display="none")[0]
    assert log.samples is not None
    sample = log.samples[0]
    assert sample.metadata[ATTEMPTS_KEY] == ["maybe", "hmm", "1"]
    assert seen_lengths == [1, 1, 1]  # never sees its own failed answers
    assert sample.output.completion == "1"


def test_generate_until_parsed_gives_up_after_retries(
    scripted_model: Callable[[Callable[[list[ChatMessage]], str]], Model],
) -> None:
    task = Task(
        dataset=[Sample(input="question", target="1")],
        solver=generate_until_parsed(parse_binary, retries=2),
    )
    log = inspect_eval(task, model=scripted_model(lambda _: "maybe"), display="none")[0]
    assert log.samples is not None
    assert log.samples[0].metadata[ATTEMPTS_KEY] == ["maybe"] * 3


def test_strip_reasoning_blocks() -> None:
    assert strip_reasoning("<think>A? B?</think>\nAnswer: B").strip() == "Answer: B"
    assert strip_reasoning("<THINKING>x</THINKING>ok<reasoning>y</reasoning>").strip() == "ok"
    # The template opened the block: only what follows the closing tag is the answer.
    assert strip_reasoning("weighing both...\n</think>\nAnswer: A").strip() == "Answer: A"
    # Cut off while reasoning: the unclosed block runs to the end.
    assert strip_reasoning("Answer: A\n<think>maybe B").strip() == "Answer: A"
    assert strip_reasoning("no blocks") == "no blocks"


def test_last_json_object_fenced_or_not() -> None:
    text = 'Example {"a": 1}. Then ```json\n{"b": {"c": 2}}\n``` and a note {not json}.'
    assert last_json_object(text) == {"b": {"c": 2}}
    assert last_json_object('<think>{"x": 1}</think> nothing here') is None
    assert last_json_object("[1, 2]") is None
    assert json_objects('{"a": 1}{"b": 2}') == [{"a": 1}, {"b": 2}]


def test_answer_shape_rates_count_answers_not_samples() -> None:
    scores = [
        SampleScore(score=Score(value={"unparsed": 1.0, "reasked": 2.0})),
        SampleScore(score=Score(value={"unparsed": 0.0})),  # never re-asked: counts 0
    ]
    assert answer_shape(answers_per_sample=2)(scores) == {
        "unparsed_rate": 0.25,
        "reasked_rate": 0.5,
    }
    assert reasked_rate()(scores) == 1.0
    assert math.isnan(answer_rates([])["unparsed_rate"])
