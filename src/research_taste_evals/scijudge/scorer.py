"""Per-row scoring: the paper the answer picks against ``correct_answer``.

``Score.value``: ``correct`` (1/0; an answer that does not parse after its re-ask is wrong, and
counted), ``unparsed``, ``reasked`` and ``picked_a`` (NaN when unparsed). ``Score.metadata``:
the row's ``pair_id``, ``variation`` and ``category`` (the metrics group by them) and the
recall fields (``core/recall_control.py``) the twins read.

The same per-row score feeds two score groups (``metrics.py``): :func:`scijudge` (headline) and
:func:`scijudge_details`; the second reads the answer again, it makes no model call.
"""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.answers import ATTEMPTS_KEY, reasked
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.recall_control import recall_fields
from research_taste_evals.core.stats import NAN
from research_taste_evals.scijudge.metrics import scijudge_details, scijudge_headline
from research_taste_evals.scijudge.parsing import parse_answer
from research_taste_evals.scijudge.recall import SCIJUDGE


def _row_score(state: TaskState, target: Target) -> Score:
    letter = parse_answer(state.output.completion, state.metadata.get("prompt", "dataset"))
    return Score(
        value={
            "correct": float(letter == target.text),
            "unparsed": float(letter is None),
            "reasked": reasked(state.metadata.get(ATTEMPTS_KEY)),
            "picked_a": NAN if letter is None else float(letter == "A"),
        },
        answer=letter or "unparsed",
        explanation=f"picked {letter}, answer {target.text}" if letter else "unparsed answer",
        reason=INVALID_RESPONSE_FORMAT if letter is None else None,
        metadata={key: state.metadata.get(key) for key in ("pair_id", "variation", "category")}
        | recall_fields(SCIJUDGE, state),
    )


def scijudge_scorers(resamples: int, seed: int) -> list[Scorer]:
    """The headline scorer and the details scorer, their metrics bound to the bootstrap."""

    @scorer(metrics=[scijudge_headline(resamples=resamples, seed=seed)], name="scijudge")
    def headline() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return _row_score(state, target)

        return score

    @scorer(metrics=[scijudge_details(resamples=resamples, seed=seed)], name="scijudge_details")
    def details() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return _row_score(state, target)

        return score

    return [headline(), details()]
