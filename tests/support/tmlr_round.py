"""The clocked TMLR of the rounds' tests (``fake_tmlr``) and its hand counts.

t0 (open): eight submissions under review with no public review; one whose reviews are
already public (left out as ``label_exists``) and one desk-rejected. t1: every kept paper's
reviews are released (q3's were all written before t0). t2: seven decisions are public
(q1 with a Featured Certification). t3: q8's late decision, and an Outstanding Certification
added to q7 (accepted as is at t2).
"""

from __future__ import annotations

import datetime as dt

from fake_tmlr import TmlrPaper, TmlrReview

UTC = dt.UTC
T0 = dt.datetime(2025, 10, 1, 12, tzinfo=UTC)
# Released far in the future, so a judgment made while the test runs precedes them.
T1 = dt.datetime(2100, 1, 10, 12, tzinfo=UTC)
T2 = dt.datetime(2100, 2, 1, 12, tzinfo=UTC)
T3 = dt.datetime(2100, 3, 1, 12, tzinfo=UTC)
# The judging window (``judge_by``) reaches to a day before t1: a judgment made while the test
# runs is within it.
JUDGE_DAYS = (T1 - T0).days - 1
# id -> (recommendation, decision certifications, the hidden quality the scripted judge prefers)
DECISIONS = {
    "q1": ("Accept as is", ["Featured Certification"], 9),
    "q2": ("Reject", [], 2),
    "q3": ("Accept with minor revision", [], 6),
    "q4": ("Accept with minor revision", [], 3),
    "q5": ("Reject", [], 8),
    "q6": ("Accept with minor revision", [], 7),
    "q7": ("Accept as is", [], 1),
    "q8": ("Reject", [], 4),
}
LATE = "q8"  # decided at t3
LATER_CERTIFIED = ("q7", "Outstanding Certification")  # at t3
REVIEWED_BEFORE_OPEN = "q3"  # its reviews were written before t0, released at t1
# the labels at t2 and at t3 (the decision ordinals)
AT_T2 = {"q1": 3.0, "q2": 0.0, "q3": 1.0, "q4": 1.0, "q5": 0.0, "q6": 1.0, "q7": 2.0}
AT_T3 = {**AT_T2, "q7": 3.0, "q8": 0.0}


def _reviews(paper_id: str, first: dt.datetime) -> list[TmlrReview]:
    return [
        TmlrReview(f"{paper_id}-r{k}", first + dt.timedelta(hours=k), audience="No" if k else "Yes")
        for k in range(3)
    ]


def papers(t1: dt.datetime = T1, t2: dt.datetime = T2, t3: dt.datetime = T3) -> list[TmlrPaper]:
    """The journal's papers; ``t1``..``t3`` move the reviews' and decisions' times (a walk whose
    resolve runs at the wall clock dates them just after its judgments: a resolve leaves out a
    review dated after it)."""
    out = []
    for number, (paper_id, (recommendation, certified, quality)) in enumerate(
        DECISIONS.items(), start=1
    ):
        written = dt.datetime(2025, 9, 20, tzinfo=UTC) if paper_id == REVIEWED_BEFORE_OPEN else t1
        decided = t3 if paper_id == LATE else t2
        paper = TmlrPaper(
            paper_id,
            number,
            f"Submission {paper_id}",
            f"We study method {paper_id}. Its quality {quality} is stated here.",
            dt.datetime(2025, 9, number, tzinfo=UTC),
            reviews=_reviews(paper_id, written - dt.timedelta(hours=2)),
            released=t1,
            decision=(decided - dt.timedelta(days=1), decided, recommendation, certified),
        )
        if paper_id == LATER_CERTIFIED[0]:
            paper.later_certifications = [(t3, LATER_CERTIFIED[1])]
        out.append(paper)
    out.append(
        TmlrPaper(
            "x1",
            9,
            "Already reviewed",
            "Reviews public before the round. Its quality 5 is stated here.",
            dt.datetime(2025, 8, 1, tzinfo=UTC),
            reviews=_reviews("x1", dt.datetime(2025, 9, 1, tzinfo=UTC)),
        )
    )
    out.append(
        TmlrPaper(
            "x2",
            10,
            "Desk rejected",
            "Out of scope. Its quality 5 is stated here.",
            dt.datetime(2025, 9, 10, tzinfo=UTC),
            desk_rejected=dt.datetime(2025, 9, 15, tzinfo=UTC),
        )
    )
    return out


def quality_of(paper_id: str) -> int:
    return DECISIONS[paper_id][2]


def hand_count(pairs: list[tuple[str, str]], labels: dict[str, float]) -> tuple[float, int, int]:
    """(pairwise accuracy, pairs counted, tied pairs) over the pairs whose items both have a
    label: the quality judge is order-free, so an untied pair counts 2 right or 2 wrong."""
    right = total = ties = 0
    for a, b in pairs:
        if a not in labels or b not in labels:
            continue
        if labels[a] == labels[b]:
            ties += 1
            continue
        total += 2
        right += 2 * ((quality_of(a) > quality_of(b)) == (labels[a] > labels[b]))
    return right / total, total // 2, ties
