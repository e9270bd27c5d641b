"""One way for tests to read a finished log's metrics."""

from __future__ import annotations

from inspect_ai.log import EvalLog

from research_taste_evals.core.metric_groups import log_figures


def metrics_of(log: EvalLog) -> dict[str, float]:
    """Every figure of a successful log, by name: its first group and those derived from its
    samples (fails the test if the run did not succeed)."""
    assert log.status == "success", log.error
    assert log.results is not None
    return log_figures(log)
