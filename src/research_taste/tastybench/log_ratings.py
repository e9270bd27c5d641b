"""Per-paper ratings of a finished TastyBench run, read from its log (tests and docs use them)."""

from __future__ import annotations

from inspect_ai.log import EvalLog
from inspect_ai.scorer import SampleScore

from research_taste_evals.tastybench.ratings import RATING_METHODS, SCORER_NAME, collect


def scores_from_log(log: EvalLog) -> list[SampleScore]:
    """The TastyBench sample scores of a finished run, as the metrics receive them."""
    return [
        SampleScore(
            score=sample.scores[SCORER_NAME],
            sample_id=sample.id,
            sample_metadata=sample.metadata,
        )
        for sample in log.samples or []
        if sample.scores and SCORER_NAME in sample.scores
    ]


def ratings_from_log(log: EvalLog) -> dict[str, dict[str, float]]:
    """Per-paper ratings of a finished run: {"bt": {paper_id: rating}, "elo": {...}}.

    Rebuilt from the log's samples exactly as the metrics rebuild them (schedule order,
    unclear picks left out), so they are the ratings behind the reported correlations.
    """
    run = collect(scores_from_log(log))
    return {
        name: rate(run.comparisons, paper_ids=run.paper_ids)
        for name, rate in RATING_METHODS.items()
    }
