"""Each model's TastyBench round figures over the samples of every resolved round it judged
completely, pooled (prospective decisions only, as ``round_summary`` counts them): what the
rounds tests check the scored logs' sample scores add up to. The report ranks models across
rounds by ``reporting.round_board`` instead."""

from __future__ import annotations

from inspect_ai.scorer import SampleScore

from research_taste.reporting.rounds import RoundRow
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.tastybench.scorer import round_summary


def pooled(rows: list[RoundRow]) -> dict[str, dict[str, float]]:
    """Per model: ``round_summary`` over its complete judgments of resolved rounds."""
    by_model: dict[str, list[SampleScore]] = {}
    for row in rows:
        if not row.partial and row.metrics.get("pending_items") == 0:
            by_model.setdefault(row.model, []).extend(row.scores)
    return {
        model: round_summary(scores, DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED)
        for model, scores in by_model.items()
    }
