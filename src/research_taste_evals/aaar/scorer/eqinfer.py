"""EqInfer scorers: pooled binary F1 (positive = correct equation) and four-way accuracy."""

from __future__ import annotations

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.dataset.eqinfer import LETTERS
from research_taste_evals.core.answers import ATTEMPTS_KEY, parse_binary, parse_choice
from research_taste_evals.core.metrics import (
    UnparsedPolicy,
    decision_accuracy,
    decision_f1,
    decision_precision,
    decision_recall,
    decision_value,
    unparsed_rate,
)
from research_taste_evals.core.stats import NAN

UNPARSED_REASON = "invalid_response_format"


@scorer(
    metrics=[
        decision_f1(),
        decision_precision(),
        decision_recall(),
        decision_accuracy(),
        unparsed_rate(),
    ]
)
def eqinfer_binary_scorer(parse_mode: UnparsedPolicy) -> Scorer:
    """Score one (instance, option) decision against its 0/1 label."""

    async def score(state: TaskState, target: Target) -> Score:
        label = int(target.text)
        prediction = parse_binary(state.output.completion)
        return Score(
            value=decision_value(label, prediction, parse_mode),
            answer=state.output.completion,
            reason=UNPARSED_REASON if prediction is None else None,
            explanation=f"label {label}, parsed answer {prediction} ({parse_mode} mode)",
            metadata={
                "label": label,
                "prediction": prediction,
                "parse_mode": parse_mode,
                "attempts": len(state.metadata.get(ATTEMPTS_KEY, [])),
            },
        )

    return score


def _choice_totals(scores: list[SampleScore]) -> tuple[float, float, float]:
    correct = scored = unparsed = 0.0
    for sample_score in scores:
        value = sample_score.score.value
        if isinstance(value, dict):
            correct += float(value.get("correct") or 0.0)
            scored += float(value.get("scored") or 0.0)
            unparsed += float(value.get("unparsed") or 0.0)
    return correct, scored, unparsed


@metric
def choice_accuracy() -> Metric:
    """Share of scored four-way answers that pick the paper's equation."""

    def compute(scores: list[SampleScore]) -> Value:
        correct, scored, _ = _choice_totals(scores)
        return correct / scored if scored else NAN

    return compute


@metric
def choice_unparsed_rate() -> Metric:
    """Share of four-way answers that are not a single option letter."""

    def compute(scores: list[SampleScore]) -> Value:
        return _choice_totals(scores)[2] / len(scores) if scores else NAN

    return compute


@scorer(metrics=[choice_accuracy(), choice_unparsed_rate()])
def eqinfer_choice_scorer(parse_mode: UnparsedPolicy) -> Scorer:
    """Score a four-way answer; unparsed answers are excluded (strict) or wrong (faithful)."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = parse_choice(state.output.completion, LETTERS)
        unparsed = answer is None
        counts = not unparsed or parse_mode == "faithful"
        return Score(
            value={
                "correct": 1.0 if answer == target.text else 0.0,
                "scored": 1.0 if counts else 0.0,
                "unparsed": 1.0 if unparsed else 0.0,
            },
            answer=state.output.completion,
            reason=UNPARSED_REASON if unparsed else None,
            explanation=f"target {target.text}, parsed answer {answer} ({parse_mode} mode)",
            metadata={"prediction": answer, "parse_mode": parse_mode},
        )

    return score
