"""One way for tests to read a finished log's metrics."""

from __future__ import annotations

from inspect_ai.log import EvalLog

from research_taste_evals.core.task_metric import log_results


def metrics_of(log: EvalLog) -> dict[str, float]:
    """Every figure a successful log holds, by name (``log.results``; fails the test if the
    run did not succeed)."""
    assert log.status == "success", log.error
    assert log.results is not None
    return log_results(log)
