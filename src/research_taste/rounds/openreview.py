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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
from research_taste.rounds.progress import (
    REVIEWS_PER_ITEM,
    Fetching,
    open_estimate,
    pages_of,
    resolve_estimate,
)
from research_taste.rounds.progress import progress as stepped
from research_taste.rounds.resolve import (
    new_labels_version,
    previous_rows,
    record_labels_version,
)
from research_taste.rounds.review_edits import (
    final_rows,
    first_posted,
    first_posted_rating,
    kept_count,
    kept_path,
    new_reviews,
)
from research_taste.rounds.sample import draw_sample
from research_taste_evals.aaar.dataset.weakness_round import references_path
from research_taste_evals.core.rounds import RoundItem, parse_time

__all__ = ["first_posted", "first_posted_rating", "open_openreview", "resolve_openreview"]

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
    fetching: Fetching | None = None,
) -> dict[str, Any]:
    """Open a round on ``venue``'s submissions with no public label yet; its manifest. With
    ``max_items`` a sample of them (``rounds/sample.py``), drawn before any PDF is fetched. With
    ``pdfs`` each kept submission's PDF is read into a PaperWeakness record (none left out of
    the TastyBench items for lack of one: counted in ``weakness_left_out``). Once the listing's
    first page gives its count, one line says how many requests the open makes and how long
    they take at the budgets (``fetching``; killed, the same command resumes from
    ``cache/open``)."""
    folder = Path(out)
    check_venue(venue)
    check_range("--judge-days", judge_days, 1, MAX_JUDGE_DAYS)
    fetching = fetching or Fetching()
    prepare_out(folder, {"source": "openreview", "venue": venue})
    opened = now()
    client = fetching.client(folder / "cache" / "open", base_url, min_interval, opened.date)
    candidates: list[RoundItem] = []
    counts: dict[str, int] = {}
    gate = ItemGate(opened.date(), counts)
    listing = submissions(client, venue, page_size)
    listed = listing.count()
    wanted = min(max_items or listed or 0, listed or 0) if pdfs else 0
    pages = pages_of(listed, page_size)
    budgets = (client.budget, client.pdf_budget)
    fetching.say(open_estimate(pages, wanted, *budgets, min_interval))
    notes = list(stepped(listing, "submissions", progress, say=fetching.say))
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
    by_id = {str(note.get("id")): note for note in notes}
    if pdfs:
        left = client.pdf_budget.duration
        for item in stepped(items, "pdfs", progress, left, fetching.say):
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
        # each note's own licence (API v2's ``license``; "" when it states none): what
        # ``round publish`` may share of its text (docs/rounds.md, "Publishing a round")
        licences={item.item_id: str(by_id[item.item_id].get("license") or "") for item in items},
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


def _label_row(
    client: OpenReviewClient,
    item_id: str,
    note: dict[str, Any] | None,
    check: ReviewCheck,
    folder: Path | None = None,
) -> tuple[dict[str, Any], list[list[str]]]:
    """The item's labels row, and each official reviewer's weaknesses as items
    (``forms.weakness_items``; none for a set-aside submission), both as first posted. A review
    ``check`` refuses (undated, dated after the resolve, a rating off the venue's scale) is left
    out of the label, counted by reason. ``folder``: the round's, which keeps each review's
    edits once read (``rounds/review_edits.py``)."""
    row: dict[str, Any] = dict.fromkeys(LABEL_COLUMNS, "")
    row["item_id"] = item_id
    if note is None:
        return {**row, "status": "not_found"}, []
    status = _status(note)
    reviews = _replies(note, "Official_Review")
    ratings, sources, times, weaknesses = [], set(), [], []
    reviews = [review for review in reviews if check.dated(_stamp(review))]
    for review in reviews:
        kept = kept_path(folder, item_id, str(review.get("id"))) if folder else None
        posted = first_posted(client, review, kept)
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
    fetching: Fetching | None = None,
) -> dict[str, Any]:
    """Fetch the round's labels as they stand now into a new labels version; its entry. Before
    it asks, one line says how many requests it makes and how long they take at the budget
    (``fetching``); on a conference round, another once the listing is read (the exact count of
    review edits to ask). Items final in the previous version (``review_edits.FINAL``) keep
    its row; a review's edits are read once per round (``cache/reviews``); killed, the same
    command the same day resumes from the version's cache."""
    fetching = fetching or Fetching()
    version = new_labels_version(out, now)
    round_, folder = version.round_, version.folder
    base = base_url or round_.manifest["query"].get("api_base")
    client = fetching.client(version.cache_dir, base, min_interval, version.today)
    venue = str(round_.manifest["query"]["venue"])
    plan = round_.manifest["label_plan"]
    conference = plan.get("kind") != "decision"
    final, weaknesses_before = final_rows(version) if conference else ({}, {})
    asked = [item for item in round_.items if item.item_id not in final]
    counts, sample = round_.manifest.get("counts") or {}, round_.manifest.get("sample") or {}
    listed = int(sample.get("population") or len(round_.items))
    pages = pages_of(listed + sum((counts.get("left_out") or {}).values()), page_size)
    kept = {item.item_id: kept_count(folder, item.item_id) for item in asked}
    before = previous_rows(version)
    expected = {i: int(before.get(i, {}).get("reviews") or 0) or REVIEWS_PER_ITEM for i in kept}
    guess = sum(max(0, expected[i] - kept[i]) for i in kept) if conference else 0
    how = (
        f"{REVIEWS_PER_ITEM} a new item, a guess; {sum(kept.values())} kept from earlier resolves"
        if conference
        else "none, a journal's round reads its listing only"
    )
    fetching.say(resolve_estimate(pages, guess, how, client.budget, min_interval, "round resolve"))
    listing = submissions(client, venue, page_size)
    notes = {
        str(n.get("id")): n for n in stepped(listing, "submissions", progress, None, fetching.say)
    }
    new = {
        item.item_id: new_reviews(folder, item.item_id, notes.get(item.item_id)) for item in asked
    }
    if conference:
        how = f"exact, the listing read ({sum(kept.values())} kept from earlier resolves)"
        command = "round resolve, the listing read"
        edits = sum(new.values())
        fetching.say(resolve_estimate(0, edits, how, client.budget, min_interval, command))
    share = sum(new.values()) / max(1, len(asked))
    left = lambda n: client.budget.duration(round(n * share), min_interval)  # noqa: E731
    items = stepped(asked, "reviews", progress, left if conference else None, fetching.say)
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
        fresh = {
            item.item_id: _label_row(client, item.item_id, notes.get(item.item_id), check, folder)
            for item in items
        }
        resolved = {
            item.item_id: fresh.get(item.item_id)
            or (final[item.item_id], weaknesses_before.get(item.item_id, []))
            for item in round_.items
        }
        columns = LABEL_COLUMNS
        notes_of_version = {
            "reviews_left_out": check.left_out,
            "ratings": "as first posted where the review's edits are public, else as fetched "
            "(column rating_source)",
            "weaknesses": "as first posted where the review's edits are public, else as fetched",
            "carried_final": len(final),  # rows kept from the previous version
        }
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
