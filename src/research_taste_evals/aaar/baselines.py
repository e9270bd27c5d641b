"""AAAR-1.0 trivial baselines for the offline ``baseline/<name>`` provider."""

from __future__ import annotations

import re

from inspect_ai.model import ChatMessage

from research_taste_evals.core.baselines import register_baseline


@register_baseline(
    "all-positive",
    "EqInfer: answers 1 (correct equation) to every decision; paper F1 40.00 / P 25.00 / R 100.00",
)
def all_positive(messages: list[ChatMessage]) -> str:
    return "1"


# ExpDesign and PaperWeakness baselines. Each reads only the prompt it is given (deterministic);
# the markers below are the fixed lines of the verbatim AAAR-1.0 templates in prompts.py.
EXPERIMENT_IDEA_MARKER = "### Experiment Idea:\n```\n"
EXPERIMENT_LIST_MARKER = "### Experiment List:\n```\n"
CLOSING_FENCE = "\n```"
JUDGE_P1_MARKER = "## P1: "
JUDGE_P2_MARKER = "\n## P2: "
JUDGE_DECISION_MARKER = "\n## Decision: "
# Word-overlap judge: P1 counts as covered when this share of its content words occurs in P2.
OVERLAP_JUDGE_THRESHOLD = 0.5
CONTENT_WORD_MIN_LENGTH = 4  # shorter tokens ("the", "of", "on") carry little content
LEADING_NUMBER = r"^\d+\.\s*"

# A designer who has not read the paper: the experiments almost every ML paper runs.
GENERIC_EXPERIMENTS = (
    "1. Main comparison: compare the proposed method with strong existing baselines on the "
    "standard benchmarks of the task and report the main metrics.",
    "2. Ablation study: remove or replace each component of the proposed method to measure how "
    "much each one contributes to the final performance.",
    "3. Hyperparameter sensitivity: vary the most important hyperparameters of the method and "
    "report how the performance changes.",
    "4. Efficiency analysis: compare the training and inference cost of the proposed method with "
    "the baselines.",
    "5. Qualitative analysis: show examples and failure cases of the proposed method and discuss "
    "them.",
)

# A reviewer who has not read the paper: the vague weaknesses the paper finds LLMs produce
# (Section 5.3), identical for every paper, so its ITF-IDF is low by construction.
GENERIC_WEAKNESSES = (
    "1. The novelty of the proposed method is limited compared with prior work.",
    "2. The experimental evaluation is limited: more datasets and stronger baselines are needed.",
    "3. An ablation study is missing, so the contribution of each component is unclear.",
    "4. The paper does not analyse the computational cost of the method.",
    "5. Some parts of the paper are unclear and the presentation could be improved.",
    "6. The limitations of the approach are not discussed.",
)


def _last_user_text(messages: list[ChatMessage]) -> str:
    users = [message for message in messages if message.role == "user"]
    return users[-1].text if users else ""


def _between(text: str, start: str, end: str) -> str | None:
    if start not in text:
        return None
    tail = text.split(start, 1)[1]
    return tail.split(end, 1)[0] if end in tail else tail


@register_baseline(
    "copy-input",
    "ExpDesign: explains each experiment by copying it (paper Copy Input: S-Match 40.32 on the "
    "real data with mpnet) and proposes the same five generic experiments for every paper",
)
def copy_input(messages: list[ChatMessage]) -> str:
    prompt = _last_user_text(messages)
    idea = _between(prompt, EXPERIMENT_IDEA_MARKER, CLOSING_FENCE)
    if idea is not None:  # one-by-one explanation prompt: the answer is the experiment itself
        return idea.strip()
    listed = _between(prompt, EXPERIMENT_LIST_MARKER, CLOSING_FENCE)
    if listed is not None:  # whole-list explanation prompt: one copied line per experiment
        lines = [line.strip() for line in listed.splitlines() if line.strip()]
        items = [re.sub(LEADING_NUMBER, "", line) for line in lines]
        return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
    return "\n".join(GENERIC_EXPERIMENTS)


@register_baseline(
    "generic-weaknesses",
    "PaperWeakness: the same six generic weaknesses (novelty, evaluation, ablation, cost, "
    "clarity, limitations) for every paper and every piece",
)
def generic_weaknesses(messages: list[ChatMessage]) -> str:
    return "\n".join(GENERIC_WEAKNESSES)


def content_words(text: str) -> set[str]:
    """Lower-cased alphanumeric tokens of at least ``CONTENT_WORD_MIN_LENGTH`` characters."""
    return {
        word
        for word in re.findall(r"[a-z0-9]+", text.lower())
        if len(word) >= CONTENT_WORD_MIN_LENGTH
    }


@register_baseline(
    "word-overlap-judge",
    "ExpDesign grader role: answers 1 when at least half of P1's content words (4+ letters) "
    "occur in P2, else 0; deterministic, for offline runs only (the paper's judge is GPT-4o)",
)
def word_overlap_judge(messages: list[ChatMessage]) -> str:
    prompt = _last_user_text(messages)
    # The few-shot examples also contain P1/P2 lines: the case to judge is the last one.
    case = prompt.rsplit(JUDGE_P1_MARKER, 1)[-1]
    if JUDGE_P2_MARKER not in case:
        return "I cannot find the two paragraphs to compare."
    first, second = case.split(JUDGE_P2_MARKER, 1)
    second = second.split(JUDGE_DECISION_MARKER, 1)[0]
    words = content_words(first)
    if not words:
        return "0"
    return (
        "1" if len(words & content_words(second)) / len(words) >= OVERLAP_JUDGE_THRESHOLD else "0"
    )


@register_baseline(
    "human-reviewer",
    "PaperWeakness: one seeded random reviewer's own weaknesses per paper (the paper's Human "
    "Review row, ITF-IDF 7.69); the paper_weakness solver supplies the list, no call is made",
)
def human_reviewer(messages: list[ChatMessage]) -> str:
    # Only reached outside paper_weakness, whose solver answers for this model itself.
    return "baseline/human-reviewer only answers in paper_weakness (it needs the reviews)."
