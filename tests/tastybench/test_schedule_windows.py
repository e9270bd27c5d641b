"""Short common windows (3 and 6 months) for live sets: hand-worked velocities and maturity."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import pytest

from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.velocity import common_window_velocity
from research_taste_evals.tastybench.dataset import Paper
from research_taste_evals.tastybench.schedule import (
    SHORT_WINDOWS,
    judged_papers,
    longest_common_window,
)
from research_taste_evals.tastybench.tastybench import tastybench

# A paper published 2025-07-10: month starts 2025-08-01 .. 2026-04-01 (the first nine).
DATES = [dt.date(2025 + (m > 12), (m - 1) % 12 + 1, 1).isoformat() for m in range(8, 17)]
COUNTS = [0, 2, 7, 9, 15, 20, 30, 31, 40]


def test_short_windows_by_hand() -> None:
    assert SHORT_WINDOWS == (3, 6)
    late = dt.date(2026, 6, 1)  # every month start observed
    # 3 months: t = 0, 1, 2 against 0, 2, 7; centred t = -1, 0, 1 -> (7 - 0) / 2 = 3.5
    assert common_window_velocity(DATES, COUNTS, 3, late) == pytest.approx(3.5)
    # 6 months: centred t = -2.5 .. 2.5 (sum of squares 17.5) against 0, 2, 7, 9, 15, 20:
    # -1.5*2 - 0.5*7 + 0.5*9 + 1.5*15 + 2.5*20 = 70.5 -> 70.5 / 17.5
    assert common_window_velocity(DATES, COUNTS, 6, late) == pytest.approx(70.5 / 17.5)


def test_a_label_matures_with_its_window() -> None:
    """Fetched 2025-10-15, the paper has three month starts (Aug, Sep, Oct): its 3-month label
    exists, its 6-month label does not until the sixth month start (2026-01-01) has passed."""
    early = dt.date(2025, 10, 15)
    assert common_window_velocity(DATES, COUNTS, 3, early) == pytest.approx(3.5)
    assert math.isnan(common_window_velocity(DATES, COUNTS, 6, early))
    assert math.isnan(common_window_velocity(DATES, COUNTS, 6, dt.date(2025, 12, 31)))
    assert common_window_velocity(DATES, COUNTS, 6, dt.date(2026, 1, 1)) == pytest.approx(
        70.5 / 17.5
    )


def test_longest_common_window() -> None:
    assert longest_common_window([4, 9, 2, 20]) == 9  # two papers have 9 months
    assert longest_common_window([4, 9, 2], min_papers=3) == 2
    assert longest_common_window([1, 5]) is None  # the second paper has one month start only
    assert longest_common_window([7]) is None


def _paper(paper_id: str, common: float, months: int) -> Paper:
    return Paper(paper_id, paper_id, "2025-07-10", "text", 1.0, 1.0, common, months)


def test_a_window_too_long_names_the_longest_that_works() -> None:
    papers = [_paper("a", 3.5, 6), _paper("b", math.nan, 4), _paper("c", math.nan, 3)]
    with pytest.raises(ConfigError, match=r"only 1 papers have 6 months.*window_months=4 is"):
        judged_papers(papers, "common_window", 6)
    assert judged_papers(papers, "windowed", 6) == papers


def test_the_task_judges_a_recent_paper_on_a_3_month_window(demo_dir: Path) -> None:
    """demo0008 (published 2025-07-07, 22 citations a month, fetched 2025-11-08) has four month
    starts: counts 22, 44, 66, 88. Its 3-month velocity is 22; it has no 6-month window."""
    short = tastybench(data_path=str(demo_dir), velocity="common_window", window_months=3, rounds=1)
    six = tastybench(data_path=str(demo_dir), velocity="common_window", window_months=6, rounds=1)
    velocities = {
        sample.metadata[f"paper_{i}"]: sample.metadata[f"velocity_{i}"]
        for sample in short.dataset
        for i in (1, 2)
        if sample.metadata
    }
    assert velocities["demo0008"] == pytest.approx(22.0)
    assert short.metadata and six.metadata
    assert short.metadata["papers_judged"] == 10
    assert "demo0008" in six.metadata["papers_without_common_window"]
    assert six.metadata["papers_judged"] < short.metadata["papers_judged"]
