"""Item dates: parsing at the source's precision and the hand-worked cutoff comparison."""

from __future__ import annotations

import datetime as dt

import pytest

from research_taste_evals.core.data import DataError
from research_taste_evals.core.dates import (
    ItemDate,
    date_range,
    is_post_cutoff,
    parse_item_date,
    post_cutoff,
    require_item_date,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2024-03-15", ItemDate(2024, 3, 15)),
        ("2024-03-15T10:00:00Z", ItemDate(2024, 3, 15)),
        ("2024-03", ItemDate(2024, 3)),
        ("2024", ItemDate(2024)),
        (2019, ItemDate(2019)),
        (2019.0, ItemDate(2019)),
        ("2019.0", ItemDate(2019)),
        ("2403.01234", ItemDate(2024, 3)),
        ("arXiv:2403.01234v2", ItemDate(2024, 3)),
        ("1501.0001", ItemDate(2015, 1)),
        ("hep-th/9901001", ItemDate(1999, 1)),
        ("cs.CL/0612001", ItemDate(2006, 12)),
        (dt.date(2023, 10, 16), ItemDate(2023, 10, 16)),
        (None, None),
        ("", None),
        (float("nan"), None),
    ],
)
def test_parse_item_date(raw: object, expected: ItemDate | None) -> None:
    assert parse_item_date(raw) == expected


@pytest.mark.parametrize("raw", ["2024-13", "2024-02-30", "March 2024", "24", True, 2019.5])
def test_parse_item_date_rejects(raw: object) -> None:
    with pytest.raises(ValueError):
        parse_item_date(raw)


def test_require_item_date_names_the_field() -> None:
    with pytest.raises(DataError, match="papers.csv: record 3: field 'pub_date': no date"):
        require_item_date("", "papers.csv: record 3: field 'pub_date'")
    with pytest.raises(DataError, match="record 4.*'Spring' is not a date"):
        require_item_date("Spring", "papers.csv: record 4: field 'pub_date'")


CUTOFF = dt.date(2024, 6, 15)


# Hand-worked: by day with a day, by month with a month, by year with a year.
@pytest.mark.parametrize(
    ("item", "after"),
    [
        (ItemDate(2024, 6, 16), True),
        (ItemDate(2024, 6, 15), False),  # published on the cutoff day: not after it
        (ItemDate(2024, 6, 14), False),
        (ItemDate(2024, 7), True),
        (ItemDate(2024, 6), False),  # the cutoff's own month may predate the cutoff day
        (ItemDate(2024, 5), False),
        (ItemDate(2025), True),
        (ItemDate(2024), False),  # same year: could be before the cutoff
        (ItemDate(2023), False),
    ],
)
def test_is_post_cutoff(item: ItemDate, after: bool) -> None:
    assert is_post_cutoff(item, CUTOFF) is after


def test_post_cutoff_needs_every_item_and_a_cutoff() -> None:
    late, early = ItemDate(2025, 1), ItemDate(2023)
    assert post_cutoff([late, late], CUTOFF) is True
    assert post_cutoff([late, early], CUTOFF) is False
    assert post_cutoff([late, None], CUTOFF) is None
    assert post_cutoff([late], None) is None
    assert post_cutoff([], CUTOFF) is None


def test_precision_and_range() -> None:
    assert [d.precision for d in (ItemDate(1), ItemDate(1, 2), ItemDate(1, 2, 3))] == [
        "year",
        "month",
        "day",
    ]
    assert date_range([ItemDate(2025, 2), None, ItemDate(2023, 3, 30)]) == ("2023-03-30", "2025-02")
    assert date_range([None]) is None
