"""OpenReview rounds: open on a venue's unreviewed submissions; resolve their labels.

The label plan is chosen at open from the venue's review and decision forms (``rounds/plan.py``):
a conference's (a numeric rating) is this module's; a journal's (TMLR: the decision) is
``rounds/journal.py``'s, which also screens its submissions at open. For a conference, open
keeps a submission only while it has no public review: one with an ``Official_Review`` reply is
left out and counted as ``label_exists``; withdrawn and desk-rejected ones are set apart as
``openreview build`` does (``builders/openreview/forms.set_aside_status``).

Resolve reads the venue again with its own cache (one per labels version) and labels each item
with the mean official rating *as first posted* (before any rebuttal-time edit): a review's
earliest edit (``GET /notes/edits?note.id=<review id>``, sorted by ``tcdate``) holds the
content it was created with, a later edit the fields it changed; when the edits are not public
the rating is taken as fetched, and the labels file says which per item (``rating_source``).
The label's time is the earliest review's creation (``cdate``, else ``tcdate``). The decision
is written beside it. PaperWeakness's references, the reviewers' weaknesses, are read from the
same edits: as first posted where they are public, else as fetched.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from research_taste.builders.openreview import forms
from research_taste.builders.openreview.client import MIN_INTERVAL, OpenReviewClient
from research_taste.builders.openreview.venue import PAGE_SIZE, submissions
from research_taste.rounds import JUDGE_DAYS, SAMPLE_SEED
from research_taste.rounds import journal as journal_round
from research_taste.rounds.checks import (
    MAX_JUDGE_DAYS,
    ItemGate,
    ReviewCheck,
    check_range,
    check_venue,
    prepare_out,
    rating_scale,
)
from research_taste.rounds.manifest import (
    utc_iso,
    utc_now,
    write_atomic,
    write_round,
)
from research_taste.rounds.plan import label_plan
from research_taste.rounds.resolve import check_found, new_labels_version, record_labels_version
from research_taste.rounds.sample import draw_sample
from research_taste_evals.aaar.dataset.weakness_round import references_path
from research_taste_evals.core.rounds import RoundItem, parse_time

T = TypeVar("T")
LABEL_COLUMNS = (
    "item_id",
    "label",
    "label_time",
    "decision",
    "reviews",
    "ratings",
    "rating_source",
    "status",
)
EDITS_NOT_PUBLIC = (403, 404)  # what GET /notes/edits answers for a review's restricted edits


def _progress(items: Iterable[T], label: str, shown: bool) -> Iterable[T]:
    from tqdm import tqdm

    return tqdm(items, desc=label, unit="item", disable=not shown)


def _stamp(note: dict[str, Any]) -> dt.datetime | None:
    for key in ("cdate", "tcdate"):
        value = note.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            return dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC)
    return None


def _replies(note: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    replies = (note.get("details") or {}).get("replies") or []
    return [reply for reply in replies if forms.note_kind(reply) == kind]


def _status(note: dict[str, Any]) -> str | None:
    replies = (note.get("details") or {}).get("replies") or []
    kinds = {forms.note_kind(reply) for reply in replies}
    return forms.set_aside_status(note.get("content") or {}, kinds)


def _open_reason(note: dict[str, Any], venue: str, plan: dict[str, Any]) -> str | None:
    """Why open leaves the submission out (None: kept): set apart, or a label already public."""
    if plan.get("kind") == "decision":
        return journal_round.open_reason(note, venue, plan)
    reason = _status(note)
    if reason is None and _replies(note, str(plan.get("review_form") or "Official_Review")):
        return "label_exists"
    return reason


def _group(area: Any) -> str:
    """The pairing group of a primary area; a list-valued one (a form with multiple choice)
    is grouped by its first choice, the author's main area, so that each item sits in one
    group and pairs stay within a field."""
    if isinstance(area, list):
        area = next((choice for choice in area if choice not in (None, "")), "")
    return " ".join(str(area or "").split())


def open_openreview(
    venue: str,
    out: str | Path,
    *,
    base_url: str | None = None,
    now: Callable[[], dt.datetime] = utc_now,
    page_size: int = PAGE_SIZE,
    pdfs: bool = True,
    progress: bool = False,
    max_items: int | None = None,
    seed: int = SAMPLE_SEED,
    judge_days: int = JUDGE_DAYS,
    min_interval: float = MIN_INTERVAL,
) -> dict[str, Any]:
    """Open a round on ``venue``'s submissions with no public label yet; its manifest. With
    ``max_items`` a sample of them (``rounds/sample.py``), drawn before any PDF is fetched. With
    ``pdfs`` each kept submission's PDF is read into a PaperWeakness record (none left out of
    the TastyBench items for lack of one: counted in ``weakness_left_out``)."""
    folder = Path(out)
    check_venue(venue)
    check_range("--judge-days", judge_days, 1, MAX_JUDGE_DAYS)
    prepare_out(folder, {"source": "openreview", "venue": venue})
    opened = now()
    client = OpenReviewClient(
        folder / "cache" / "open", base_url, min_interval, today=lambda: opened.date()
    )
    candidates: list[RoundItem] = []
    counts: dict[str, int] = {}
    gate = ItemGate(opened.date(), counts)
    listing = submissions(client, venue, page_size)
    notes = list(_progress(listing, "submissions", progress))
    if listing.duplicates:  # the reader keeps a note's first listing; the gate's reason
        counts["duplicate"] = len(listing.duplicates)
    plan = label_plan(client, venue, notes)
    for note in notes:
        content = note.get("content") or {}
        title = " ".join(str(forms.value(content, "title") or "").split())
        abstract = " ".join(str(forms.value(content, "abstract") or "").split())
        submitted = forms.note_date(note)
        reason = _open_reason(note, venue, plan)
        if reason is None and (not title or not abstract or submitted is None):
            reason = "no_title_abstract_or_date"
        if reason is None:
            reason = gate.reason(str(note.get("id")), title, abstract, submitted)
        if reason is not None:
            counts[reason] = counts.get(reason, 0) + 1
            continue
        assert submitted is not None
        group = _group(forms.value(content, "primary_area"))
        candidates.append(RoundItem(str(note["id"]), title, submitted.isoformat(), abstract, group))
    items, sample = draw_sample(candidates, max_items, seed)
    records: list[dict[str, Any]] = []
    weakness_left_out: dict[str, int] = {}
    if pdfs:
        by_id = {str(note.get("id")): note for note in notes}
        for item in _progress(items, "pdfs", progress):
            record, reason = _weakness_record(client, by_id[item.item_id], item, venue)
            if record is not None:
                records.append(record)
            else:
                weakness_left_out[reason] = weakness_left_out.get(reason, 0) + 1
    return write_round(
        folder,
        items,
        opened_at=opened,
        source="openreview",
        query={"venue": venue, "api_base": client.base_url},
        label_plan=plan,
        counts={
            "kept": len(items),
            "left_out": counts,
            "duplicate_notes": listing.duplicates,
            "weakness_left_out": weakness_left_out,
        },
        weakness_records=records,
        sample=sample,
        judge_days=judge_days,
    )


def _weakness_record(
    client: OpenReviewClient, note: dict[str, Any], item: RoundItem, venue: str
) -> tuple[dict[str, Any] | None, str]:
    """The AAAR-1.0 record of a submission (no ``output``: the reviews come later)."""
    from research_taste.builders.openreview.pdf_text import UnreadablePdf, pdf_pages

    if not forms.value(note.get("content"), "pdf"):
        return None, "no_pdf"
    data = client.get_pdf(item.item_id)
    if data is None:
        return None, "pdf_missing"
    try:
        pages = pdf_pages(data)
    except UnreadablePdf as error:
        return None, error.reason
    sections = [{"heading": f"Page {n}", "text": page} for n, page in enumerate(pages, start=1)]
    record = {
        "ID": item.item_id,
        "track": item.group or None,
        "input": {"title": item.title, "abstractText": item.abstract, "sections": sections},
        "submission_date": item.pub_date,
        "venue": venue,
    }
    return record, ""


def first_posted(client: OpenReviewClient, review: dict[str, Any]) -> dict[str, Any]:
    """The review's fields as first posted: each from the earliest public edit that sets it
    (empty when OpenReview keeps the edits from us: 403 or 404)."""
    params = {"note.id": str(review.get("id")), "sort": "tcdate:asc"}
    answer = client.get_json_or_none("/notes/edits", params, "edits", none_on=EDITS_NOT_PUBLIC)
    edits = [edit for edit in (answer or {"edits": []})["edits"] if isinstance(edit, dict)]
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


def _label_row(
    client: OpenReviewClient,
    item_id: str,
    note: dict[str, Any] | None,
    check: ReviewCheck,
) -> tuple[dict[str, Any], list[list[str]]]:
    """The item's labels row, and each official reviewer's weaknesses as items
    (``forms.weakness_items``; none for a set-aside submission), both as first posted. A review
    ``check`` refuses (undated, dated after the resolve, a rating off the venue's scale) is left
    out of the label, counted by reason."""
    row: dict[str, Any] = dict.fromkeys(LABEL_COLUMNS, "")
    row["item_id"] = item_id
    if note is None:
        return {**row, "status": "not_found"}, []
    status = _status(note)
    reviews = _replies(note, "Official_Review")
    ratings, sources, times, weaknesses = [], set(), [], []
    reviews = [review for review in reviews if check.dated(_stamp(review))]
    for review in reviews:
        posted = first_posted(client, review)
        raw, source = first_posted_rating(review, posted)
        rating = check.rating(raw)
        stamp = _stamp(review)
        if stamp is not None:
            times.append(stamp)
        if rating is not None:
            ratings.append(rating)
            sources.add(source)
        content = {**(review.get("content") or {}), **posted}
        weaknesses.append(forms.weakness_items(forms.read_review({"content": content}).weaknesses))
    decisions = _replies(note, "Decision")
    decision = str(forms.value(decisions[-1].get("content"), "decision") or "") if decisions else ""
    row.update(
        reviews=len(reviews),
        ratings=" ".join(f"{rating:g}" for rating in ratings),
        rating_source="+".join(sorted(sources)),
        decision=decision,
        status=status or ("decided" if decision else "reviewed" if reviews else "pending"),
        label_time=utc_iso(min(times)) if times else "",
    )
    if ratings:  # a withdrawn submission keeps its reviews' label (rounds/resolve.settle)
        row["label"] = f"{statistics.fmean(ratings):.6g}"
    return row, weaknesses


def resolve_openreview(
    out: str | Path,
    *,
    base_url: str | None = None,
    now: Callable[[], dt.datetime] = utc_now,
    page_size: int = PAGE_SIZE,
    progress: bool = False,
    min_interval: float = MIN_INTERVAL,
) -> dict[str, Any]:
    """Fetch the round's labels as they stand now into a new labels version; its entry."""
    version = new_labels_version(out, now)
    round_ = version.round_
    client = OpenReviewClient(
        version.cache_dir,
        base_url or round_.manifest["query"].get("api_base"),
        min_interval,
        today=version.today,
    )
    venue = str(round_.manifest["query"]["venue"])
    plan = round_.manifest["label_plan"]
    listing = submissions(client, venue, page_size)
    notes = {str(note.get("id")): note for note in _progress(listing, "submissions", progress)}
    items = _progress(round_.items, "reviews", progress)
    check = ReviewCheck(version.resolved_at, rating_scale(plan))
    if plan.get("kind") == "decision":
        opened = parse_time(round_.manifest["opened_at"])
        assert opened is not None
        resolved = {
            item.item_id: journal_round.label_row(
                item.item_id, notes.get(item.item_id), plan, opened, check
            )
            for item in items
        }
        columns: tuple[str, ...] = journal_round.LABEL_COLUMNS
        untimed = [row for row, _ in resolved.values() if row["status"] == "label_time_unknown"]
        notes_of_version: dict[str, Any] = {
            "reviews_left_out": check.left_out,
            "label_time_unknown": len(untimed),  # left pending: see rounds/journal.py
            "decisions": "public ones only (a decision a reader can see)",
            "weaknesses": "as fetched (a journal's review edits are not public)",
        }
    else:
        resolved = {
            item.item_id: _label_row(client, item.item_id, notes.get(item.item_id), check)
            for item in items
        }
        columns = LABEL_COLUMNS
        notes_of_version = {
            "reviews_left_out": check.left_out,
            "ratings": "as first posted where the review's edits are public, else as fetched "
            "(column rating_source)",
            "weaknesses": "as first posted where the review's edits are public, else as fetched",
        }
    check_found(version, [row for row, _ in resolved.values()])  # before any file is written
    references = {item_id: weaknesses for item_id, (_, weaknesses) in resolved.items()}
    write_atomic(references_path(version.path), json.dumps(references, indent=1) + "\n")
    return record_labels_version(
        version,
        columns,
        [row for row, _ in resolved.values()],
        horizon_reached=lambda row: row["decision"] != "",
        # a note listed again is read from its first listing, as at open
        duplicate_notes=listing.duplicates,
        **notes_of_version,
    )
