"""The clocked OpenReview venue of the rounds' tests and the scripted judge that reads it.

t0 (open): eight submissions without reviews, one already reviewed (left out as
``label_exists``), one withdrawn. t1: every review appears. t2: two reviews are edited, their
rating and their weaknesses (one review's edits are public, one's are not).
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
from collections.abc import Callable

from fake_openreview import make_pdf
from fake_openreview_clock import (
    VENUE,
    ClockedOpenReview,
    ClockedPaper,
    ClockedReview,
    clocked_venue,
)
from inspect_ai.model import ChatMessage, Model
from mock_models import scripted_model

from research_taste_evals.tastybench.baselines import project_texts

UTC = dt.UTC
T0 = dt.datetime(2025, 10, 1, 12, tzinfo=UTC)
# Reviews appear far in the future, so a judgment made while the test runs precedes them.
T1 = dt.datetime(2100, 1, 10, 12, tzinfo=UTC)
T2 = dt.datetime(2100, 2, 1, 12, tzinfo=UTC)
# The rounds' judging window (``judge_by``) reaches to a day before t1, so a judgment made while
# the test runs is within it.
JUDGE_DAYS = (T1 - T0).days - 1
# id -> (first-posted ratings, the hidden "quality" the scripted judge prefers)
FIRST_RATINGS = {
    "p1": ([6, 8], 9),
    "p2": ([3, 5], 2),
    "p3": ([5, 5], 6),
    "p4": ([8], 3),
    "p5": ([2, 4], 1),
    "p6": ([6], 7),
    "p7": ([5], 4),
    "p8": ([7, 7], 8),
}
EDITED = {"p2-r0": 8, "p5-r0": 9}  # at T2; p5-r0's edits are not public
HIDDEN_EDITS = {"p5-r0"}
EDITED_WEAKNESSES = "- The rebuttal answered every point."  # the edited reviews' at T2


def papers() -> list[ClockedPaper]:
    out = []
    for number, (paper_id, (ratings, quality)) in enumerate(FIRST_RATINGS.items(), start=1):
        reviews = [
            ClockedReview(
                f"{paper_id}-r{k}",
                T1 + dt.timedelta(hours=k),
                rating,
                edited=T2 - dt.timedelta(days=1) if f"{paper_id}-r{k}" in EDITED else None,
                edited_rating=EDITED.get(f"{paper_id}-r{k}"),
                edited_weaknesses=EDITED_WEAKNESSES if f"{paper_id}-r{k}" in EDITED else None,
                edits_public=f"{paper_id}-r{k}" not in HIDDEN_EDITS,
            )
            for k, rating in enumerate(ratings)
        ]
        out.append(
            ClockedPaper(
                paper_id,
                number,
                f"Submission {paper_id}",
                f"We study method {paper_id}. Its quality {quality} is stated here.",
                dt.datetime(2025, 9, number, tzinfo=UTC),
                reviews=reviews,
            )
        )
    out.append(
        ClockedPaper(
            "p9",
            9,
            "Already reviewed",
            "An early submission. Its quality 5 is stated here.",
            dt.datetime(2025, 9, 9, tzinfo=UTC),
            reviews=[ClockedReview("p9-r0", dt.datetime(2025, 9, 20, tzinfo=UTC), 6)],
        )
    )
    out.append(
        ClockedPaper(
            "p10",
            10,
            "Withdrawn one",
            "A withdrawn submission. Its quality 5 is stated here.",
            dt.datetime(2025, 9, 10, tzinfo=UTC),
            withdrawn=True,
        )
    )
    return out


def venue_with_pdfs(clock: Callable[[], dt.datetime], venue: str = VENUE) -> ClockedOpenReview:
    """The clocked venue of :func:`papers`, every submission with a PDF (PaperWeakness rounds)."""
    served = clocked_venue(clock, venue=venue)
    served.papers = papers()
    for paper in served.papers:
        paper.pdf = True
        served.pdfs[paper.paper_id] = make_pdf([f"Paper {paper.paper_id}.", "We train a model."])
    return served


def quality(text: str) -> int:
    match = re.search(r"quality (\d+)", text)
    assert match, text
    return int(match.group(1))


def _prompt(messages: list[ChatMessage]) -> str:
    return "\n".join(m.text for m in messages if m.role == "user")


def quality_judge() -> Model:
    """Picks the project whose abstract states the higher quality."""

    def respond(messages: list[ChatMessage]) -> str:
        projects = project_texts(_prompt(messages))
        assert projects is not None
        first, second = (quality(text) for text in projects)
        return f"I recommend Project {1 if first > second else 2}."

    return scripted_model(respond)


def first_posted_label(paper_id: str) -> float:
    return statistics.fmean(FIRST_RATINGS[paper_id][0])


def hand_count(pairs: list[tuple[str, str]], labels: dict[str, float]) -> float:
    """Share of decisions (both orders of each untied pair) where the judge picked the
    higher label: the quality judge is order-free, so a pair counts 2 right or 2 wrong."""
    right = total = 0
    for a, b in pairs:
        if labels[a] == labels[b]:
            continue
        total += 2
        judge_prefers_a = FIRST_RATINGS[a][1] > FIRST_RATINGS[b][1]
        right += 2 * (judge_prefers_a == (labels[a] > labels[b]))
    return right / total
