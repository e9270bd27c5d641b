"""Appendix A.3 and section 4 ("Train-Test Split") of Mule et al.: year buckets and the split.

Leaderboards are visited in the order they were read. Within one:

1. Entries are grouped into year buckets; a bucket with fewer than 5 unique papers is merged
   with an adjacent one (the next later bucket; the last merges into the one before).
2. Split (random mode): a leaderboard with fewer than 4 ideas goes wholly to train; otherwise
   each bucket's papers are split 80/20 with a seeded generator. A paper already assigned on an
   earlier leaderboard keeps its split and counts towards the bucket's 20%, so no paper (and
   hence no idea) is ever in both train and test. Time mode (``test_after``): a paper is test
   when its year is after ``test_after``, train otherwise.
3. Validation (Algorithm 2): while a bucket has fewer than 5 papers or fewer than 2 test papers
   and more than one bucket remains, it is merged with an adjacent one. The merge must stop at
   one bucket: the paper itself forms pairs on two-entry leaderboards (appendix B.1), so a
   leaderboard's last bucket is kept even when it is small.

The split unit is the paper (normalised arXiv id, else URL, else title): ideas extracted from
one paper share a split, which is what keeps an idea out of both train and test.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from research_taste.builders.ideapairs.boards import Entry
from research_taste.builders.ideapairs.scoring import ScoredBoard
from research_taste_evals.core.data import DataError
from research_taste_evals.core.dates import ItemDate, is_post_cutoff, parse_item_date
from research_taste_evals.core.text import content_id

Split = Literal["train", "test"]
MIN_BUCKET_PAPERS = 5
MIN_BUCKET_TEST_PAPERS = 2
MIN_IDEAS_FOR_TEST = 4
TEST_SHARE = 0.2

_ARXIV_ID = re.compile(r"arxiv\.org/(?:abs|pdf)/([\w.\-/]+?)(?:v\d+)?(?:\.pdf)?/?$", re.IGNORECASE)
_NON_WORD = re.compile(r"[^a-z0-9]+")


def paper_key(entry: Entry) -> str:
    """A key shared by every entry of one paper: ``arxiv:<id>``, else the URL, else the title."""
    url = entry.paper_url.strip()
    match = _ARXIV_ID.search(url)
    if match:
        return f"arxiv:{match.group(1)}"
    if url:
        return "url:" + re.sub(r"^https?://(www\.)?", "", url).rstrip("/").lower()
    title = _NON_WORD.sub(" ", entry.paper_title.lower()).strip()
    if title:
        return f"title:{title}"
    return "method:" + _NON_WORD.sub(" ", entry.method.lower()).strip()


def paper_file_stem(key: str) -> str:
    """The file name (without suffix) a paper's text is looked up under: the arXiv id or a hash."""
    return (
        key.removeprefix("arxiv:").replace("/", "_")
        if key.startswith("arxiv:")
        else content_id(key)
    )


@dataclass(frozen=True)
class Bucket:
    """Years merged into one bucket and the indices (into the scored board) of its entries."""

    first_year: int
    last_year: int
    members: tuple[int, ...]

    @property
    def label(self) -> str:
        same = self.first_year == self.last_year
        return str(self.first_year) if same else f"{self.first_year}-{self.last_year}"


def _merge(buckets: list[Bucket], index: int) -> list[Bucket]:
    """Merge bucket ``index`` with the next one (or the previous one if it is the last)."""
    other = index + 1 if index + 1 < len(buckets) else index - 1
    low, high = sorted((index, other))
    a, b = buckets[low], buckets[high]
    merged = Bucket(a.first_year, b.last_year, tuple(sorted(a.members + b.members)))
    return buckets[:low] + [merged] + buckets[high + 1 :]


def merge_small(buckets: list[Bucket], too_small: Callable[[Bucket], bool]) -> list[Bucket]:
    """Merge the first ``too_small`` bucket into a neighbour until none is or one is left."""
    while len(buckets) > 1:
        failing = [i for i, bucket in enumerate(buckets) if too_small(bucket)]
        if not failing:
            break
        buckets = _merge(buckets, failing[0])
    return buckets


