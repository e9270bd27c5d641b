"""ExpDesign's entailment judge (AAAR-1.0 Section 3.2; release code: ``Exp_entailment_v2``): its
role, decoding, prompt messages, the strict and release-code readings of its verdicts, and the
En-Precision / En-Recall / En-F1 they give. The scorer (expdesign.py) calls it per paper.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
)

from research_taste_evals.aaar.judge_prompts import ENTAILMENT_PROMPTS, ENTAILMENT_SYSTEM
from research_taste_evals.aaar.parsing import judge_decision
from research_taste_evals.core.grading import MemberGrade, grade_member
from research_taste_evals.core.roles import RoleSpec
from research_taste_evals.core.stats import NAN
from research_taste_evals.core.text import fill_template

# The paper's judge (Section 4: "we used GPT-4o as an evaluator"; Appendix B.2 names the snapshot).
DEFAULT_JUDGE_MODEL = "openai/gpt-4o-2024-08-06"
# OpenAIDecodingArguments of calculate_metrics_subtask2_exp_entailment.v2.py.
JUDGE_TEMPERATURE = 1.0
JUDGE_TOP_P = 0.99
JUDGE_MAX_TOKENS = 720
JUDGE_DECODING = {
    "temperature": JUDGE_TEMPERATURE,
    "top_p": JUDGE_TOP_P,
    "max_tokens": JUDGE_MAX_TOKENS,
}
JUDGE_CONFIG = GenerateConfig(
    temperature=JUDGE_TEMPERATURE, top_p=JUDGE_TOP_P, max_tokens=JUDGE_MAX_TOKENS
)
# The release code joins the other side's list with single spaces before judging an item.
LIST_JOINER = " "
JudgePrompt = Literal["v2", "v1"]


def judge_spec(judge_model: str | None) -> RoleSpec:
    """The entailment judge: ``judge_model`` > the ``grader`` role > GPT-4o (the paper's)."""
    return RoleSpec(
        "grader", explicit=judge_model, default=DEFAULT_JUDGE_MODEL, parameter="judge_model"
    )


JudgeResult = MemberGrade[int]


def strict_decision(result: JudgeResult) -> int | None:
    """Strict reading of one judge call: its 0/1, or None (left out) for any failure."""
    return result.grade


def faithful_decision(result: JudgeResult) -> int | None:
    """The release code's reading of one judge call: an answer with no 0/1 (or a refusal) is 0.

    A provider error is None, left out of every denominator and counted (``judge_error_rate``):
    upstream retries a failed call 16 times and then stops the whole run, so it never scores a
    judge error (``openai_chat_completion`` in scripts/chat_completion.py).
    """
    if result.failure == "model_error":
        return None
    return result.grade if result.ok else 0


def any_decision(decisions: list[int | None]) -> int | None:
    """v1's ``np.any`` over one row/column of the pairwise matrix: 1 if any pair is judged
    similar, else None when a pair has no decision, else 0."""
    if any(decision == 1 for decision in decisions):
        return 1
    return None if any(decision is None for decision in decisions) else 0


def entailment_rate(decisions: list[int | None]) -> float:
    """Share of items judged entailed, items with no decision left out; NaN when none is left."""
    values = [decision for decision in decisions if decision is not None]
    return sum(values) / len(values) if values else NAN


def en_scores(
    precision_decisions: list[int | None], recall_decisions: list[int | None]
) -> tuple[float, float, float]:
    """Per-paper En-Precision, En-Recall and their F1 (0 when both are 0).

    No predicted experiment gives ``(0, 0, 0)``: upstream averages over all papers, so such a
    paper adds 0 to every sum. A NaN side (no decision left) gives a NaN F1.
    """
    if not precision_decisions:
        return 0.0, 0.0, 0.0
    precision = entailment_rate(precision_decisions)
    recall = entailment_rate(recall_decisions)
    if precision != precision or recall != recall:  # NaN
        return precision, recall, NAN
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, f1


@dataclass(frozen=True)
class PaperJudgement:
    """Every judge call of one paper, and the per-item decisions under a reading.

    v2 (released metric script): ``calls`` = one call per predicted item, then one per
    reference item. v1 (``calculate_metrics_subtask2_exp_entailment.py``): ``calls`` = the
    reference x predicted pairwise matrix, row-major; an item is entailed if any of its pairs
    is (``np.any`` along each axis).
    """

    prompt: JudgePrompt
    predicted: int
    reference: int
    calls: list[JudgeResult]

    def decisions(
        self, reading: Callable[[JudgeResult], int | None]
    ) -> tuple[list[int | None], list[int | None]]:
        """(per predicted item, per reference item) decisions under ``reading``."""
        values = [reading(call) for call in self.calls]
        n = self.predicted
        if self.prompt == "v2":
            return values[:n], values[n:]
        rows = [values[i * n : (i + 1) * n] for i in range(self.reference)] if n else []
        precision = [any_decision([row[j] for row in rows]) for j in range(n)]
        return precision, [any_decision(row) for row in rows]


def judge_messages(
    prompt: JudgePrompt, item: str, other_list: list[str], pairwise: str | None = None
) -> list[ChatMessage]:
    """The judge's [system, user] messages.

    v2: is ``item`` (P1) in ``other_list`` (P2, joined by spaces)? v1 (``pairwise`` given): are
    ``item`` (P1, a reference experiment) and ``pairwise`` (P2, a predicted one) similar?
    """
    other = pairwise if pairwise is not None else LIST_JOINER.join(other_list)
    text = fill_template(ENTAILMENT_PROMPTS[prompt], EXP1=item, EXP2=other)
    return [ChatMessageSystem(content=ENTAILMENT_SYSTEM), ChatMessageUser(content=text)]


async def judge_lists(
    judge: Model,
    predicted: list[str],
    reference: list[str],
    prompt: JudgePrompt = "v2",
    cache: bool | CachePolicy = False,
    config: GenerateConfig = JUDGE_CONFIG,
) -> PaperJudgement:
    """All judge calls of one paper, concurrently (see :class:`PaperJudgement` for their order).

    Each call is one grader member with its own cache scope (its index), so two identical
    items are two judgements, not one cached answer. No call is made for an empty prediction
    (its score is 0 whatever the judge says).
    """
    if not predicted:
        return PaperJudgement(prompt, 0, len(reference), [])
    if prompt == "v2":
        messages = [judge_messages(prompt, item, reference) for item in predicted] + [
            judge_messages(prompt, item, predicted) for item in reference
        ]
    else:
        messages = [judge_messages(prompt, gt, [], pred) for gt in reference for pred in predicted]
    # Every call ends before an error is raised: one answered is cached for the sample's retry.
    outcomes = await asyncio.gather(
        *(
            grade_member(judge, index, 0, message, judge_decision, cache, config)
            for index, message in enumerate(messages)
        ),
        return_exceptions=True,
    )
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    calls = [o for o in outcomes if isinstance(o, MemberGrade)]
    return PaperJudgement(prompt, len(predicted), len(reference), calls)
