"""Report plots (PNG): one small chart per metric, and a trend chart when there are trends.

Each metric gets its own horizontal bar chart (rows on the y axis, so long model names stay
readable), sized to be shown at its natural size (about 560 x 100+40/row px, wider when a
row label needs it: the image grows to hold every label, none is cut off). Every bar is
labelled with its value, so a 0 reads ``0.00`` and an undefined value reads ``nan
(undefined)`` instead of an empty panel; whiskers are the 95% interval where the log has one.
A trend chart (headline metric over sweep dates) is drawn only for two or more sweep dates.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Any

from research_taste.reporting.cells import cell, fmt
from research_taste.reporting.leaderboard import config_label, varying_keys
from research_taste.reporting.runs import Run

DPI = 100
BAR_COLOR = "#4c72b0"
PARTIAL_COLOR = "#f0ad4e"
NAN_COLOR = "#c44e52"
WIDTH_IN = 5.6
FONT = 10
LABEL_ROOM = 0.22  # share of the scale added right of it for the value labels
LABEL_WIDTH = 34  # characters of a row label's configuration line before it wraps


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a display
    import matplotlib.pyplot as plt

    return plt


def _label(run: Run, keys: set[str]) -> str:
    """The model, then its configuration wrapped at :data:`LABEL_WIDTH` characters."""
    config = config_label(run, keys)
    lines = [run.model, *(textwrap.wrap(config, LABEL_WIDTH) if config != "-" else [])]
    name = "\n".join(lines)
    return f"{name} (partial)" if run.partial else name


def _save(figure: Any, path: Path) -> Path:
    """Write ``figure`` grown to hold every label (``bbox_inches="tight"``: a long row label
    widens the image instead of being cut off; no ``tight_layout``, whose "not applied"
    warning named a local path) and close it."""
    figure.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.1)
    _pyplot().close(figure)
    return path


def _span(
    values: list[float],
    lows: list[float],
    highs: list[float],
    fixed: tuple[float, float] | None = None,
) -> tuple[float, float]:
    """The axis scale: the metric's declared range (``fixed``) widened only to take values
    outside it, else from 0 to the values (0..1 when every value is 0 or undefined)."""
    finite = [v for v in (*values, *lows, *highs) if not math.isnan(v)]
    low, high = fixed if fixed else (0.0, 0.0)
    low, high = min([low, 0.0, *finite]), max([high, 0.0, *finite])
    return (low, high) if high > low else (low, low + 1.0)


def _range_ticks(axis: Any, low: float, high: float) -> None:
    """Ticks and the bottom spine only within ``low..high``: the label room is not scale."""
    ticks = [tick for tick in axis.get_xticks() if low - 1e-9 <= tick <= high + 1e-9]
    axis.set_xticks(ticks)
    axis.spines["bottom"].set_bounds(low, high)


def plot_metric(
    task: str,
    rows: list[Run],
    metric: str,
    out_dir: Path,
    value_range: tuple[float, float] | None = None,
) -> Path:
    """``<task>-<metric>.png``: one bar per row, its value printed, 95% whiskers if reported.

    The axis spans ``value_range`` (the metric's declared range, e.g. 0-10 for LFT levels)
    when given, else 0 to the values; either way it takes every value and interval.
    """
    plt = _pyplot()
    keys = varying_keys(rows)
    cells = [cell(run, metric) for run in rows]
    values = [c.value if c.value is not None else math.nan for c in cells]
    lows = [c.low if c.low is not None else math.nan for c in cells]
    highs = [c.high if c.high is not None else math.nan for c in cells]
    labels = [_label(run, keys) for run in rows]
    extra_lines = sum(label.count("\n") for label in labels)  # a wrapped label needs room
    height = 1.0 + 0.45 * max(len(rows), 2) + 0.15 * extra_lines
    figure, axis = plt.subplots(figsize=(WIDTH_IN, height))
    positions = list(range(len(rows)))[::-1]  # the first row on top
    colors = [PARTIAL_COLOR if run.partial else BAR_COLOR for run in rows]
    bars = [0.0 if math.isnan(v) else v for v in values]
    axis.barh(positions, bars, color=colors, height=0.6)
    for y, value, low, high in zip(positions, values, lows, highs, strict=True):
        if not math.isnan(value) and not math.isnan(low) and not math.isnan(high):
            axis.errorbar(
                [value],
                [y],
                xerr=[[value - low], [high - value]],
                fmt="none",
                ecolor="black",
                capsize=3,
                linewidth=1,
            )
    low, high = _span(values, lows, highs, value_range)
    pad = LABEL_ROOM * (high - low)  # room for the value labels beside the bars
    axis.set_xlim(low - (pad if low < 0 and not value_range else 0.0), high + pad)
    _range_ticks(axis, low, high)
    for y, value, high in zip(positions, values, highs, strict=True):
        if math.isnan(value):
            axis.annotate(
                "nan (undefined)",
                (0, y),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
                color=NAN_COLOR,
                fontsize=FONT,
            )
            continue
        anchor = value if math.isnan(high) else max(value, high)
        axis.annotate(
            fmt(value),
            (max(anchor, 0.0), y),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=FONT,
        )
    axis.set_yticks(positions, labels, fontsize=FONT - 1)
    axis.axvline(0, color="#888", linewidth=0.8)
    axis.tick_params(axis="x", labelsize=FONT - 1)
    axis.set_title(f"{task}: {metric}", fontsize=FONT + 1, loc="left")
    axis.spines[["top", "right"]].set_visible(False)
    return _save(figure, out_dir / f"{task}-{metric}.png")


def sweep_dates(runs: list[Run]) -> list[str]:
    """The distinct days the runs were made on."""
    return sorted({run.created[:10] for run in runs})


def plot_trend(
    task: str,
    runs: list[Run],
    metric: str,
    out_dir: Path,
    value_range: tuple[float, float] | None = None,
) -> Path | None:
    """``<task>_trend.png``: ``metric`` per model over sweep dates; None under two dates.

    The y axis spans ``value_range`` (widened to any value outside it) when given."""
    if len(sweep_dates(runs)) < 2:
        return None
    plt = _pyplot()
    keys = varying_keys(runs)
    series: dict[str, list[tuple[str, float]]] = {}
    for run in sorted(runs, key=lambda r: r.created):
        value = run.metrics.get(metric, math.nan)
        series.setdefault(_label(run, keys).replace("\n", " "), []).append(
            (run.created[:10], value)
        )
    figure, axis = plt.subplots(figsize=(WIDTH_IN, 3.6))
    for label, points in sorted(series.items()):
        dates, values = zip(*points, strict=True)
        axis.plot(dates, values, marker="o", label=label)
    if value_range:
        seen = [v for points in series.values() for _, v in points if not math.isnan(v)]
        axis.set_ylim(min([value_range[0], *seen]), max([value_range[1], *seen]))
    axis.set_ylabel(metric, fontsize=FONT)
    axis.set_title(f"{task}: {metric} over sweep dates", fontsize=FONT + 1, loc="left")
    axis.tick_params(labelsize=FONT - 1)
    axis.legend(fontsize=FONT - 2)
    return _save(figure, out_dir / f"{task}_trend.png")
