"""Plots keep their row labels whole and draw without a matplotlib warning (issue 42: the demo
report cut off ``ch-longer`` and ``=all_pairs`` and printed four "Tight layout not applied"
warnings naming a local path)."""

from __future__ import annotations

import warnings
from pathlib import Path

from PIL import Image
from report_rows import run_of

from research_taste.reporting.plots import plot_metric, plot_trend

LONG = "schedule=all_pairs representation=summary prompt=goodhart"


def _runs() -> list:
    return [
        run_of({"bt_spearman": 0.4}, model="baseline/tastybench-longer", config={"s": LONG}),
        run_of({"bt_spearman": -0.2}, model="baseline/tastybench-first", config={"s": "adjacent"}),
        run_of(
            {"bt_spearman": 0.1},
            model="baseline/tastybench-first",
            config={"s": LONG},
            created="2026-02-01T00:00:00",
        ),
    ]


def _left_and_right_edges_blank(path: Path) -> bool:
    """Nothing drawn in the image's outer columns: no label runs off its edge."""
    image = Image.open(path).convert("L")
    width, height = image.size
    columns = [[image.getpixel((x, y)) for y in range(height)] for x in (0, width - 1)]
    return all(value > 250 for column in columns for value in column)


def test_long_row_labels_fit_and_no_warning_is_printed(tmp_path: Path) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bars = plot_metric("tastybench", _runs(), "bt_spearman", tmp_path, (-1.0, 1.0))
        trend = plot_trend("tastybench", _runs(), "bt_spearman", tmp_path, (-1.0, 1.0))
    assert [str(warning.message) for warning in caught] == []
    assert trend is not None
    for path in (bars, trend):
        assert _left_and_right_edges_blank(path), path.name
    assert Image.open(bars).size[0] > 560  # grown to hold the labels, not cut to 560 px
