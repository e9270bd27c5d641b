"""The idea-pair answer contract (``ideapairs/parsing.py``), shape by shape, and end to end.

Issue #17: answers in the shapes chat and reasoning models write, carrying the canonical
decision, give the canonical metrics with unparsed rate 0; adversarial shapes stay unparsed
(the order is wrong, never guessed).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from log_metrics import every_figure_of
from mock_models import scripted_model

from research_taste_evals.core.text import content_id
from research_taste_evals.ideapairs.ideapairs import idea_pairs
from research_taste_evals.ideapairs.parsing import parse_answer, parse_confidence

FAST_BOOTSTRAP = 200

# (reply, pick) for the reasoning prompt ("Answer: A|B").
READ = [
    ("Answer: A", "A"),
    ("Final Answer: B", "B"),
    ("**Answer:** A", "A"),
    ("**Answer**: B", "B"),
    ("Answer: A (Idea A)", "A"),
    ("Answer: Idea B", "B"),
    ("\\boxed{A}", "A"),
    ("The better idea is the first.\n\n**Final Answer:** $\\boxed{B}$", "B"),
    ("\\boxed{\\text{B}}", "B"),
    ("$\\boxed{\\mathbf{A}}$", "A"),
    ("**Final Answer: A**", "A"),
    ("A", "A"),
    ("**B**", "B"),
    ("Reasoning about both ideas...\n\nB", "B"),
    ("answer: b", "B"),
    ("### Final Answer\nA", "A"),
    ("**Final Answer:**\n**B**\n\nConfidence: 0.8", "B"),
    ("Idea A uses pretraining.\nAnswer: A\nConfidence: 0.7", "A"),
    ("<think>Idea A looks weaker... Answer: A</think>\nAnswer: B\nConfidence: 0.6", "B"),
    ("Let me compare.</think>\n\nAnswer: A", "A"),
    ("Answer: A\n...on reflection...\nFinal Answer: B", "B"),  # the model's own final marker
    ("Therefore, the answer is **B**.", "B"),
    ("Prediction: A", "A"),
    ("Answer: A, with moderate confidence.\nConfidence: 0.6", "A"),
    ("Answer: [B]", "B"),
    ("Answer: (A)", "A"),
    ("Answer - B", "B"),
    ("Answer: the second idea", "B"),
    ("- **Answer:** Idea A\n- **Confidence:** 0.9", "A"),
]

UNPARSED = [
    "Answer: A or B",
    "Answer: A/B",
    "Answer: A and B",
    "Answer: Idea A vs Idea B",
    "Answer: A\nAnswer: B",  # contradictory
    "Final Answer: A\n\\boxed{B}",
    "Idea B seems stronger to me.",
    "Both ideas have merit; it is hard to say which will score higher.",
    "<think>Answer: A</think>I cannot decide.",
    "Answer: <A or B, the idea that scored higher>",
    "Answer: a better approach would combine them",
    "Answer: 1",  # a label of the paper prompt: ambiguous under this one
    "Answer: Neither",
    "",
    "Answer: ABLATION",
]


@pytest.mark.parametrize(("text", "pick"), READ)
def test_realistic_shapes_are_read(text: str, pick: str) -> None:
    assert parse_answer(text) == pick
    assert parse_answer(text, "paper") is None  # the paper prompt asks for the 0/1 label


@pytest.mark.parametrize("text", UNPARSED)
def test_adversarial_shapes_stay_unparsed(text: str) -> None:
    assert parse_answer(text) is None


# (reply, pick) for the paper prompt (the label y: 0 = Idea A is better).
PAPER_READ = [
    ("0", "A"),
    ("1", "B"),
    ("Answer: 0", "A"),
    ("Final Answer: 1", "B"),
    ("\\boxed{1}", "B"),
    ("Label: 0", "A"),
    ("**Answer:** 1", "B"),
    # A label that ends a sentence (issue 31: a frontier model's "The answer is 0." was unread).
    ("The answer is 0.", "A"),
    ("The answer is 1.", "B"),
    ("The answer is **0**.", "A"),
    ("Answer: 1.", "B"),
    ("The label is 0.", "A"),
    ("Final answer: 1, since Idea B adds pretraining.", "B"),
    ("0.", "A"),
]

PAPER_UNPARSED = [
    "Answer: 0 or 1",
    "Answer: 0\nAnswer: 1",
    "Answer: 2",
    "Answer: 0.5",  # a decimal, not a label
    "The answer is 0.7.",
    "Answer: 1,5",
    "10",
    "Answer: B",
    "Idea B",
    "The answer is 0 or 1.",
]


@pytest.mark.parametrize(("text", "pick"), PAPER_READ)
def test_paper_prompt_label_zero_means_idea_a(text: str, pick: str) -> None:
    # Section 2: y = 0 when idea A outperforms idea B.
    assert parse_answer(text, "paper") == pick, text
    assert parse_answer(text) is None  # a digit is not read under the reasoning prompt


@pytest.mark.parametrize("text", PAPER_UNPARSED)
def test_paper_prompt_shapes_that_stay_unparsed(text: str) -> None:
    assert parse_answer(text, "paper") is None, text


def test_unknown_prompt_kind_is_an_error() -> None:
    with pytest.raises(ValueError, match="prompt"):
        parse_answer("A", "other")  # type: ignore[arg-type]


def test_table_has_at_least_30_shapes() -> None:
    assert len(READ) + len(UNPARSED) >= 30


@pytest.mark.parametrize(
    ("text", "confidence"),
    [
        ("Answer: A\nConfidence: 0.7", 0.7),
        ("**Confidence:** 0.7", 0.7),
        ("Confidence: 70%", 0.7),
        ("Confidence: 0.7 (fairly sure)", 0.7),
        ("- **Confidence**: 0.85", 0.85),
        ("confidence = .9", 0.9),
        ("Confidence: 7/10", 0.7),
        ("Confidence level: 65 percent", 0.65),
        ("Confidence: 0.4\n...\nConfidence: 0.6", 0.6),  # the last one
        ("<think>Confidence: 0.9</think>Answer: A\nConfidence: 0.55", 0.55),
        ("Confidence: 85", None),  # not guessed to be a percentage
        ("Confidence: high", None),
        ("Confidence: 140%", None),
        ("no figure here", None),
        ("<think>Confidence: 0.9</think>Answer: A", None),
    ],
)
def test_confidence_shapes(text: str, confidence: float | None) -> None:
    assert parse_confidence(text) == (pytest.approx(confidence) if confidence else None)


def _canonical_pick(messages: list[ChatMessage]) -> tuple[str, float]:
    """A seeded decision per prompt (not always right), and a confidence."""
    rng = random.Random(content_id(messages[-1].text))
    return rng.choice("AB"), rng.choice([0.6, 0.7, 0.9])


SHAPES: list[Callable[[str, float], str]] = [
    lambda pick, c: f"Answer: {pick}\nConfidence: {c}",
    lambda pick, c: f"Let me weigh both ideas.\n\n**Final Answer:** {pick}\n**Confidence:** {c}",
    lambda pick, c: (
        f"<think>\nIdea A vs idea B...\n</think>\nAnswer: {pick} (Idea {pick})\n"
        f"Confidence: {round(c * 100)}%"
    ),
    lambda pick, c: f"Reasoning...\n\n\\boxed{{{pick}}}\n\nConfidence: {c} (fairly sure)",
    lambda pick, c: f"**Answer:** Idea {pick}\n\nConfidence: {c}",
]


def _run(pairs: Path, respond: Callable[[list[ChatMessage]], str], tmp: Path, **args: object):
    log = inspect_eval(
        # Answer shapes only: the recognition probe (its own tests) would take scripted replies.
        idea_pairs(
            pairs_file=str(pairs),
            bootstrap_resamples=FAST_BOOTSTRAP,
            recall_probe=False,
            **args,  # type: ignore[arg-type]
        ),
        model=scripted_model(respond),
        log_dir=str(tmp),
        display="none",
    )[0]
    return every_figure_of(log)


def test_realistic_shapes_give_the_canonical_metrics(
    synthetic_pairs: Callable[[int], Path], tmp_path: Path
) -> None:
    pairs = synthetic_pairs(40)
    calls: list[int] = []

    def canonical(messages: list[ChatMessage]) -> str:
        return SHAPES[0](*_canonical_pick(messages))

    def shaped(messages: list[ChatMessage]) -> str:
        calls.append(1)
        pick, confidence = _canonical_pick(messages)
        return SHAPES[sum(map(ord, messages[-1].text)) % len(SHAPES)](pick, confidence)

    reference = _run(pairs, canonical, tmp_path / "canonical", prompt="reasoning")
    metrics = _run(pairs, shaped, tmp_path / "shaped", prompt="reasoning")
    assert len(calls) == 80  # no re-ask needed
    assert metrics["unparsed_rate"] == 0.0 and metrics["reasked_rate"] == 0.0
    assert metrics["calibration/pairs_without_probability"] == 0.0
    assert 0.0 < reference["accuracy"] < 1.0
    for key in ("accuracy", "consistency", "single_order_accuracy", "brier", "ece", "mce",
                "calibration/pairs", "accuracy/ci_low", "length_bias/delta"):  # fmt: skip
        assert metrics[key] == pytest.approx(reference[key], nan_ok=True), key


def test_reask_recovers_an_answer_and_missing_probabilities_are_counted(
    synthetic_pairs: Callable[[int], Path], tmp_path: Path
) -> None:
    pairs = synthetic_pairs(10)
    seen: list[str] = []

    def respond(messages: list[ChatMessage]) -> str:
        seen.append(messages[-1].text)
        if seen.count(messages[-1].text) == 1:
            return "Both ideas are promising."  # first attempt: no decision
        return "Answer: A"  # re-asked: a decision, but no confidence

    metrics = _run(pairs, respond, tmp_path / "reask", prompt="reasoning")
    assert len(seen) == 40 and metrics["reasked_rate"] == 1.0 and metrics["unparsed_rate"] == 0.0
    assert metrics["calibration/pairs"] == 0.0
    assert metrics["calibration/pairs_without_probability"] == 10.0
    seen.clear()
    single = _run(pairs, respond, tmp_path / "single", reask=0, prompt="reasoning")
    assert len(seen) == 20 and single["reasked_rate"] == 0.0
    assert single["unparsed_rate"] == 1.0 and single["accuracy"] == 0.0  # unparsed = wrong


PAPER_SHAPES: list[Callable[[str], str]] = [
    lambda label: label,
    lambda label: f"Answer: {label}",
    lambda label: f"<think>\nComparing the two ideas...\n</think>\n\n{label}",
    lambda label: f"**Label:** {label}",
    lambda label: f"\\boxed{{{label}}}",
]


def test_paper_prompt_shapes_give_the_canonical_metrics(
    synthetic_pairs: Callable[[int], Path], tmp_path: Path
) -> None:
    pairs = synthetic_pairs(30)

    def label(messages: list[ChatMessage]) -> str:
        return "0" if _canonical_pick(messages)[0] == "A" else "1"  # y = 0: idea A better

    def shaped(messages: list[ChatMessage]) -> str:
        shape = PAPER_SHAPES[sum(map(ord, messages[-1].text)) % len(PAPER_SHAPES)]
        return shape(label(messages))

    reference = _run(pairs, label, tmp_path / "canonical", prompt="paper")
    metrics = _run(pairs, shaped, tmp_path / "shaped", prompt="paper")
    assert metrics["unparsed_rate"] == 0.0 and metrics["reasked_rate"] == 0.0
    assert 0.0 < reference["accuracy"] < 1.0
    for key in ("accuracy", "consistency", "single_order_accuracy", "length_bias/delta"):
        assert metrics[key] == pytest.approx(reference[key], nan_ok=True), key
