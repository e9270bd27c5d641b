from __future__ import annotations

import csv
import datetime as dt
import json
import math
from pathlib import Path

import pytest

from research_taste_evals.core import velocity
from research_taste_evals.core.velocity import ols_slope
from research_taste_evals.tastybench.dataset import UPSTREAM_FETCH_DATE


def observed_months(dates: list[str]) -> int:
    return velocity.observed_months(dates, UPSTREAM_FETCH_DATE)


def windowed_velocity(
    dates: list[str], counts: list[int], fetch_date: dt.date = UPSTREAM_FETCH_DATE
) -> float:
    return velocity.windowed_velocity(dates, counts, fetch_date)


def common_window_velocity(dates: list[str], counts: list[int], window_months: int) -> float:
    return velocity.common_window_velocity(dates, counts, window_months, UPSTREAM_FETCH_DATE)


def test_ols_slope_hand_values() -> None:
    assert ols_slope([0, 1, 2, 3]) == pytest.approx(1.0)
    # y = 2, 4, 4, 6 against t = 0..3: slope = sum(t' y') / sum(t'^2) = 6 / 5
    assert ols_slope([2, 4, 4, 6]) == pytest.approx(1.2)
    assert ols_slope([0, 0, 0]) == 0.0
    assert math.isnan(ols_slope([5]))
    assert math.isnan(ols_slope([]))


def test_windowed_velocity_ignores_flat_filled_months() -> None:
    dates = ["2025-08-01", "2025-09-01", "2025-10-01", "2025-11-01", "2025-12-01", "2026-01-01"]
    counts = [10, 20, 30, 40, 40, 40]
    assert observed_months(dates) == 4  # 2025-11-01 had begun by 2025-11-08
    assert windowed_velocity(dates, counts) == pytest.approx(10.0)
    assert ols_slope(counts) < 10.0  # upstream's b is dragged down by the flat tail
    assert windowed_velocity(dates, counts, fetch_date=dt.date(2026, 2, 1)) == ols_slope(counts)
    assert math.isnan(windowed_velocity(dates, counts, fetch_date=dt.date(2025, 8, 15)))


def test_bad_series_raise() -> None:
    with pytest.raises(ValueError, match="differ|citation"):
        windowed_velocity(["2025-01-01"], [1, 2])
    with pytest.raises(ValueError, match="increasing"):
        observed_months(["2025-02-01", "2025-01-01"])
    with pytest.raises(ValueError):
        observed_months(["not a date"])


def test_fetch_date_is_the_upstream_results_date() -> None:
    assert dt.date(2025, 11, 8) == UPSTREAM_FETCH_DATE


@pytest.mark.upstream
def test_upstream_b_is_the_full_series_slope(tastybench_upstream: Path) -> None:
    """Upstream's b is exactly the OLS slope over all months; 24 of 37 curated series have
    months after the fetch date (upstream acceleration-proxies/citation_velocity.py)."""
    data = tastybench_upstream / "model-elicitation" / "data"
    for name in ("llm_rl_yix_curate.csv", "llm_rl.csv"):
        with (data / name).open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        for row in rows:
            counts = json.loads(row["citation_counts"])
            assert ols_slope(counts) == pytest.approx(float(row["b"]), abs=1e-9), row["paperId"]
        if name == "llm_rl_yix_curate.csv":
            truncated = [
                row
                for row in rows
                if observed_months(json.loads(row["citation_dates"]))
                < len(json.loads(row["citation_dates"]))
            ]
            assert len(rows) == 37 and len(truncated) == 24


def test_common_window_fits_the_same_months_for_every_paper() -> None:
    dates = ["2025-08-01", "2025-09-01", "2025-10-01", "2025-11-01", "2025-12-01", "2026-01-01"]
    counts = [10, 20, 40, 40, 40, 40]  # four months observed by 2025-11-08
    # window 3: slope of 10, 20, 40 against t = 0, 1, 2 is 15; the later months do not count
    assert common_window_velocity(dates, counts, window_months=3) == pytest.approx(15.0)
    assert common_window_velocity(dates, counts, window_months=4) == pytest.approx(11.0)
    assert math.isnan(common_window_velocity(dates, counts, window_months=5))  # lacks the window
    with pytest.raises(ValueError, match="window_months"):
        common_window_velocity(dates, counts, window_months=1)
