"""How tests read a finished log's figures: those it holds, and those a test computes again."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from inspect_ai.log import EvalLog
from inspect_ai.scorer import Metric, SampleScore, Score

from research_taste_evals.core.task_metric import figures, log_results


def metrics_of(log: EvalLog) -> dict[str, float]:
    """Every figure a successful log holds, by name (``log.results``; fails the test if the
    run did not succeed)."""
    assert log.status == "success", log.error
    assert log.results is not None
    return log_results(log)


def computed_of(log: EvalLog, metrics: Sequence[Metric]) -> dict[str, float]:
    """The figures of ``metrics`` over a successful log's (epoch-reduced) sample scores: a
    test's own analysis of a figure the family computes but the log does not hold (per-item
    detail, a diagnostic no reader shows)."""
    assert log.status == "success", log.error
    if not log.samples:  # a run with log_samples=False: only the figures the log holds
        return metrics_of(log)
    (scorer,) = {name for sample in log.samples for name in sample.scores or {}}
    metadata = {sample.id: sample.metadata for sample in log.samples or []}
    reduced = next((r for r in log.reductions or [] if r.scorer == scorer), None)
    if reduced is not None:
        scores = [
            SampleScore(
                score=Score(**{k: v for k, v in s.__dict__.items() if k != "sample_id"}),
                sample_id=s.sample_id,
                sample_metadata=metadata.get(s.sample_id) if s.sample_id is not None else None,
                scorer=scorer,
            )
            for s in reduced.samples
        ]
    else:
        scores = [
            SampleScore(score=sample.scores[scorer], sample_id=sample.id,
                        sample_metadata=sample.metadata, scorer=scorer)
            for sample in log.samples or [] if sample.scores
        ]  # fmt: skip
    # The metrics' lines (a NaN's reason, a contradicted cutoff) were said when the run computed
    # them; this analysis says them not again.
    logger = logging.getLogger("research_taste_evals")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        computed = figures(metrics, scores)
    finally:
        logger.setLevel(level)
    return {**computed, **metrics_of(log)}


def _bundles() -> dict[str, Callable[..., Sequence[Metric]]]:
    """Each task metric's name -> the family's metrics it keeps figures of, from its options."""
    from research_taste_evals.aaar.scorer import task_metrics as aaar
    from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED
    from research_taste_evals.ideapairs.metrics import PAPER_BOOTSTRAP_RESAMPLES
    from research_taste_evals.ideapairs.scorer import idea_pairs_metrics
    from research_taste_evals.lft import task_metrics as lft
    from research_taste_evals.reviewcritique.metrics import reviewcritique_metrics
    from research_taste_evals.scijudge.metrics import scijudge_metrics
    from research_taste_evals.tastybench.scorer import tastybench_metrics

    return {
        "expdesign_figures": lambda: aaar._EXPDESIGN,
        "weakness_figures": lambda: aaar._WEAKNESS,
        "idea_pairs_figures": lambda **o: idea_pairs_metrics(
            o.get("mode", "pairs"),
            o.get("resamples", PAPER_BOOTSTRAP_RESAMPLES),
            o.get("seed", DEFAULT_BOOTSTRAP_SEED),
        ),
        "lft_figures": lambda: lft._LFT,
        "grader_check_figures": lambda: lft._CHECK,
        "reviewcritique_figures": lambda **options: [reviewcritique_metrics(**options)],
        "scijudge_figures": lambda **options: [scijudge_metrics(**options)],
        "tastybench_figures": lambda **o: tastybench_metrics(
            o.get("group", "ratings"),
            o.get("resamples", DEFAULT_BOOTSTRAP_RESAMPLES),
            o.get("seed", DEFAULT_BOOTSTRAP_SEED),
        ),
    }


def every_figure_of(log: EvalLog) -> dict[str, float]:
    """Every figure the log's task metric computes (those it logs and those it leaves out),
    over the log's sample scores, with the options its header records: a test's analysis."""
    declared = [m for m in log.eval.metrics or [] if not isinstance(m, dict)]
    for scorer in log.eval.scorers or []:
        declared += [m for m in scorer.metrics or [] if not isinstance(m, dict)]  # type: ignore[union-attr]
    bundles = _bundles()
    found = [m for m in declared if m.name.split("/")[-1] in bundles]
    if not found:  # a task whose metrics log every figure they compute (tastybench_extract)
        return metrics_of(log)
    definition = found[0]
    make = bundles[definition.name.split("/")[-1]]
    return computed_of(log, make(**(definition.options or {})))
