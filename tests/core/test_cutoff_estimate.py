"""The step fit of the cutoff the answers show, on hand-worked items."""

from __future__ import annotations

import datetime as dt
import math

from research_taste_evals.core.cutoff_estimate import estimate_cutoff, month_end
from research_taste_evals.core.dates import ItemDate


def _items(*pairs: tuple[str, bool | None]) -> list[tuple[ItemDate | None, bool | None]]:
    return [(ItemDate(*map(int, date.split("-"))), known) for date, known in pairs]


def test_clean_step() -> None:
    # Recognised through 2024-03, not from 2024-05: m = 2024-03 and 2024-04 both get 4/4
    # right; the tie goes to the latest, 2024-04.
    fit = estimate_cutoff(
        _items(("2024-01-10", True), ("2024-03", True), ("2024-05", False), ("2024-08", False))
    )
    assert fit.month == (2024, 4) and fit.agreement == 1.0 and fit.n == 4
    assert fit.yyyymm == 202404


def test_noisy_step_maximises_the_share_right() -> None:
    # 2024-01 T, 2024-02 F, 2024-03 T, 2024-04 F, 2024-05 F.
    # m=2023-12: 3/5; m=2024-01: 4/5; m=2024-02: 3/5; m=2024-03: 4/5; m=2024-04: 3/5;
    # m=2024-05: 2/5. Ties 2024-01 / 2024-03 -> the latest, 2024-03, agreement 4/5.
    fit = estimate_cutoff(
        _items(
            ("2024-01", True),
            ("2024-02", False),
            ("2024-03", True),
            ("2024-04", False),
            ("2024-05", False),
        )
    )
    assert fit.month == (2024, 3) and fit.agreement == 0.8 and fit.n == 5


def test_every_item_recognised_is_nan_through_the_newest_month() -> None:
    fit = estimate_cutoff(_items(("2023-11", True), ("2025-02-03", True)))
    assert fit.month is None and math.isnan(fit.yyyymm) and math.isnan(fit.agreement)
    assert fit.reason == "recognises every item, through 2025-02"
    assert fit.through == (2025, 2) and month_end(fit.through) == dt.date(2025, 2, 28)


def test_none_recognised_fits_the_month_before_the_earliest() -> None:
    fit = estimate_cutoff(_items(("2024-03", False), ("2024-07", False)))
    assert fit.month == (2024, 2) and fit.agreement == 1.0
    january = estimate_cutoff(_items(("2024-01", False)))
    assert january.month == (2023, 12)


def test_year_only_and_unprobed_items_are_left_out_and_counted() -> None:
    items = [(ItemDate(2023), True), (ItemDate(2025), False), (None, True)]
    items += _items(("2024-02", True), ("2024-06", False), ("2024-09", None))
    fit = estimate_cutoff(items)
    assert fit.n == 2 and fit.year_only == 2
    assert fit.month == (2024, 5)  # 2024-02..2024-05 all right: the latest
    only_years = estimate_cutoff([(ItemDate(2023), True)])
    assert only_years.month is None and only_years.year_only == 1
    assert "no probed item is dated by month" in only_years.reason
