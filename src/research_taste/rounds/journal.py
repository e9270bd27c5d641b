"""The decision plan of an OpenReview round (a journal's: TMLR), at open and at resolve.

Names, fields and visibility are openreview-py's ``openreview/journal`` code
(``builders/openreview/journal.py``). Open keeps a submission only while it is under review
(venue id ``<venue>/Under_Review``) with no public review or decision: one with any is left out
as ``label_exists``, as is one already decided (accepted: the venue id itself; ``Rejected``;
``Decision_Pending``); withdrawn, desk-rejected and retracted ones are set apart by their
reason (``forms.set_aside_status``); any other state is ``not_under_review``.

Resolve labels each item with its public decision as an ordinal (``journal.decision_ordinal``:
a decision counts only once a reader can see it, never from the venue id alone); beside it go
the certifications (the decision's and the accepted submission's: one added months later
raises the label in a later labels version) and each review's yes/no criteria
(``claims_and_evidence``, ``audience``). The reviewers' official recommendations are not
public and are not read. ``label_time`` is when the reviews became public, since they reveal the
likely decision: their ``odate`` (API v2's time a note became public) where given, else the
creation of the review that completed the set (TMLR releases the reviews together when the
``number_of_reviewers``-th arrives); never before the round's ``opened_at``.

Label times must be dated and not in the future (an empty or future ``label_time`` reads as
prospective to the round scorers): a review with no date, or with one after the resolve, is left
out and counted by reason (``checks.ReviewCheck``, the conference path's check; a decision read
for its time likewise). An item whose label would then have no time (every public review left
out, or the decision's own time refused) keeps no label this version: it stays pending, status
``label_time_unknown``, rather than take a later time that would count hindsight as foresight.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from research_taste.builders.openreview import forms, journal
from research_taste.rounds.checks import ReviewCheck
from research_taste.rounds.manifest import utc_iso

LABEL_COLUMNS = (
    "item_id",
    "label",
    "label_time",
    "decision",
    "certifications",
    *journal.CRITERIA_FIELDS,
    "reviews",
    "status",
)
DECIDED_STATES = ("accepted", journal.REJECTED, journal.DECISION_PENDING)
# TMLR's review form (openreview-py openreview/journal/invitation.py, set_review_invitation) has
# no weaknesses field: a reviewer writes them in ``strengths_and_weaknesses`` (strengths too) and
# asks for the fixes in ``requested_changes``.
STRENGTHS_AND_WEAKNESSES, REQUESTED_CHANGES = "strengths_and_weaknesses", "requested_changes"
# Where the weaknesses part of ``strengths_and_weaknesses`` begins: a line opening with a
# weaknesses header ("Weaknesses", "## Cons", "Concerns:"), or one in bold or ending in a colon
# within a line ("... **Weaknesses** ...", "... Weaknesses: ...").
_WEAKNESSES_START = re.compile(
    r"^[ \t]*(?:#+[ \t]*)?(?:\*\*|__)?[ \t]*(?:main[ \t]+)?(?:weakness(?:es)?|cons|concerns)\b"
    r"[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*(?:\*\*|__)?"
    r"|(?:\*\*|__)(?:main\s+)?weakness(?:es)?(?:\*\*|__)\s*:?"
    r"|\bweakness(?:es)?\s*:",
    re.IGNORECASE | re.MULTILINE,
)
# A requested_changes text that requests nothing ("None.", "N/A", "No changes requested").
_NOTHING = re.compile(r"^\W*(?:none|n/?a|nothing|no(?:ne)?\s+(?:changes?|requests?)\b.*)\W*$", re.I)


def replies(note: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The note's public replies of ``kind`` (any of a reply's invitations ends in it: a
    released review carries ``.../-/Review`` and ``.../-/Review_Release``)."""
    found = (note.get("details") or {}).get("replies") or []
    return [
        reply
        for reply in found
        if any(str(i).endswith(f"/-/{kind}") for i in reply.get("invitations") or [])
    ]


def _moment(note: dict[str, Any], keys: tuple[str, ...]) -> dt.datetime | None:
    for key in keys:
        value = note.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            return dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC)
    return None


def _latest(note: dict[str, Any]) -> dt.datetime | None:
    """The latest moment a review carries (its release, its creation); None: undated. Any of
    them after the resolve is a clock error upstream, so the latest is the one checked."""
    stamps = [t for t in (_moment(note, ("odate",)), _moment(note, ("cdate", "tcdate"))) if t]
    return max(stamps) if stamps else None


