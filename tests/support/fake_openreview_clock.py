"""A fake OpenReview venue whose answers change with an injected clock (rounds' tests).

Built on :class:`fake_openreview.FakeOpenReview`: at every request the venue's notes are
recomputed for ``clock()``. Each :class:`ClockedPaper` is submitted at ``submitted`` (and may
be withdrawn at ``withdrawn_at``, its reviews staying public); its official reviews appear at
their ``posted`` time with their first rating and weaknesses and change to their
``edited_rating`` (and ``edited_weaknesses``, if any) at ``edited`` (the note's content shows
the latest); ``GET /notes/edits?note.id=<review id>`` answers the review's edit
history, as OpenReview keeps it (the first edit posts the whole form, a later one the fields it
changes), or 403 for a review whose edits are not public (``edits_public=False``), as OpenReview
answers for restricted edits.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fake_openreview import FakeOpenReview

VENUE = "Fake.cc/2026/Conference"


def ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


@dataclass
class ClockedReview:
    review_id: str
    posted: dt.datetime
    rating: int
    edited: dt.datetime | None = None
    edited_rating: int | None = None
    edits_public: bool = True
    weaknesses: str = "- The evaluation is small."
    edited_weaknesses: str | None = None

    def visible(self, now: dt.datetime) -> bool:
        return self.posted <= now

    def _edited_by(self, now: dt.datetime) -> bool:
        return self.edited is not None and self.edited <= now

    def rating_at(self, now: dt.datetime) -> int:
        if self._edited_by(now) and self.edited_rating is not None:
            return self.edited_rating
        return self.rating

    def weaknesses_at(self, now: dt.datetime) -> str:
        if self._edited_by(now) and self.edited_weaknesses is not None:
            return self.edited_weaknesses
        return self.weaknesses

    def note(self, paper_id: str, number: int, now: dt.datetime) -> dict[str, Any]:
        modified = self.edited if self.edited is not None and self.edited <= now else self.posted
        return {
            "id": self.review_id,
            "invitations": [f"{VENUE}/Submission{number}/-/Official_Review"],
            "replyto": paper_id,
            "cdate": ms(self.posted),
            "tcdate": ms(self.posted),
            "tmdate": ms(modified),
            "content": {
                "rating": {"value": f"{self.rating_at(now)}: a rating"},
                "weaknesses": {"value": self.weaknesses_at(now)},
            },
        }

    def edits(self, now: dt.datetime) -> list[dict[str, Any]]:
        posted = {"rating": {"value": self.rating}, "weaknesses": {"value": self.weaknesses}}
        history = [(self.posted, posted)]
        if self.edited is not None and self._edited_by(now):
            changed = {"rating": {"value": self.edited_rating}}
            if self.edited_weaknesses is not None:
                changed["weaknesses"] = {"value": self.edited_weaknesses}
            history.append((self.edited, changed))
        return [
            {
                "id": f"{self.review_id}-edit{index}",
                "tcdate": ms(when),
                "cdate": ms(when),
                "note": {"id": self.review_id, "content": content},
            }
            for index, (when, content) in enumerate(history)
        ]


@dataclass
class ClockedPaper:
    paper_id: str
    number: int
    title: str
    abstract: str
    submitted: dt.datetime
    primary_area: str = "reinforcement learning"
    reviews: list[ClockedReview] = field(default_factory=list)
    decision: tuple[dt.datetime, str] | None = None
    withdrawn: bool = False
    withdrawn_at: dt.datetime | None = None  # withdrawn from then on (its reviews stay public)
    pdf: bool = False  # the note names a PDF (the server must hold its bytes)
    license: str = ""  # API v2's note licence (e.g. "CC BY 4.0"); "" states none

    def note(self, now: dt.datetime) -> dict[str, Any]:
        replies = [r.note(self.paper_id, self.number, now) for r in self.reviews if r.visible(now)]
        if self.decision is not None and self.decision[0] <= now:
            replies.append(
                {
                    "id": f"{self.paper_id}-decision",
                    "invitations": [f"{VENUE}/Submission{self.number}/-/Decision"],
                    "cdate": ms(self.decision[0]),
                    "content": {"decision": {"value": self.decision[1]}},
                }
            )
        gone = self.withdrawn or (self.withdrawn_at is not None and self.withdrawn_at <= now)
        venueid = f"{VENUE}/Withdrawn_Submission" if gone else f"{VENUE}/Submission"
        return {
            "id": self.paper_id,
            "number": self.number,
            "cdate": ms(self.submitted),
            **({"license": self.license} if self.license else {}),
            "content": {
                "title": {"value": self.title},
                "abstract": {"value": self.abstract},
                "primary_area": {"value": self.primary_area},
                "venueid": {"value": venueid},
                **({"pdf": {"value": f"/pdf/{self.paper_id}.pdf"}} if self.pdf else {}),
            },
            "details": {"replies": replies},
        }


@dataclass
class ClockedOpenReview(FakeOpenReview):
    """The venue as it stands at ``clock()``."""

    papers: list[ClockedPaper] = field(default_factory=list)
    clock: Callable[[], dt.datetime] = lambda: dt.datetime(2025, 10, 1, tzinfo=dt.UTC)

    def answer(self, path: str, params: dict[str, str], auth: str = "") -> tuple[int, str, bytes]:
        now = self.clock()
        if path == "/notes/edits":
            review_id = params.get("note.id", "")
            for paper in self.papers:
                for review in paper.reviews:
                    if review.review_id == review_id and review.visible(now):
                        if not review.edits_public:
                            return 403, "application/json", b'{"name": "ForbiddenError"}'
                        body = {"edits": review.edits(now), "count": len(review.edits(now))}
                        return 200, "application/json", json.dumps(body).encode("utf-8")
            return 404, "application/json", b'{"name": "NotFoundError", "status": 404}'
        self.notes = [paper.note(now) for paper in self.papers]
        return super().answer(path, params, auth)


def clocked_venue(clock: Callable[[], dt.datetime], venue: str = VENUE) -> ClockedOpenReview:
    return ClockedOpenReview(venue=venue, notes=[], clock=clock)
