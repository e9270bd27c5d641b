"""Reading OpenReview API v2 notes: field values, review forms, decisions and withdrawals.

API v2 wraps every content field as ``{"value": ...}`` (``content.title.value``); a bare value
is read too. A note's kind is its invitation's last part: a submission's replies
(``details.replies``) carry ``invitations`` such as
``ICLR.cc/2026/Conference/Submission1234/-/Official_Review``.

Review forms differ by venue and year, so each quantity is read from the first of a documented
list of field names the review has (:data:`RATING_FIELDS`, :data:`CONFIDENCE_FIELDS`,
:data:`WEAKNESS_FIELDS`). A rating is a number or a string that starts with one followed by
nothing or by its description (``"6: marginally above the acceptance threshold"`` -> 6); one
that is unreadable (``"1e3"``, ``"7.5.1"``, ``"6/10"``, ``true``, ``[6]``) or outside
:data:`RATING_RANGE` is left unread with its reason (``Review.rating_problem``). OpenReview's
default review form has a single ``review`` field: it is the weaknesses text only when the
review has none of the listed weakness fields (never another field). A review without any
keeps its rating (it counts in the mean) and gives its reviewer an empty weakness list.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any

# First match wins. ICLR 2024-2026 and NeurIPS 2023-2024: rating; ICML 2025:
# overall_recommendation; ICLR 2022 (v1 forms) and others: recommendation; ACL ARR:
# overall_assessment.
RATING_FIELDS = (
    "rating",
    "overall_rating",
    "overall_recommendation",
    "recommendation",
    "overall_assessment",
    "overall_score",
    "score",
)
CONFIDENCE_FIELDS = ("confidence", "reviewer_confidence")
# ICLR 2024-2026 and NeurIPS 2023-2024: weaknesses; NeurIPS 2025 and TMLR:
# strengths_and_weaknesses; ICML 2025: other_strengths_and_weaknesses; ICLR 2022: main_review
# (the whole review: its weaknesses are not separated); ACL ARR: summary_of_weaknesses;
# COLM: reasons_to_reject; ICLR 2023 (AAAR-1.0's source): strength_and_weaknesses.
WEAKNESS_FIELDS = (
    "weaknesses",
    "weakness",
    "strengths_and_weaknesses",
    "strength_and_weaknesses",
    "other_strengths_and_weaknesses",
    "summary_of_weaknesses",
    "reasons_to_reject",
    "cons",
    "main_review",
)
# OpenReview's default review form: the whole review in one field, read only without the above.
WHOLE_REVIEW_FIELD = "review"
# Every venue form this builder knows rates on a scale within 0..10 (ICLR 1-10, ICML 2025 1-5,
# ARR 1-5); a rating outside it is a data error, left unread with its reason.
RATING_RANGE = (0.0, 10.0)
UNREADABLE, OUT_OF_RANGE = "unreadable", "out_of_range"
# The decision as an ordinal label (``--label decision``), matched on the lower-cased text in
# this order; a decision matching none drops its paper as ``unknown_decision``.
DECISION_SCORES = (("oral", 3.0), ("spotlight", 2.0), ("accept", 1.0), ("reject", 0.0))
WITHDRAWN, DESK_REJECTED, RETRACTED = "withdrawn", "desk_rejected", "retracted"
# Where a withdrawal or desk rejection states its reason (first match).
REASON_FIELDS = ("desk_reject_comments", "withdrawal_reason", "comment", "reason")

# A rating text: a number alone, or followed by a separator and its description ("6: ...").
_RATING_TEXT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:$|[:\-\u2013\u2014(,]|\s+[A-Za-z])")
# A list item's start; "1." or "1)" but not the "0." of a decimal ("0.3 points of FID").
_ITEM_START = re.compile(r"^\s*(?:[-*\u2022]|\(?\d+[.)](?!\d)|\(?[a-z][.)]\s|[WwQq]\d+[.:)])\s*")
# A header line of the weaknesses section ("Weaknesses:", "**Weaknesses**", "## Cons"): no item.
_HEADER = re.compile(
    r"^\s*(?:#+\s*)?(?:\*\*|__)?\s*(?:main\s+)?(?:weakness(?:es)?|cons|concerns|limitations|"
    r"reasons\s+to\s+reject)\s*:?\s*(?:\*\*|__)?\s*:?\s*$",
    re.IGNORECASE,
)


def value(content: dict[str, Any] | None, name: str) -> Any:
    """``content[name].value`` (API v2) or ``content[name]`` (a bare value); None if absent."""
    field = (content or {}).get(name)
    return field.get("value") if isinstance(field, dict) else field


def first_field(content: dict[str, Any] | None, names: tuple[str, ...]) -> tuple[str, Any]:
    """The first of ``names`` present with a non-empty value, and that value (``("", None)``)."""
    for name in names:
        found = value(content, name)
        if found not in (None, "", []):
            return name, found
    return "", None


def number(raw: Any) -> float | None:
    """A rating or confidence as a number: ``6``, ``"6"``, ``"6: marginally above..."``;
    None for anything else (``true``, ``[6]``, ``"1e3"``, ``"7.5.1"``, ``"6/10"``, NaN)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        return float(raw) if math.isfinite(raw) else None
    match = _RATING_TEXT.match(raw) if isinstance(raw, str) else None
    return float(match.group(1)) if match else None


def read_rating(raw: Any) -> tuple[float | None, str]:
    """The rating, or None and why it is left unread (:data:`UNREADABLE`,
    :data:`OUT_OF_RANGE`; "" when the review has no rating at all)."""
    if raw is None or raw == "" or raw == []:
        return None, ""
    rating = number(raw)
    if rating is None:
        return None, UNREADABLE
    low, high = RATING_RANGE
    return (rating, "") if low <= rating <= high else (None, OUT_OF_RANGE)


