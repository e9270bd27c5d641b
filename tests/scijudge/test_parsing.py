"""The answer contract (parsing.py): each shape the README's "Answer contract" lists."""

from __future__ import annotations

import pytest

from research_taste_evals.scijudge.parsing import parse_answer


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("<reason>Paper A is broader.</reason>\n<answer>A</answer>", "A"),
        ("<reason>...</reason><answer>b</answer>", "B"),  # issue 50: the rows' own format
        ("<REASON>Answer: A</REASON>\n<Answer> a </Answer>", "A"),
        ("<reason>So the answer is <answer>A</answer>.</reason>\n<answer>B</answer>", "B"),
        ("<reason>Unfinished: <answer>A</answer>", None),  # a reason block never closed
        ("<answer>a or b</answer>", None),
        ("<answer> Paper B </answer>", "B"),
        ("<answer>**B**</answer>", "B"),
        ("Reasoning...\nAnswer: B", "B"),
        ("**Final Answer:**\n**A**", "A"),
        ("The answer is **B**.", "B"),
        ("So $\\boxed{A}$", "A"),
        ("Both are fine.\n\n**Paper B**", "B"),
        ("B", "B"),
        ("<think>Answer: A</think>\nAnswer: B", "B"),
        ("Answer: A or B", None),
        ("Answer: A\n...\nAnswer: B", None),
        ("<answer>A</answer> <answer>B</answer>", None),
        ("Paper B seems stronger.", None),
        ("<think>Answer: A</think>", None),
        ("a", None),
        ("", None),
    ],
)
def test_dataset_prompt_answers(reply: str, expected: str | None) -> None:
    assert parse_answer(reply, "dataset") == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Recommendation: Project 2 (the broader one).", "B"),
        ("**Project 1**", "A"),
        ("Long discussion.\n\nProject 2", "B"),
        ("I recommend pursuing Project 1. It is more general.", "A"),
        ("<answer>Project 2</answer>", "B"),
        ("I recommend Project 1 if you have data; otherwise pursue Project 2.", None),
        ("I recommend Project 1. Go with Project 2.", None),
        ("Answer: A", None),  # letters are not the TastyBench wording's answer
        ("Project 1 is interesting and Project 2 is too.", None),
    ],
)
def test_tastybench_prompt_answers(reply: str, expected: str | None) -> None:
    assert parse_answer(reply, "tastybench") == expected
