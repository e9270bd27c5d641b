"""A venue's submissions, screened: kept papers with their reviews, the rest with reasons.

A submission is set apart (``set_aside.csv``, never judged) when its ``venueid`` says it was
withdrawn or desk-rejected, with the reason its withdrawal or desk-rejection note states.
Among the others, a paper is dropped, each with its reason, when it has no title or abstract
(the judge reads the abstract), no submission date, a submission date after today (the fetch
day: ``dated_after_today``), is dated on or before ``--after``'s month, has no review with a
readable rating (no label), or, with ``--label decision``, no decision yet or one that
:data:`forms.DECISION_SCORES` cannot place. A rating that is unreadable or outside the rating
range is left unread and listed by reason with its review note's id; the build goes on.

Paging follows openreview-py's ``get_all_notes``: ``sort=id`` (an order that stays stable while
a venue changes), ``offset`` and ``limit``, until a short page or ``count``. A page that brings
no submission id not seen before (a server ignoring ``offset``, with no ``count``) stops the
build in one sentence instead of paging forever; a note listed again (within a page or across
pages) is read the first time only and dropped as ``duplicate`` with its id (``Listing``: the
reader every command of a venue's listing shares).
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from research_taste.builders.openreview import forms
from research_taste.builders.openreview.client import BASE_ENV, OpenReviewClient
from research_taste_evals.core.data import DataError

Label = Literal["mean_rating", "decision"]
LABELS: tuple[Label, ...] = ("mean_rating", "decision")
PAGE_SIZE = 200


@dataclass
class Submission:
    """A kept submission: what the sets are written from."""

    paper_id: str
    number: int | None
    title: str
    abstract: str
    keywords: list[str]
    primary_area: str
    submitted: dt.date
    license: str
    pdf: str
    reviews: list[forms.Review]
    decision: str
    label: float

    @property
    def ratings(self) -> list[float]:
        return [review.rating for review in self.reviews if review.rating is not None]


@dataclass(frozen=True)
class VenueRequest:
    """What to build: a venue id, the label, an optional date floor, whether to read PDFs."""

    venue: str
    label: Label = "mean_rating"
    after: dt.date | None = None
    pdfs: bool = True
    page_size: int = PAGE_SIZE


@dataclass
class Screened:
    """The outcome of reading a venue."""

    kept: list[Submission] = field(default_factory=list)
    set_aside: list[dict[str, str]] = field(default_factory=list)
    dropped: dict[str, list[str]] = field(default_factory=dict)
    reviews: int = 0
    reviews_without_rating: int = 0
    reviews_without_weaknesses: int = 0
    rating_fields: dict[str, int] = field(default_factory=dict)
    weakness_fields: dict[str, int] = field(default_factory=dict)
    ratings_left_unread: dict[str, list[str]] = field(default_factory=dict)  # reason -> note ids
    licenses: dict[str, int] = field(default_factory=dict)

    def drop(self, reason: str, paper_id: str) -> None:
        self.dropped.setdefault(reason, []).append(paper_id)


@dataclass
class Listing:
    """A venue's submission notes with their replies, paged by ``offset`` (``sort=id``) to the
    end, each note once: a note listed again, on the same page or a later one (a server's
    paging slip), is left out, its id kept in ``duplicates`` (in listing order), which every
    reader reports: open counts it, resolve records it, the builder drops it by id. Iterating
    again reads the listing again (through the client's cache)."""

    client: OpenReviewClient
    venue: str
    page_size: int = PAGE_SIZE
    duplicates: list[str] = field(default_factory=list)

    def _page(self, offset: int) -> dict[str, Any]:
        params = {
            "invitation": f"{self.venue}/-/Submission",
            "details": "replies",
            "sort": "id",
            "offset": offset,
            "limit": self.page_size,
        }
        return self.client.get_json("/notes", params, listed="notes", check=note_problem)

    def count(self) -> int | None:
        """The listing's ``count`` as its first page says it (None: it does not); the page is
        cached, so iterating reads it from there (the round commands' estimates)."""
        count = self._page(0).get("count")
        return count if isinstance(count, int) and not isinstance(count, bool) else None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """The notes, first listings only.

        Raises:
            DataError: a page brought no submission id not seen before (the server ignores
                ``offset``): one sentence, instead of paging forever; or the listing ended
                before its ``count``.
        """
        offset, seen = 0, set[str]()
        self.duplicates.clear()
        while True:
            page = self._page(offset)
            notes = page["notes"]
            if notes and not {note["id"] for note in notes} - seen:
                raise DataError(
                    f"OpenReview answered GET /notes for {self.venue} at offset {offset} with "
                    f"{len(notes)} submissions all seen on earlier pages: the server ignores "
                    f"'offset', so paging would never end; check {BASE_ENV} "
                    f"({self.client.base_url})"
                )
            for note in notes:
                if note["id"] in seen:
                    self.duplicates.append(note["id"])
                    continue
                seen.add(note["id"])
                yield note
            offset += len(notes)  # the server's own count of what it listed, repeats included
            count = page.get("count")
            if isinstance(count, int) and len(notes) < self.page_size and offset < count:
                # a short page before the listing's own count: a frozen sample of it would be
                # biased towards the first ids, so nothing is built from it
                raise DataError(
                    f"OpenReview listed {offset} submissions of {self.venue} but its count is "
                    f"{count}: the listing was cut short; re-run the same command (pages already "
                    f"read are cached), or check {BASE_ENV} ({self.client.base_url})"
                )
            if len(notes) < self.page_size or (isinstance(count, int) and offset >= count):
                return


def submissions(client: OpenReviewClient, venue: str, page_size: int = PAGE_SIZE) -> Listing:
    """Every submission note of ``venue`` with its replies, each once (:class:`Listing`)."""
    return Listing(client, venue, page_size)


def _is_note_list(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, dict) and isinstance(item.get("content") or {}, dict) for item in value
    )


