"""One way for tests to read a finished log's metrics."""

from __future__ import annotations

from inspect_ai.log import EvalLog


def metrics_of(log: EvalLog) -> dict[str, float]:
    """Every metric of a successful log, by name (fails the test if the run did not succeed)."""
    assert log.status == "success", log.error
    assert log.results is not None
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}
