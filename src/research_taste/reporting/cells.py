"""One figure of a table: its value, its 95% interval and how it is printed.

Shared by the leaderboards (``leaderboard.py``), the controlled headline (``controlled.py``),
the page (``site.py``) and the plots, so none of them imports another for a cell. A log's
interval is ``<metric>_ci_low``/``<metric>_ci_high`` (every family since issue 34) or
``<metric>/ci_low``/``<metric>/ci_high`` (idea pairs' older logs, still read), else
``<metric>_stderr`` as a normal interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

Z_95 = 1.959963984540054  # two-sided 95% normal quantile, for stderr-based intervals
CI_LOW, CI_HIGH, STDERR = "_ci_low", "_ci_high", "_stderr"
# The CI key spellings logs hold: the shared one first, idea pairs' older one second.
CI_SUFFIXES = ((CI_LOW, CI_HIGH), ("/ci_low", "/ci_high"))
SIGNIFICANT = 3  # every figure of every table and plot: three significant digits
DASH = "–"  # a figure the log does not hold


class HasMetrics(Protocol):
    """Anything with a log's metrics (a ``runs.Run``)."""

    @property
    def metrics(self) -> dict[str, float]: ...


def fmt(value: float | None) -> str:
    """Three significant digits (``0.400``, ``5.95``, ``12.3``, ``1,234``); NaN shows as ``nan``."""
    if value is None:
        return ""
    if math.isnan(value):
        return "nan"
    if math.isinf(value) or abs(value) >= 10**SIGNIFICANT:
        return f"{value:,.0f}"
    return f"{value:#.{SIGNIFICANT}g}".rstrip(".")


@dataclass(frozen=True)
class Cell:
    """One metric value of a row with its interval (None where the log has none)."""

    value: float | None
    low: float | None = None
    high: float | None = None

    def text(self) -> str:
        if self.value is None:
            return ""
        shown = fmt(self.value)
        if self.low is not None and self.high is not None:
            shown += f" [{fmt(self.low)}, {fmt(self.high)}]"
        return shown


def interval(run: HasMetrics, metric: str) -> tuple[float, float] | None:
    """``metric``'s logged 95% interval in either key spelling, or None."""
    for low_key, high_key in CI_SUFFIXES:
        low, high = run.metrics.get(metric + low_key), run.metrics.get(metric + high_key)
        if low is not None and high is not None:
            return low, high
    return None


def cell(run: HasMetrics, metric: str) -> Cell:
    """``metric`` of ``run`` with its 95% interval when the log holds one."""
    value = run.metrics.get(metric)
    if value is None:
        return Cell(None)
    found = interval(run, metric)
    if found is not None:
        return Cell(value, *found)
    stderr = run.metrics.get(metric + STDERR)
    if stderr is not None and not math.isnan(stderr) and not math.isnan(value):
        return Cell(value, value - Z_95 * stderr, value + Z_95 * stderr)
    return Cell(value)
