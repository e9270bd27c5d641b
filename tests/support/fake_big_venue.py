"""A fake OpenReview conference of ``size`` submissions (20,000 by default) with 3-5 official
reviews each, made on demand: a page of ``GET /notes`` builds only its own notes, so a test can
list the whole venue in seconds and count every request (``FakeOpenReview.requests``).

Submission ``i`` has id ``s<i:05d>`` (the ids sort as the indexes), ``3 + i % 3`` reviews
(``s<i>-r<k>``, public once ``reviewed``) and a primary area by index range (:data:`AREAS`:
half, a quarter, 15% and 10% of the venue). ``GET /notes/edits?note.id=<review>`` answers the
review's one edit (as first posted).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from fake_openreview import FakeOpenReview

VENUE = "Big.cc/2026/Conference"
SIZE = 20_000
# (area, share of the venue): submissions take them in index order
AREAS = (("vision", 0.5), ("language", 0.25), ("theory", 0.15), ("reinforcement learning", 0.1))
START = dt.datetime(2025, 9, 1, tzinfo=dt.UTC)


def reviews_of(index: int) -> int:
    return 3 + index % 3


def area_of(index: int, size: int) -> str:
    bound = 0.0
    for area, share in AREAS:
        bound += share * size
        if index < bound:
            return area
    return AREAS[-1][0]


def _review(paper_id: str, index: int, k: int) -> dict[str, Any]:
    return {
        "id": f"{paper_id}-r{k}",
        "invitations": [f"{VENUE}/Submission{index}/-/Official_Review"],
        "cdate": int((START + dt.timedelta(days=40, minutes=k)).timestamp() * 1000),
        "content": {
            "rating": {"value": f"{1 + (index + k) % 10}: a rating"},
            "weaknesses": {"value": "- Small."},
        },
    }


@dataclass
class BigVenue(FakeOpenReview):
    size: int = SIZE
    reviewed: bool = False

    def note(self, index: int) -> dict[str, Any]:
        paper_id = f"s{index:05d}"
        replies = [_review(paper_id, index, k) for k in range(reviews_of(index))]
        return {
            "id": paper_id,
            "number": index,
            "cdate": int((START + dt.timedelta(seconds=index * 60)).timestamp() * 1000),
            "content": {
                "title": {"value": f"Submission {index}"},
                "abstract": {"value": f"We study problem {index}."},
                "primary_area": {"value": area_of(index, self.size)},
                "venueid": {"value": f"{VENUE}/Submission"},
            },
            "details": {"replies": replies if self.reviewed else []},
        }

    def answer(self, path: str, params: dict[str, str], auth: str = "") -> tuple[int, str, bytes]:
        if path == "/notes/edits":
            review_id = params.get("note.id", "")
            paper_id, _, k = review_id.partition("-r")
            index = int(paper_id[1:])
            review = _review(paper_id, index, int(k))
            edit = {"id": f"{review_id}-e0", "tcdate": review["cdate"], "note": review}
            body = json.dumps({"edits": [edit], "count": 1})
            return 200, "application/json", body.encode("utf-8")
        if path == "/notes" and params.get("invitation") == f"{self.venue}/-/Submission":
            offset, limit = int(params.get("offset", 0)), int(params.get("limit", 1000))
            page = [self.note(i) for i in range(offset, min(offset + limit, self.size))]
            body = json.dumps({"notes": page, "count": self.size})
            return 200, "application/json", body.encode("utf-8")
        return super().answer(path, params, auth)


def big_venue(size: int = SIZE) -> BigVenue:
    return BigVenue(venue=VENUE, notes=[], size=size)
