"""A conference round's review edits, read once per round: nothing asked twice.

A review's fields as first posted come from its edits (``GET /notes/edits?note.id=<review id>``,
sorted by ``tcdate``): the earliest edit holds the form as the reviewer first posted it, and a
later edit never changes an earlier one. So the answer is kept in the round folder,
``cache/reviews/<item id>/<review id>.json`` (:func:`kept_path`), and every later resolve
reads it from there: a nightly resolve asks only about reviews that appeared since the last.
A review whose edits OpenReview keeps from us (403, 404) is not kept: it is asked again at the
next resolve, as its edits may become public.

An item final in the previous labels version (:data:`FINAL`: decided, withdrawn, desk-rejected,
retracted) keeps that version's row and weaknesses (:func:`final_rows`): nothing about it is
asked again (a decided item's first-posted ratings, a withdrawn one's reviews do not change).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from research_taste.builders.openreview import forms
from research_taste.builders.openreview.client import OpenReviewClient
from research_taste.rounds.manifest import write_atomic
from research_taste.rounds.resolve import LabelsVersion, previous_rows
from research_taste_evals.aaar.dataset.weakness_round import references_path

EDITS_NOT_PUBLIC = (403, 404)  # what GET /notes/edits answers for a review's restricted edits
KEPT_DIR = Path("cache") / "reviews"
FINAL = ("decided", "withdrawn", "desk_rejected", "retracted")
SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")  # OpenReview's note ids; others are hashed


def _name(note_id: str) -> str:
    if SAFE_ID.match(note_id):
        return note_id
    return hashlib.sha256(note_id.encode("utf-8")).hexdigest()


def kept_path(folder: Path, item_id: str, review_id: str) -> Path:
    """Where the round in ``folder`` keeps the edits of ``review_id`` (a review of ``item_id``)."""
    return folder / KEPT_DIR / _name(item_id) / f"{_name(review_id)}.json"


def kept_count(folder: Path, item_id: str) -> int:
    """How many of ``item_id``'s reviews have their edits kept."""
    kept = folder / KEPT_DIR / _name(item_id)
    return sum(1 for _ in kept.glob("*.json")) if kept.is_dir() else 0


def _edits(client: OpenReviewClient, review_id: str, kept: Path | None) -> list[dict[str, Any]]:
    if kept is not None and kept.is_file():
        client.counts.cached += 1
        return list(json.loads(kept.read_text(encoding="utf-8"))["edits"])
    params = {"note.id": review_id, "sort": "tcdate:asc"}
    answer = client.get_json_or_none("/notes/edits", params, "edits", none_on=EDITS_NOT_PUBLIC)
    if answer is None:
        return []
    edits = [edit for edit in answer["edits"] if isinstance(edit, dict)]
    if kept is not None:
        entry = {"note_id": review_id, "fetched_on": client.today().isoformat(), "edits": edits}
        write_atomic(kept, json.dumps(entry) + "\n")
    return edits


def first_posted(
    client: OpenReviewClient, review: dict[str, Any], kept: Path | None = None
) -> dict[str, Any]:
    """The review's fields as first posted: each from the earliest public edit that sets it
    (empty when OpenReview keeps the edits from us: 403 or 404). ``kept``: the file the
    round keeps them in (:func:`kept_path`), read instead of asking when it exists."""
    edits = _edits(client, str(review.get("id")), kept)
    posted: dict[str, Any] = {}
    for edit in sorted(edits, key=lambda edit: edit.get("tcdate") or edit.get("cdate") or 0):
        for name, value in ((edit.get("note") or {}).get("content") or {}).items():
            posted.setdefault(name, value)
    return posted


def first_posted_rating(review: dict[str, Any], posted: dict[str, Any]) -> tuple[Any, str]:
    """The review's rating as first posted (``posted``: :func:`first_posted`) and
    ``first_posted``, or as fetched and ``as_fetched`` when no public edit shows it."""
    rating = forms.first_field(posted, forms.RATING_FIELDS)[1]
    if rating is not None:
        return rating, "first_posted"
    return forms.first_field(review.get("content"), forms.RATING_FIELDS)[1], "as_fetched"


def final_rows(version: LabelsVersion) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The previous labels version's rows of items final by then (:data:`FINAL`), and every
    item's weaknesses there."""
    final = {k: row for k, row in previous_rows(version).items() if row.get("status") in FINAL}
    versions = version.round_.manifest.get("label_versions") or []
    path = references_path(version.folder / str(versions[-1]["file"])) if versions else None
    weaknesses = json.loads(path.read_text(encoding="utf-8")) if path and path.is_file() else {}
    return final, weaknesses


def new_reviews(folder: Path, item_id: str, note: dict[str, Any] | None) -> int:
    """The item's official reviews whose edits the round does not keep yet."""
    replies = ((note or {}).get("details") or {}).get("replies") or []
    reviews = [r for r in replies if forms.note_kind(r) == "Official_Review"]
    return sum(not kept_path(folder, item_id, str(r.get("id"))).is_file() for r in reviews)
