"""Per-pair scoring: both orders' answers -> consistency-aware correctness and a probability.

Section 6.1 of Mule et al.: a pair is correct only if the model picks the same idea in both
orders (consistent) and that idea is the better one; chance is 25%. An answer that does not
parse under the answer contract of the prompt that ran (``parsing.py``), even after its
re-ask, makes the pair unanswered: it is counted (``unparsed``)
and the pair is neither consistent nor correct -- never silently dropped.

Appendix B.11: the position-debiased probability is p~ = (p_orig + 1 - p_swap) / 2, with p the
probability of class 1 (Idea B is better, section 2) in each order; p~ is then the debiased
probability that the original order's Idea B is better, scored against y of the original.

``Score.value`` holds every number the metrics need (so it survives epoch reduction):
``correct``, ``consistent``, ``answered``, ``unparsed`` (0-2), ``reasked`` (0-2, orders whose
answer was asked again), ``original_correct``,
``swapped_correct``, ``verdict`` (+1 consistent and right, -1 consistent and wrong, 0
otherwise), ``p_debiased`` (NaN without both probabilities), ``p_from_logprobs`` (share of the
two probabilities read from logprobs; NaN without them) and ``y``. ``Score.metadata`` carries
the recall fields (``core/recall_control.py``: the cutoff, ``post_cutoff``, each idea's
date and recognition) that the twins read.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Metric, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.answers import reasked
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.recall_control import recall_fields
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_SEED, NAN, import_scipy
from research_taste_evals.core.task_metric import logged_figures
from research_taste_evals.ideapairs.calibration import import_sklearn
from research_taste_evals.ideapairs.dataset import ORDERS
from research_taste_evals.ideapairs.metrics import (
    PAPER_BOOTSTRAP_RESAMPLES,
    bias_report,
    calibration,
    consistency_accuracy,
    leaderboard_ranking,
    tier_accuracy,
)
from research_taste_evals.ideapairs.parsing import parse_answer, parse_confidence
from research_taste_evals.ideapairs.recall import recall_controls
from research_taste_evals.ideapairs.solvers import ANSWERS_KEY
from research_taste_evals.ideapairs.specs import IDEA_PAIRS


def read_answer(text: str, prompt: str) -> str | None:
    """The picked position, "A" or "B", under the prompt that ran (``parsing.py``); else None."""
    return parse_answer(text, prompt)  # type: ignore[arg-type]


def probability_b(
    answer: str | None, completion: str, from_logprobs: float | None, prompt: str = "reasoning"
) -> tuple[float | None, str]:
    """P(Idea B is better) for one order and its source: logprobs, verbalised, or none.

    The ``paper`` prompt never reads a verbalised confidence: label-token logprobs or nothing.
    """
    if answer is None:
        return None, "none"
    if from_logprobs is not None:
        return from_logprobs, "logprobs"
    if prompt == "paper":
        return None, "none"
    confidence = parse_confidence(completion)
    if confidence is None:
        return None, "none"
    return (confidence if answer == "B" else 1.0 - confidence), "verbalised"


def pair_value(
    metadata: dict[str, Any], answers: dict[str, dict[str, Any]]
) -> tuple[dict[str, float], dict[str, Any]]:
    """The score value of a pair and the diagnostics shown in the transcript."""
    picks: dict[str, str | None] = {}
    probabilities: dict[str, float | None] = {}
    sources: dict[str, str] = {}
    prompt = metadata.get("prompt", "reasoning")
    for order in ORDERS:
        completion = answers[order]["completion"]
        letter = read_answer(completion, prompt)
        shown = metadata["orders"][order]
        picks[order] = None if letter is None else shown["idea_a" if letter == "A" else "idea_b"]
        probabilities[order], sources[order] = probability_b(
            letter, completion, answers[order]["p_b_logprobs"], prompt
        )
    better = metadata["better_id"]
    answered = all(pick is not None for pick in picks.values())
    consistent = answered and picks["original"] == picks["swapped"]
    correct = consistent and picks["original"] == better
    p_orig, p_swap = probabilities["original"], probabilities["swapped"]
    have_p = p_orig is not None and p_swap is not None
    value = {
        "correct": float(correct),
        "consistent": float(consistent),
        "answered": float(answered),
        "unparsed": float(sum(pick is None for pick in picks.values())),
        "original_correct": float(picks["original"] == better),
        "swapped_correct": float(picks["swapped"] == better),
        "verdict": (1.0 if correct else -1.0) if consistent else 0.0,
        "p_debiased": (p_orig + 1.0 - p_swap) / 2.0 if have_p else NAN,  # type: ignore[operator]
        "p_from_logprobs": sum(s == "logprobs" for s in sources.values()) / 2.0 if have_p else NAN,
        "y": 1.0 if metadata["orders"]["original"]["label"] == "B" else 0.0,
        "reasked": sum(reasked(answers[order].get("attempts")) for order in ORDERS),
    }
    details = {"picks": picks, "probabilities_b": probabilities, "probability_sources": sources}
    return value, details


def idea_pairs_metrics(mode: str, resamples: int, seed: int) -> list[Metric]:
    """Tier figures on the tier pairs; B.10's Top-1 and rank RMSE only in ranking mode."""
    return [
        consistency_accuracy(),
        tier_accuracy() if mode == "pairs" else leaderboard_ranking(),
        calibration(),
        bias_report(resamples=resamples, seed=seed),
        recall_controls(IDEA_PAIRS),
    ]


@metric
def idea_pairs_figures(
    mode: str = "pairs",
    resamples: int = PAPER_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Metric:
    """The idea-pair figures the log holds for the run's ``mode`` (its spec's list,
    ``core/task_metric.py``)."""
    return logged_figures(IDEA_PAIRS.first_names(mode), idea_pairs_metrics(mode, resamples, seed))


def idea_pairs_task_metric(mode: str, resamples: int, seed: int) -> Metric:
    """The task's metric: the figures of its mode, with its bootstrap settings."""
    import_scipy()  # the metrics' libraries, before the run rather than on its event loop
    import_sklearn()
    return idea_pairs_figures(mode=mode, resamples=resamples, seed=seed)


# The task gives the metric its mode and bootstrap settings (idea_pairs_task_metric).
@scorer(metrics=[idea_pairs_figures()])
def idea_pairs_scorer() -> Scorer:
    """Consistency-aware correctness of a pair judged in both orders, with its probability."""

    async def score(state: TaskState, target: Target) -> Score:
        answers = state.metadata[ANSWERS_KEY]
        value, details = pair_value(state.metadata, answers)
        prompt = state.metadata.get("prompt", "reasoning")
        letters = {
            order: read_answer(answers[order]["completion"], prompt) or "unparsed"
            for order in ORDERS
        }
        return Score(
            value=value,
            answer=f"original: {letters['original']}, swapped: {letters['swapped']}",
            explanation=(
                "consistent and correct"
                if value["correct"]
                else "consistent but wrong"
                if value["consistent"]
                else "inconsistent"
                if value["answered"]
                else "unparsed answer"
            ),
            # The typed reason every family uses for an answer that did not parse.
            reason=INVALID_RESPONSE_FORMAT if value["unparsed"] else None,
            metadata=details | recall_fields(IDEA_PAIRS, state),
        )

    return score