def note_problem(notes: list[Any]) -> str | None:
    """What makes a page of submission notes unreadable (None: nothing): the field named."""
    for index, note in enumerate(notes):
        if not isinstance(note, dict) or not isinstance(note.get("id"), str):
            return f"notes[{index}] without a string 'id'"
        where = f"notes[{index}] ({note['id']})"
        if not isinstance(note.get("content") or {}, dict):
            return f"{where}: field 'content' is not an object"
        details = note.get("details") or {}
        replies = details.get("replies") if isinstance(details, dict) else "not an object"
        if replies is not None and not _is_note_list(replies):
            return f"{where}: field 'details.replies' is not a list of notes"
    return None


def _replies(note: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    replies = (note.get("details") or {}).get("replies") or []
    return [reply for reply in replies if forms.note_kind(reply) == kind]


def _set_aside_reason(note: dict[str, Any], status: str) -> str:
    kinds = {forms.WITHDRAWN: "Withdrawal", forms.RETRACTED: "Retraction"}
    kind = kinds.get(status, "Desk_Rejection")
    for reply in _replies(note, kind):
        _, reason = forms.first_field(reply.get("content"), forms.REASON_FIELDS)
        if reason:
            return " ".join(str(reason).split())
    return ""


def _decision(note: dict[str, Any]) -> str:
    """The latest decision note's text ("" before decisions are posted)."""
    decisions = _replies(note, "Decision")
    return str(forms.value(decisions[-1].get("content"), "decision") or "") if decisions else ""


def _label(reviews: list[forms.Review], decision: str, label: Label) -> tuple[float | None, str]:
    """The paper's label, or None and the reason it has none."""
    ratings = [review.rating for review in reviews if review.rating is not None]
    if label == "mean_rating":
        return (statistics.fmean(ratings), "") if ratings else (None, "no_rated_reviews")
    if not decision:
        return None, "no_decision"
    score = forms.decision_score(decision)
    return (score, "") if score is not None else (None, "unknown_decision")


def screen(
    notes: Iterable[dict[str, Any]],
    label: Label,
    after: dt.date | None,
    today: dt.date | None = None,
) -> Screened:
    """Read every submission note: keep, set apart or drop each (see the module docstring);
    ``today``: the fetch day (submissions dated after it are refused)."""
    screened, seen = Screened(), set()
    for note in notes:
        paper_id = str(note.get("id") or "")
        if not paper_id or paper_id in seen:  # Listing leaves repeats out: notes given directly
            screened.drop("duplicate" if paper_id else "no_id", paper_id)
            continue
        seen.add(paper_id)
        content = note.get("content") or {}
        submitted = forms.note_date(note)
        replies = (note.get("details") or {}).get("replies") or []
        status = forms.set_aside_status(content, {forms.note_kind(reply) for reply in replies})
        title = " ".join(str(forms.value(content, "title") or "").split())
        if status is not None:
            screened.set_aside.append(
                {
                    "paper_id": paper_id,
                    "title": title,
                    "submitted": submitted.isoformat() if submitted else "",
                    "status": status,
                    "venueid": str(forms.value(content, "venueid") or ""),
                    "reason": _set_aside_reason(note, status),
                }
            )
            screened.drop(status, paper_id)
            continue
        abstract = str(forms.value(content, "abstract") or "").strip()
        if not title or not abstract:
            screened.drop("no_title" if not title else "no_abstract", paper_id)
            continue
        if submitted is None:
            screened.drop("no_submission_date", paper_id)
            continue
        if today is not None and submitted > today:
            screened.drop("dated_after_today", paper_id)
            continue
        if after is not None and submitted <= after:
            screened.drop("not_after_cutoff", paper_id)
            continue
        reviews = [forms.read_review(reply) for reply in _replies(note, "Official_Review")]
        _count_reviews(screened, reviews)
        decision = _decision(note)
        value, reason = _label(reviews, decision, label)
        if value is None:
            screened.drop(reason, paper_id)
            continue
        licence = str(note.get("license") or "")
        named = licence or "not stated"
        screened.licenses[named] = screened.licenses.get(named, 0) + 1
        keywords = forms.value(content, "keywords") or []
        if not isinstance(keywords, list):
            keywords = [keywords]
        screened.kept.append(
            Submission(
                paper_id=paper_id,
                number=note.get("number"),
                title=title,
                abstract=" ".join(abstract.split()),
                keywords=[str(keyword) for keyword in keywords],
                primary_area=str(forms.value(content, "primary_area") or ""),
                submitted=submitted,
                license=licence,
                pdf=str(forms.value(content, "pdf") or ""),
                reviews=reviews,
                decision=decision,
                label=value,
            )
        )
    return screened


def with_duplicates(screened: Screened, listing: Listing) -> Screened:
    """``screened`` with the notes ``listing`` left out as repeats dropped as ``duplicate``,
    by id (call once the listing is read)."""
    for note_id in listing.duplicates:
        screened.drop("duplicate", note_id)
    return screened


def _count_reviews(screened: Screened, reviews: list[forms.Review]) -> None:
    for review in reviews:
        screened.reviews += 1
        screened.reviews_without_rating += review.rating is None
        screened.reviews_without_weaknesses += not review.weaknesses
        if review.rating_problem:
            unread = screened.ratings_left_unread.setdefault(review.rating_problem, [])
            unread.append(review.review_id)
        for name, fields in (
            (review.rating_field, screened.rating_fields),
            (review.weakness_field, screened.weakness_fields),
        ):
            fields[name or "none"] = fields.get(name or "none", 0) + 1
