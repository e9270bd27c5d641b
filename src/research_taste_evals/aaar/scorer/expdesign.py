"""ExpDesign scoring: En-Precision / En-Recall / En-F1 from an entailment judge (experiment list);
S-Match, ROUGE-1 and ROUGE-L (explanations of the oracle experiments).

Follows RenzeLou/AAAR-1.0 ``calculate_metrics_subtask2_exp_entailment.v2.py`` (one judge call per
item: a predicted experiment against all reference experiments joined by spaces, and each
reference experiment against all predicted ones), ``subtask2_metric_llm_as_judge.py`` (per-paper
F1, then means over ALL papers, a paper with no predicted experiment counting 0) and
``calculate_metrics_src.py`` (``soft_score`` and ``rouge_score``).
"""

from __future__ import annotations

import asyncio
import math
import re
from typing import Literal

from inspect_ai.model import ChatMessageSystem, ChatMessageUser, Model, get_model
from inspect_ai.scorer import Metric, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.prompts import (
    ENTAILMENT_PROMPT,
    ENTAILMENT_SYSTEM,
    UPSTREAM_JUDGE_DIGIT,
)
from research_taste_evals.aaar.similarity import rouge_scorer_instance, rouge_scores, s_match
from research_taste_evals.core.embeddings import get_embedder
from research_taste_evals.core.metrics import empty_prediction_rate, key_mean, key_ratio
from research_taste_evals.core.text import fill_template

# The paper's judge (Section 4: "we used GPT-4o as an evaluator"; Appendix B.2 names the snapshot).
DEFAULT_JUDGE_MODEL = "openai/gpt-4o-2024-08-06"
PREDICTED_EXPERIMENTS_KEY = "expdesign:predicted_experiments"
PREDICTED_EXPLANATIONS_KEY = "expdesign:predicted_explanations"
EXPLANATION_ATTEMPTS_KEY = "expdesign:explanation_attempts"
# The release code joins the other side's list with single spaces before judging an item.
LIST_JOINER = " "
NAN = math.nan

JudgeParseMode = Literal["strict", "faithful"]


def parse_judge_decision(answer: str) -> int | None:
    """The release code's judge parser: the first ``0`` or ``1`` anywhere in the answer.

    ``None`` when the answer holds neither (upstream then scores 0; we count it).
    """
    match = re.search(UPSTREAM_JUDGE_DIGIT, answer.strip())
    return int(match.group(0)) if match else None


def entailment_rate(decisions: list[int | None], mode: JudgeParseMode) -> float:
    """Share of items judged entailed.

    ``faithful``: an unparsed decision counts 0 (upstream). ``strict``: it is left out; NaN when
    no decision parsed.
    """
    if mode == "faithful":
        values = [d or 0 for d in decisions]
    else:
        values = [d for d in decisions if d is not None]
    return sum(values) / len(values) if values else NAN


def en_scores(
    precision_decisions: list[int | None],
    recall_decisions: list[int | None],
    mode: JudgeParseMode,
) -> tuple[float, float, float]:
    """Per-paper En-Precision, En-Recall and their F1 (0 when both are 0).

    No predicted experiment gives ``(0, 0, 0)``: upstream averages over all papers, so such a
    paper adds 0 to every sum.
    """
    if not precision_decisions:
        return 0.0, 0.0, 0.0
    precision = entailment_rate(precision_decisions, mode)
    recall = entailment_rate(recall_decisions, mode)
    if math.isnan(precision) or math.isnan(recall):
        return precision, recall, NAN
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, f1


async def judge_item(judge: Model, item: str, other_list: list[str]) -> tuple[int | None, str]:
    """Ask the judge whether ``item`` (P1) is covered by ``other_list`` (P2, joined)."""
    prompt = fill_template(ENTAILMENT_PROMPT, EXP1=item, EXP2=LIST_JOINER.join(other_list))
    output = await judge.generate(
        [ChatMessageSystem(content=ENTAILMENT_SYSTEM), ChatMessageUser(content=prompt)]
    )
    return parse_judge_decision(output.completion), output.completion


async def judge_lists(
    judge: Model, predicted: list[str], reference: list[str]
) -> tuple[list[tuple[int | None, str]], list[tuple[int | None, str]]]:
    """All judge calls of one paper, concurrently: (precision side, recall side).

    No call is made for an empty prediction (its score is 0 whatever the judge says).
    """
    if not predicted:
        return [], []
    calls = [judge_item(judge, item, reference) for item in predicted]
    calls += [judge_item(judge, item, predicted) for item in reference]
    results = await asyncio.gather(*calls)
    return list(results[: len(predicted)]), list(results[len(predicted) :])