def review_weaknesses(content: dict[str, Any] | None) -> list[str]:
    """A journal reviewer's weaknesses as items (``forms.weakness_items``). On TMLR's form: the
    part of ``strengths_and_weaknesses`` from its first weaknesses header on (the whole field
    when it has none: the strengths cannot be told apart, and are kept rather than guessed
    away), then each change ``requested_changes`` asks for (a change requested is a weakness
    named by its fix; "None." requests nothing). A form with a weaknesses field of its own is
    read as the conference path reads it (``forms.read_review``)."""
    if not any(name in (content or {}) for name in (STRENGTHS_AND_WEAKNESSES, REQUESTED_CHANGES)):
        return forms.weakness_items(forms.read_review({"content": content}).weaknesses)
    both = str(forms.value(content, STRENGTHS_AND_WEAKNESSES) or "")
    start = _WEAKNESSES_START.search(both)
    items = forms.weakness_items(both[start.end() :] if start else both)
    requested = str(forms.value(content, REQUESTED_CHANGES) or "").strip()
    if requested and not _NOTHING.match(requested):
        items += forms.weakness_items(requested)
    return items


def open_reason(note: dict[str, Any], venue: str, plan: dict[str, Any]) -> str | None:
    """Why open leaves the submission out (module docstring); None to keep it."""
    content = note.get("content") or {}
    kinds = {forms.note_kind(reply) for reply in (note.get("details") or {}).get("replies") or []}
    status = forms.set_aside_status(content, kinds)
    if status is not None:
        return status
    state = journal.venue_state(venue, content)
    if replies(note, plan["review_form"]) or replies(note, journal.DECISION):
        return "label_exists"
    if state in DECIDED_STATES:
        return "label_exists"
    return None if state == journal.UNDER_REVIEW else "not_under_review"


def reviews_public_at(reviews: list[dict[str, Any]], opened_at: dt.datetime) -> dt.datetime | None:
    """When the reviews became public (module docstring); None while none is."""
    released = [t for t in (_moment(r, ("odate",)) for r in reviews) if t is not None]
    if released:
        moment = min(released)
    else:
        created = sorted(t for t in (_moment(r, ("cdate", "tcdate")) for r in reviews) if t)
        if not created:
            return None
        moment = created[min(len(created), journal.NUMBER_OF_REVIEWERS) - 1]
    return max(moment, opened_at)


def label_row(
    item_id: str,
    note: dict[str, Any] | None,
    plan: dict[str, Any],
    opened_at: dt.datetime,
    check: ReviewCheck,
) -> tuple[dict[str, Any], list[list[str]]]:
    """The item's labels row and its reviewers' weaknesses as fetched (a journal's review
    edits are not public: openreview-py gives them the venue, the editor and the signer); a
    review ``check`` refuses (undated, dated after the resolve) is left out, counted by reason
    (module docstring)."""
    row: dict[str, Any] = dict.fromkeys(LABEL_COLUMNS, "")
    row["item_id"] = item_id
    if note is None:
        return {**row, "status": "not_found"}, []
    content = note.get("content") or {}
    kinds = {forms.note_kind(reply) for reply in (note.get("details") or {}).get("replies") or []}
    status = forms.set_aside_status(content, kinds)
    fetched = replies(note, plan["review_form"])
    reviews = [review for review in fetched if check.dated(_latest(review))]
    decisions = replies(note, journal.DECISION)
    decided = decisions[-1].get("content") if decisions else None
    field = str(plan.get("decision_field") or journal.DECISION_FIELD)
    decision = " ".join(str(forms.value(decided, field) or "").split())
    certified = journal.certifications(decided, content)
    if field == journal.DECISION_FIELD:
        label = journal.decision_ordinal(decision, certified) if decision else None
    else:
        label = forms.decision_score(decision) if decision else None
    public = reviews_public_at(reviews, opened_at)
    if public is None and decisions and not fetched:  # decided with no review public
        moment = _moment(decisions[-1], ("odate", "cdate", "tcdate"))
        if check.dated(moment, "decision") and moment is not None:
            public = max(moment, opened_at)
    untimed = label is not None and public is None
    row.update(
        label=f"{label:g}" if label is not None and not untimed else "",
        label_time=utc_iso(public) if public else "",
        decision=decision,
        certifications="; ".join(certified),
        reviews=len(reviews),
        status=status
        or ("label_time_unknown" if untimed else "")
        or ("unknown_decision" if decision and label is None else "")
        or ("decided" if decision else "reviewed" if reviews else "pending"),
    )
    for name in journal.CRITERIA_FIELDS:
        row[name] = " ".join(str(forms.value(r.get("content"), name) or "-") for r in reviews)
    weaknesses = [review_weaknesses(r.get("content")) for r in reviews]
    return row, weaknesses