def note_kind(note: dict[str, Any]) -> str:
    """The last part of the note's invitation(s): ``Official_Review``, ``Decision``, ..."""
    invitations = note.get("invitations") or [note.get("invitation") or ""]
    kinds = [str(invitation).rsplit("/-/", 1)[-1] for invitation in invitations if invitation]
    for kind in kinds:
        if kind != "Edit":
            return kind
    return kinds[0] if kinds else ""


def note_date(note: dict[str, Any]) -> dt.date | None:
    """The submission date: ``cdate`` (creation), else ``tcdate``, else ``pdate`` (ms, UTC)."""
    for key in ("cdate", "tcdate", "pdate"):
        stamp = note.get(key)
        if isinstance(stamp, int | float) and not isinstance(stamp, bool) and stamp > 0:
            try:
                return dt.datetime.fromtimestamp(stamp / 1000, tz=dt.UTC).date()
            except (OverflowError, ValueError, OSError):  # past year 9999: not a date
                continue
    return None


@dataclass(frozen=True)
class Review:
    """One official review as the builder keeps it."""

    review_id: str
    rating: float | None
    rating_raw: Any
    rating_field: str
    confidence: float | None
    weaknesses: str
    weakness_field: str
    rating_problem: str = ""  # why a rating present was left unread ("" otherwise)


def read_review(note: dict[str, Any]) -> Review:
    """The rating, confidence and weaknesses of an ``Official_Review`` note."""
    content = note.get("content") or {}
    rating_field, rating_raw = _first_present(content, RATING_FIELDS)
    rating, problem = read_rating(rating_raw)
    _, confidence = first_field(content, CONFIDENCE_FIELDS)
    weakness_field, weaknesses = first_field(content, WEAKNESS_FIELDS)
    if not any(name in content for name in WEAKNESS_FIELDS):  # the default form's one field
        weakness_field, weaknesses = first_field(content, (WHOLE_REVIEW_FIELD,))
    return Review(
        review_id=str(note.get("id") or ""),
        rating=rating,
        rating_raw=rating_raw,
        rating_field=rating_field,
        confidence=number(confidence),
        weaknesses=str(weaknesses or "").strip() if isinstance(weaknesses, str) else "",
        weakness_field=weakness_field,
        rating_problem=problem,
    )


def _first_present(content: dict[str, Any], names: tuple[str, ...]) -> tuple[str, Any]:
    """The first of ``names`` the note has with any value but an empty one (``true`` and
    ``[6]`` included: they are read, and found unreadable)."""
    for name in names:
        found = value(content, name)
        if found is not None and found != "" and found != []:
            return name, found
    return "", None


def decision_score(decision: str) -> float | None:
    """The ordinal of a decision text (:data:`DECISION_SCORES`); None when none matches."""
    lowered = decision.lower()
    return next((score for word, score in DECISION_SCORES if word in lowered), None)


def set_aside_status(content: dict[str, Any], reply_kinds: set[str]) -> str | None:
    """``withdrawn`` / ``desk_rejected`` from the submission's ``venueid`` (``.../
    Withdrawn_Submission``), its ``venue`` text (``ICLR 2026 Conference Withdrawn
    Submission``), or a ``Withdrawal`` / ``Desk_Rejection`` reply; None for the others. A
    reinstated submission (OpenReview's ``Withdrawal_Reversion`` / ``Desk_Rejection_Reversion``
    reply beside the original, its ``venueid`` active again) is not set apart. A journal's
    (openreview-py ``openreview/journal/journal.py``) are ``<venue>/Desk_Rejected`` and
    ``<venue>/Withdrawn_Submission``, and ``retracted`` is its ``<venue>/Retracted_Acceptance``."""
    venueid = str(value(content, "venueid") or "")
    label = str(value(content, "venue") or "").lower()
    if venueid.endswith("/Retracted_Acceptance"):
        return RETRACTED
    if (
        venueid.endswith(("/Desk_Rejected_Submission", "/Desk_Rejected"))
        or "desk rejected" in label
    ):
        return DESK_REJECTED
    if "Desk_Rejection" in reply_kinds and "Desk_Rejection_Reversion" not in reply_kinds:
        return DESK_REJECTED
    if venueid.endswith("/Withdrawn_Submission") or "withdrawn" in label:
        return WITHDRAWN
    if "Withdrawal" in reply_kinds and "Withdrawal_Reversion" not in reply_kinds:
        return WITHDRAWN
    return None


def weakness_items(text: str) -> list[str]:
    """A reviewer's weaknesses text cut into items: one per bullet or numbered line (``-``,
    ``*``, ``1.``, ``(a)``, ``W1:``), else one per paragraph; lines that continue an item are
    joined to it; a section header line (``Weaknesses:``, ``**Weaknesses**``) is no item; a
    line starting with a decimal (``0.3 points of FID``) is not a numbered item. AAAR-1.0's
    references are lists of single weaknesses; this is the plain-text approximation of that
    list (no model is asked to split)."""
    lines = [line.rstrip() for line in text.splitlines() if not _HEADER.match(line)]
    if any(_ITEM_START.match(line) for line in lines):
        items: list[str] = []
        for line in lines:
            if _ITEM_START.match(line):
                items.append(_ITEM_START.sub("", line, count=1).strip())
            elif line.strip() and items:
                items[-1] = f"{items[-1]} {line.strip()}"
            elif line.strip():
                items.append(line.strip())
        return [item for item in items if item]
    paragraphs = re.split(r"\n\s*\n", "\n".join(lines))
    return [" ".join(p.split()) for p in paragraphs if p.strip()]