@metric
def en_precision() -> Metric:
    """Mean over papers of the share of predicted experiments the judge finds in the reference."""
    return key_mean("en_precision")


@metric
def en_recall() -> Metric:
    """Mean over papers of the share of reference experiments the judge finds predicted."""
    return key_mean("en_recall")


@metric
def en_f1() -> Metric:
    """Mean over papers of the per-paper En-F1."""
    return key_mean("en_f1")


@metric
def s_match_mean() -> Metric:
    """Mean over papers of S-Match (cosine of aligned explanation pairs)."""
    return key_mean("s_match")


@metric
def rouge_1() -> Metric:
    """Mean over papers of ROUGE-1 F (aligned explanation pairs, stemming)."""
    return key_mean("rouge_1")


@metric
def rouge_l() -> Metric:
    """Mean over papers of ROUGE-L F (aligned explanation pairs, stemming)."""
    return key_mean("rouge_l")


@metric
def judge_unparsed_rate() -> Metric:
    """Share of judge answers with no 0/1 in them (all judge calls of all papers)."""
    return key_ratio("judge_unparsed", "judge_calls")


@metric
def explanation_failure_rate() -> Metric:
    """Share of papers whose explanation list never matched the experiment list's length."""
    return key_mean("explanation_failed")


@scorer(
    metrics=[
        en_f1(),
        en_precision(),
        en_recall(),
        s_match_mean(),
        rouge_l(),
        rouge_1(),
        judge_unparsed_rate(),
        empty_prediction_rate(),
        explanation_failure_rate(),
    ]
)
def expdesign_scorer(
    judge_model: str | None,
    judge_parse_mode: JudgeParseMode,
    embedding_model: str,
    embedding_revision: str | None = None,
    embedding_device: str = "cpu",
) -> Scorer:
    """Score one paper: judge the experiment lists, embed and ROUGE the explanations.

    Judge calls, embedding (in a worker thread) and ROUGE (in a worker thread) run concurrently.
    """
    embedder = get_embedder(embedding_model, embedding_revision, embedding_device)
    rouge_scorer_instance()  # import rouge_score/NLTK now, not in a worker thread mid-scoring

    async def score(state: TaskState, target: Target) -> Score:
        judge = (
            get_model(judge_model)
            if judge_model
            else get_model(role="grader", default=DEFAULT_JUDGE_MODEL)
        )
        predicted: list[str] = state.store.get(PREDICTED_EXPERIMENTS_KEY, [])
        reference: list[str] = state.metadata["experiments"]
        explanations: list[str] = state.store.get(PREDICTED_EXPLANATIONS_KEY, [])
        reference_explanations: list[str] = state.metadata["explanations"]
        (precision_side, recall_side), embeddings, (r1, rl) = await asyncio.gather(
            judge_lists(judge, predicted, reference),
            embedder.aencode_lists([explanations, reference_explanations]),
            asyncio.to_thread(rouge_scores, explanations, reference_explanations),
        )
        precision_decisions = [decision for decision, _ in precision_side]
        recall_decisions = [decision for decision, _ in recall_side]
        p, r, f1 = en_scores(precision_decisions, recall_decisions, judge_parse_mode)
        decisions = precision_decisions + recall_decisions
        unparsed = sum(1 for decision in decisions if decision is None)
        explanation_failed = not explanations
        reason = None
        if not predicted:
            reason = "invalid_response_format"
        elif unparsed:
            reason = "grader_failed"
        return Score(
            value={
                "en_precision": p,
                "en_recall": r,
                "en_f1": f1,
                "s_match": s_match(embeddings[0], embeddings[1]),
                "rouge_1": r1,
                "rouge_l": rl,
                "judge_calls": float(len(decisions)),
                "judge_unparsed": float(unparsed),
                "empty_prediction": float(not predicted),
                "explanation_failed": float(explanation_failed),
            },
            answer="\n".join(predicted),
            reason=reason,
            explanation=(
                f"{len(predicted)} predicted vs {len(reference)} reference experiments; judge "
                f"entailed {sum(d or 0 for d in precision_decisions)} predicted and "
                f"{sum(d or 0 for d in recall_decisions)} reference items, {unparsed} of "
                f"{len(decisions)} judge answers unparsed ({judge_parse_mode} mode); "
                f"{len(explanations)} explanations for {len(reference_explanations)} references"
            ),
            metadata={
                "judge_model": str(judge),
                "precision_decisions": precision_decisions,
                "recall_decisions": recall_decisions,
                "judge_answers": [answer for _, answer in precision_side + recall_side],
                "predicted_explanations": explanations,
                "explanation_attempts": state.store.get(EXPLANATION_ATTEMPTS_KEY),
                "embedding_model": embedder.model_id,
                "embedding_revision": embedder.revision,
            },
        )

    return score
