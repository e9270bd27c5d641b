"""The report explains its clean figures (issue 42): why one is missing when the raw one is NaN,
and which cutoff made items clean, stated or estimated by the recognition probe."""

from __future__ import annotations

import pytest
from report_rows import run_of

from research_taste.reporting.families import task_specs
from research_taste.reporting.leaderboard import table_rows
from research_taste.reporting.recognition import ESTIMATED, STATED
from research_taste.reporting.runs import Run

NAN = float("nan")


def _cells(run: Run) -> dict[str, str]:
    header, line = table_rows("tastybench", [run], ["bt_spearman"])
    return dict(zip(header, line, strict=True))


def test_a_clean_figure_nan_because_the_raw_one_is_nan_says_so() -> None:
    """The sweep demo said 'too few clean items (10, fewer than 3)' for clean_items 10."""
    run = run_of(
        {"bt_spearman": NAN, "bt_spearman_clean": NAN, "clean_items": 10, "clean_cutoff": 200001}
    )
    shown = _cells(run)["bt_spearman_clean (n)"]
    assert shown == "– (undefined: the raw bt_spearman is NaN too)"
    defined = run_of({"bt_spearman": 0.4, "bt_spearman_clean": NAN, "clean_items": 10})
    assert _cells(defined)["bt_spearman_clean (n)"] == "– (undefined on its 10 clean items)"


@pytest.mark.parametrize(
    ("metrics", "cutoff_arg", "shown"),
    [
        # The sweep demo: no cutoff stated, the probe's estimate made items clean.
        ({"estimated_cutoff": 202402, "clean_cutoff": 202402}, None, f"2024-02 {ESTIMATED}"),
        # Stated and later than the estimate: the stated one was used.
        ({"estimated_cutoff": 202301, "clean_cutoff": 202406}, "2024-06-30", f"2024-06 {STATED}"),
        # Stated but earlier than the estimate: the estimate was used.
        ({"estimated_cutoff": 202402, "clean_cutoff": 202402}, "2000-01", f"2024-02 {ESTIMATED}"),
        # A cutoff from Inspect's model database (no argument; post_cutoff_recognized defined).
        ({"clean_cutoff": 202310, "post_cutoff_recognized": 0}, None, f"2023-10 {STATED}"),
        ({"clean_cutoff": NAN}, None, "none"),
    ],
)
def test_the_table_shows_which_cutoff_made_items_clean(
    metrics: dict[str, float], cutoff_arg: str | None, shown: str
) -> None:
    args = {"knowledge_cutoff": cutoff_arg} if cutoff_arg else {}
    run = run_of({"bt_spearman": 0.5, **metrics}, task_args=args)
    assert _cells(run)["clean_cutoff"] == shown


def test_the_clean_meaning_does_not_say_nan_without_a_stated_cutoff() -> None:
    """The probe estimates a cutoff when none is stated: 'NaN without a cutoff' misled."""
    for task in ("tastybench", "idea_pairs"):
        meaning = task_specs()[task].meaning(task_specs()[task].headline_metrics[0] + "_clean")
        assert meaning and "without a cutoff" not in meaning, meaning
