"""EqInfer per-sample scorers: each answer read strictly and as the release code reads it.

Strict (headline): an answer that is not a bare 0/1 (or option letter) is counted as unparsed
and left out of F1. Faithful (paper comparison): the release code's ``int()`` / normalised
exact match, a never-readable answer forced to the wrong label
(``scripts/subtask1_equation_model_eval_binary.py``, ``subtask1_equation_model_eval.py``); with
``faithful_reader="vllm"`` the open-weights script's reading instead (exact ``0``/``1`` on the
first answer, no re-ask, ``..._binary.open_source.py``). Both readings of the same answers are
kept in every score's metadata.
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.scorer import Metric, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.aaar.dataset.eqinfer import LETTERS
from research_taste_evals.aaar.metrics import (
    FAITHFUL_PREFIX,
    choice_accuracy,
    choice_unparsed_rate,
    faithful_accuracy,
    faithful_choice_accuracy,
    faithful_f1,
    faithful_forced_rate,
    faithful_precision,
    faithful_recall,
)
from research_taste_evals.aaar.parsing import (
    FaithfulReader,
    faithful_binary,
    faithful_choice_correct,
    strict_binary,
    strict_choice,
    vllm_binary,
)
from research_taste_evals.aaar.specs import EQINFER
from research_taste_evals.core.answers import ATTEMPTS_KEY, reasked
from research_taste_evals.core.metrics import (
    decision_accuracy,
    decision_f1,
    decision_precision,
    decision_recall,
    decision_value,
    reasked_rate,
    unparsed_rate,
)
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.task_metric import logged_figures


def first_read(attempts: list[str], read: Callable[[str], int | None]) -> int | None:
    """The first label ``read`` gets from the attempts, in order (None if none)."""
    for answer in attempts:
        label = read(answer)
        if label is not None:
            return label
    return None


# Each variant's metrics; its spec (``specs.py``) says which figures the log shows, in order.
_BINARY = (
    decision_f1(),
    decision_precision(),
    decision_recall(),
    decision_accuracy(),
    unparsed_rate(),
    reasked_rate(),
    faithful_f1(),
    faithful_precision(),
    faithful_recall(),
    faithful_accuracy(),
    faithful_forced_rate(),
)
_CHOICE = (
    choice_accuracy(),
    choice_unparsed_rate(),
    faithful_choice_accuracy(),
    unparsed_rate(),  # the agreed name, = choice_unparsed_rate
    reasked_rate(),
)


@metric
def eqinfer_figures(variant: str = "binary") -> Metric:
    """The ``variant``'s figures: those its spec names (at most eleven)."""
    bundle = _BINARY if variant == "binary" else _CHOICE
    return logged_figures(EQINFER.first_names(variant), bundle)


@scorer(metrics=[eqinfer_figures("binary")])
def eqinfer_binary_scorer(faithful_reader: FaithfulReader = "api") -> Scorer:
    """Score one (instance, option) decision against its 0/1 label, in both parse modes.

    ``faithful_reader``: ``api`` (``int()`` on the first readable attempt) or ``vllm`` (exact
    ``0``/``1`` on the first attempt only) fills ``faithful_*``; both are in the metadata.
    """

    async def score(state: TaskState, target: Target) -> Score:
        label = int(target.text)
        attempts: list[str] = state.metadata.get(ATTEMPTS_KEY) or [state.output.completion]
        strict = first_read(attempts, strict_binary)
        api = first_read(attempts, faithful_binary)
        vllm = vllm_binary(attempts[0])
        faithful = api if faithful_reader == "api" else vllm
        value = decision_value(label, strict, "strict")
        value["reasked"] = reasked(attempts)
        value.update(
            {
                FAITHFUL_PREFIX + key: number
                for key, number in decision_value(label, faithful, "faithful").items()
            }
        )
        return Score(
            value=value,
            answer=state.output.completion,
            reason=INVALID_RESPONSE_FORMAT if strict is None else None,
            explanation=(
                f"label {label}; strict reading {strict}, release-code ({faithful_reader}) reading "
                f"{faithful if faithful is not None else f'none (forced to {1 - label})'}; "
                f"{len(attempts)} attempt(s)"
            ),
            metadata={
                "label": label,
                "prediction": strict,
                "faithful_prediction": faithful,
                "faithful_reader": faithful_reader,
                "faithful_api_prediction": api,
                "faithful_vllm_prediction": vllm,
                "attempts": len(attempts),
            },
        )

    return score


@scorer(metrics=[eqinfer_figures("multiple_choice")])
def eqinfer_choice_scorer() -> Scorer:
    """Score a four-way answer: strict letter (unparsed excluded) and released exact match."""

    async def score(state: TaskState, target: Target) -> Score:
        text = state.output.completion
        answer = strict_choice(text, LETTERS)
        unparsed = answer is None
        return Score(
            value={
                "correct": 1.0 if answer == target.text else 0.0,
                "scored": 0.0 if unparsed else 1.0,
                "unparsed": 1.0 if unparsed else 0.0,
                "faithful_correct": 1.0 if faithful_choice_correct(text, target.text) else 0.0,
                "reasked": reasked(state.metadata.get(ATTEMPTS_KEY)),
            },
            answer=text,
            reason=INVALID_RESPONSE_FORMAT if unparsed else None,
            explanation=f"target {target.text}, strict reading {answer}",
            metadata={"prediction": answer},
        )

    return score