def year_buckets(years: list[int]) -> list[Bucket]:
    """One bucket per distinct year, oldest first."""
    return [
        Bucket(year, year, tuple(i for i, y in enumerate(years) if y == year))
        for year in sorted(set(years))
    ]


Cutoff = tuple[int, int | None]  # (year, month or None)
_CUTOFF = re.compile(r"^(\d{4})(?:-(0[1-9]|1[0-2]))?$")


def parse_cutoff(value: str | int | None) -> Cutoff | None:
    """``--test-after`` as (year, month): ``YYYY`` or ``YYYY-MM``; None for no time split."""
    if value is None:
        return None
    match = _CUTOFF.match(str(value).strip())
    if not match:
        raise DataError(f"--test-after {value}: expected YYYY or YYYY-MM, e.g. 2024 or 2024-06")
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


def after_cutoff(date: str, year: int, cutoff: Cutoff) -> bool:
    """Is a paper of ``date`` (YYYY-MM[-DD], or "" when only ``year`` is known) after the cutoff?

    Compared as every dated item is (core/dates.py): at the paper's precision, against the
    cutoff's last day. So with a month cutoff a paper known only to its year is after it only
    when its year is later (the same year might be before the cutoff: such a paper is not held
    out as unseen).
    """
    item = parse_item_date(date) if date else ItemDate(year)
    assert item is not None
    cutoff_year, cutoff_month = cutoff
    month = cutoff_month or 12
    last_day = dt.date(cutoff_year, month, calendar.monthrange(cutoff_year, month)[1])
    return is_post_cutoff(item, last_day)


class Splitter:
    """Assigns papers to train/test across leaderboards, keeping each paper's first assignment.

    ``dates``: a paper date (YYYY-MM-DD or YYYY-MM) per paper key, from ``--fetch-papers``;
    otherwise the entry's own ``date`` or year decides the time split.
    """

    def __init__(
        self,
        seed: int,
        test_after: str | int | None = None,
        dates: dict[str, str] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.test_after = parse_cutoff(test_after)
        self.dates = dates or {}
        self.assigned: dict[str, Split] = {}

    def _papers(self, board: ScoredBoard, bucket: Bucket) -> list[str]:
        return sorted({board.paper_keys[i] for i in bucket.members})

    def _assign_bucket(self, papers: list[str]) -> None:
        target = math.floor(TEST_SHARE * len(papers) + 0.5)
        already = sum(self.assigned.get(p) == "test" for p in papers)
        fresh = [p for p in papers if p not in self.assigned]
        self.rng.shuffle(fresh)
        needed = max(0, min(target - already, len(fresh)))
        for position, paper in enumerate(fresh):
            self.assigned[paper] = "test" if position < needed else "train"

    def split_board(self, board: ScoredBoard) -> tuple[list[Bucket], list[Split]]:
        """Final buckets of one leaderboard and the split of each of its entries."""
        if len(board.paper_keys) != len(board.entries):
            board.paper_keys = [paper_key(entry) for entry in board.entries]
        years = [entry.year or 0 for entry in board.entries]
        buckets = merge_small(
            year_buckets(years), lambda b: len(self._papers(board, b)) < MIN_BUCKET_PAPERS
        )
        keys = board.paper_keys
        if self.test_after is not None:
            for key, year, entry in zip(keys, years, board.entries, strict=True):
                date = self.dates.get(key) or entry.date
                after = after_cutoff(date, year, self.test_after)
                self.assigned.setdefault(key, "test" if after else "train")
        elif len(board.entries) < MIN_IDEAS_FOR_TEST:
            for key in keys:
                self.assigned.setdefault(key, "train")
        else:
            for bucket in buckets:
                self._assign_bucket(self._papers(board, bucket))

        def invalid(bucket: Bucket) -> bool:
            papers = self._papers(board, bucket)
            tests = sum(self.assigned[p] == "test" for p in papers)
            return len(papers) < MIN_BUCKET_PAPERS or tests < MIN_BUCKET_TEST_PAPERS

        buckets = merge_small(buckets, invalid)
        return buckets, [self.assigned[key] for key in keys]
