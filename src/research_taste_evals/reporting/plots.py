"""Report plots (PNG): per-task bars with 95% error bars, and headline trends over sweep dates."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from research_taste_evals.reporting.leaderboard import cell, config_label, varying_keys
from research_taste_evals.reporting.runs import Run

DPI = 120
BAR_COLOR = "#4c72b0"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a display
    import matplotlib.pyplot as plt

    return plt


def _label(run: Run, keys: set[str]) -> str:
    config = config_label(run, keys)
    return run.model if config == "-" else f"{run.model}\n{config}"


def plot_bars(task: str, rows: list[Run], metrics: list[str], out_dir: Path) -> Path:
    """``<task>.png``: one panel per metric, one bar per row, 95% intervals as error bars.

    An undefined (NaN) value gets no bar and is marked ``nan`` so it never reads as 0.
    """
    plt = _pyplot()
    keys = varying_keys(rows)
    labels = [_label(run, keys) for run in rows]
    figure, axes = plt.subplots(
        1, len(metrics), figsize=(max(4.0, 1.3 * len(rows) + 2) * len(metrics), 4.2), squeeze=False
    )
    for axis, metric in zip(axes[0], metrics, strict=True):
        cells = [cell(run, metric) for run in rows]
        values = [c.value if c.value is not None else math.nan for c in cells]
        lower = [
            v - c.low if c.low is not None and not math.isnan(c.low) else 0.0
            for v, c in zip(values, cells, strict=True)
        ]
        upper = [
            c.high - v if c.high is not None and not math.isnan(c.high) else 0.0
            for v, c in zip(values, cells, strict=True)
        ]
        positions = range(len(rows))
        axis.bar(positions, [0.0 if math.isnan(v) else v for v in values], color=BAR_COLOR)
        # Whiskers only where the log holds an interval: a bar without one has none drawn.
        defined = [
            i
            for i, (v, c) in enumerate(zip(values, cells, strict=True))
            if not math.isnan(v) and c.low is not None
        ]
        axis.errorbar(
            [positions[i] for i in defined],
            [values[i] for i in defined],
            yerr=[[lower[i] for i in defined], [upper[i] for i in defined]],
            fmt="none",
            ecolor="black",
            capsize=4,
        )
        for i, value in enumerate(values):
            if math.isnan(value):
                axis.annotate("nan", (i, 0), ha="center", va="bottom", color="#c44e52")
        axis.set_xticks(list(positions), labels, rotation=25, ha="right", fontsize=7)
        axis.set_title(metric, fontsize=10)
    figure.suptitle(f"{task} (bars: value, whiskers: 95% interval where reported)", fontsize=10)
    figure.tight_layout()
    path = out_dir / f"{task}.png"
    figure.savefig(path, dpi=DPI)
    plt.close(figure)
    return path


def plot_trend(task: str, runs: list[Run], metric: str, out_dir: Path) -> Path:
    """``<task>_trend.png``: ``metric`` of each model (and configuration) over its run dates."""
    plt = _pyplot()
    keys = varying_keys(runs)
    series: dict[str, list[tuple[str, float]]] = {}
    for run in sorted(runs, key=lambda r: r.created):
        value = run.metrics.get(metric, math.nan)
        series.setdefault(_label(run, keys).replace("\n", " "), []).append(
            (run.created[:16], value)
        )
    figure, axis = plt.subplots(figsize=(7, 4))
    for label, points in sorted(series.items()):
        dates, values = zip(*points, strict=True)
        axis.plot(dates, values, marker="o", label=label)
    axis.set_ylabel(metric)
    axis.set_title(f"{task}: {metric} per model over sweep dates", fontsize=10)
    axis.tick_params(axis="x", rotation=25, labelsize=7)
    axis.legend(fontsize=7)
    figure.tight_layout()
    path = out_dir / f"{task}_trend.png"
    figure.savefig(path, dpi=DPI)
    plt.close(figure)
    return path
