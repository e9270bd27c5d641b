"""A conference venue on OpenReview that keeps receiving submissions, for the round cycle's
ten-week simulation (``tests/rounds/test_round_cycle.py``).

Built on the clocked fake (``fake_openreview_clock``): the listing holds only the submissions
made by ``clock()``. Batch k (k = 0, 1, ...) of four submissions arrives five days before day
14k, so the round that opens on day 14k holds it and nothing else (the previous batch is
reviewed by then: ``label_exists``); its first reviews appear on day 14k + 9 (after the
judging window of 7 days), a second review on day 14k + 20 (the label changes), and the
decisions on day 14k + 30 (the labels can change no more: the round is settled).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from fake_openreview_clock import VENUE, ClockedOpenReview, ClockedPaper, ClockedReview

# Day 0 of the simulation, in the future so that a judgment the test makes (logged at the
# machine's time) precedes every label time and judge_by: prospective.
DAY0 = dt.datetime(2100, 1, 4, 2, 17, tzinfo=dt.UTC)
CADENCE = 14
BATCH = 4
FIRST_REVIEW, SECOND_REVIEW, DECISION = 9, 20, 30  # days after the batch's round opens
# Per paper of a batch: (first rating, second rating); distinct means, no tied pair.
RATINGS = [(3, 5), (6, 8), (4, 4), (7, 9)]


def day(n: int) -> dt.datetime:
    return DAY0 + dt.timedelta(days=n)


def batch(k: int) -> list[ClockedPaper]:
    opens = day(CADENCE * k).replace(hour=0, minute=0)
    papers = []
    for i, (first, second) in enumerate(RATINGS):
        paper_id = f"b{k}p{i}"
        papers.append(
            ClockedPaper(
                paper_id,
                number=BATCH * k + i + 1,
                title=f"Submission {paper_id}",
                # abstracts of distinct lengths: the floor (the longer abstract) picks on all
                abstract=f"We study method {paper_id}." + " It scales." * (i + 1),
                submitted=opens - dt.timedelta(days=5, hours=i),
                reviews=[
                    ClockedReview(f"{paper_id}-r0", opens + dt.timedelta(days=FIRST_REVIEW), first),
                    ClockedReview(
                        f"{paper_id}-r1", opens + dt.timedelta(days=SECOND_REVIEW), second
                    ),
                ],
                decision=(opens + dt.timedelta(days=DECISION), "Accept (poster)"),
            )
        )
    return papers


@dataclass
class GrowingVenue(ClockedOpenReview):
    """The venue at ``clock()``: the submissions made by then, as they stand then."""

    every_paper: list[ClockedPaper] = field(default_factory=list)

    def answer(self, path: str, params: dict[str, str], auth: str = "") -> tuple[int, str, bytes]:
        now = self.clock()
        self.papers = [paper for paper in self.every_paper if paper.submitted <= now]
        return super().answer(path, params, auth)


def growing_venue(clock: Callable[[], dt.datetime], batches: int) -> GrowingVenue:
    """The venue with ``batches`` batches of submissions to come."""
    venue = GrowingVenue(venue=VENUE, notes=[], clock=clock)
    venue.every_paper = [paper for k in range(batches) for paper in batch(k)]
    return venue
