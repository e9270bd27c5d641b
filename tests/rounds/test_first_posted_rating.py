"""Rounds' resolve: a review's rating and weaknesses as first posted, or as fetched when
OpenReview keeps its edits from us (403 or 404 to ``GET /notes/edits``), read from the answer's
status, not from the text of an error; any other error status stops the resolve."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from fake_openreview import FakeOpenReview, serving

from research_taste.builders.openreview.client import OpenReviewClient
from research_taste.rounds.openreview import first_posted, first_posted_rating
from research_taste_evals.core.data import DataError

FIRST = {"rating": {"value": "5: borderline"}, "weaknesses": {"value": "- Small data."}}
LATER = {"rating": {"value": "8: accept"}}  # a later edit carries the fields it changes
REVIEW = {"id": "r1", "content": {**FIRST, **LATER}}  # as fetched: edited to 8
# The edit history, newest first: first_posted sorts it by tcdate itself.
EDITS = [
    {"tcdate": 2000, "note": {"id": "r1", "content": LATER}},
    {"tcdate": 1000, "note": {"id": "r1", "content": FIRST}},
]
# A body that names another status: only the answer's own status may decide.
MISLEADING = b'{"name": "Error", "message": "the proxy answered 403 upstream"}'


@dataclass
class EditsStatus(FakeOpenReview):
    """Answers ``GET /notes/edits`` with ``status`` (200: the edit history)."""

    status: int = 200

    def answer(self, path: str, params: dict[str, str], auth: str = "") -> tuple[int, str, bytes]:
        if path != "/notes/edits":
            return super().answer(path, params, auth)
        if self.status != 200:
            return self.status, "application/json", MISLEADING
        body = {"edits": EDITS, "count": len(EDITS)}
        return 200, "application/json", json.dumps(body).encode("utf-8")


def _posted(status: int, cache: Path) -> dict[str, object]:
    with serving(EditsStatus(venue="V", notes=[], status=status)) as api:
        client = OpenReviewClient(cache, api.base_url, min_interval=0.0, max_tries=1, environ={})
        return first_posted(client, REVIEW)


def _rating(status: int, cache: Path) -> tuple[object, str]:
    return first_posted_rating(REVIEW, _posted(status, cache))


def test_public_edits_give_the_rating_as_first_posted(tmp_path: Path) -> None:
    assert _rating(200, tmp_path) == ("5: borderline", "first_posted")
    assert _posted(200, tmp_path) == FIRST  # each field from the earliest edit that sets it


@pytest.mark.parametrize("status", [403, 404])
def test_edits_not_public_give_the_rating_as_fetched(status: int, tmp_path: Path) -> None:
    assert _rating(status, tmp_path) == ("8: accept", "as_fetched")
    assert not list(tmp_path.rglob("*.json"))  # the refusal is not cached


@pytest.mark.parametrize("status", [401, 500])
def test_other_error_statuses_stop_the_resolve(status: int, tmp_path: Path) -> None:
    with pytest.raises(DataError, match=f"OpenReview answered {status} to GET /notes/edits"):
        _rating(status, tmp_path)
