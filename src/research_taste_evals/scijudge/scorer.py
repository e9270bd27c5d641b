"""Per-row scoring: the paper the answer picks against ``correct_answer``.

One sample is one order of a couple (``dataset.py``). ``Score.value``: ``correct`` (1/0; an
answer that does not parse is wrong, and counted), ``unparsed``, ``reasked`` and ``picked_a``
(NaN when unparsed). ``Score.metadata``: the sample's ``pair_id``, ``couple_id``, ``order``,
``couples``, ``variation`` and ``category`` (the metrics group by them) and the recall fields
(``core/recall_control.py``) the twins read.

One score group (``core/task_metric.py``): :func:`scijudge_scorer` logs the figures its spec
names (``specs.py``); the log holds every figure the report shows.
"""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from research_taste_evals.core.answers import ATTEMPTS_KEY, reasked
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT
from research_taste_evals.core.recall_control import recall_fields
from research_taste_evals.core.stats import NAN
from research_taste_evals.scijudge.metrics import scijudge_figures
from research_taste_evals.scijudge.parsing import parse_answer
from research_taste_evals.scijudge.specs import SCIJUDGE

SCORE_KEYS = ("pair_id", "couple_id", "order", "couples", "variation", "category")


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
        metadata={key: state.metadata.get(key) for key in SCORE_KEYS}
        | recall_fields(SCIJUDGE, state),
    )


# The task gives the metric its bootstrap settings (core/task_metric.py).
@scorer(metrics=[scijudge_figures()])
def scijudge_scorer() -> Scorer:
    """The paper the answer picks against ``correct_answer``."""

    async def score(state: TaskState, target: Target) -> Score:
        return _row_score(state, target)

    return score
