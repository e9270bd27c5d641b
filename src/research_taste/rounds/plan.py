"""An OpenReview round's label plan, chosen at open from the venue's review and decision forms.

At open no reply is public yet, so what a resolve will read is told by the forms: the content
fields of the venue's review invitation (``<venue>/-/Official_Review`` for a conference,
``<venue>/-/Review`` for a journal) and decision invitation (``<venue>/-/Decision``), read
through ``GET /invitations?id=<invitation>``. openreview-py saves them as super invitations
(``InvitationBuilder.save_super_invitation``): the per-paper form sits under ``edit.invitation``,
its fields under ``edit.note.content``; a plain invitation has them under ``edit.note.content``.

- a review form with a numeric rating (``forms.RATING_FIELDS``): the conference plan, the mean
  official rating as first posted (``rounds/openreview.py``);
- else a decision form with a decision (``recommendation``, TMLR's; ``decision``): the decision
  plan, the decision as an ordinal (``rounds/journal.py``);
- else the open is refused in one sentence naming the fields found.

openreview-py gives these super invitations the venue alone as readers, so an anonymous reader
may find none of them (400, 403, 404 or an empty list): the plan is then the one openreview-py's
code gives the venue's kind, told by its submissions' venue ids: a journal's submissions under
review carry ``<venue>/Under_Review`` (``openreview/journal/journal.py``), a conference's
``<venue>/Submission``. ``label_plan.forms`` says which way the plan was found.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from research_taste.builders.openreview import forms, journal
from research_taste.builders.openreview.client import OpenReviewClient
from research_taste_evals.core.data import DataError

FORMS_NOT_READABLE = (400, 403, 404)
REVIEW_FORMS = ("Official_Review", journal.REVIEW)
DECISION_FIELDS = (journal.DECISION_FIELD, "decision")
RATING_PLAN = {
    "kind": "rating",
    "headline": "mean official rating as first posted (pre-rebuttal)",
    "beside": "decision",
    "label_time": "earliest official review creation",
    "prompt": "reviews",
    "horizon": "the decision is posted",
    "review_form": "Official_Review",
}
DECISION_PLAN = {
    "kind": "decision",
    "headline": "the public decision as an ordinal: Reject 0, Accept with minor revision 1, "
    "Accept as is 2, accepted with a Featured or Outstanding Certification 3",
    "beside": "claims_and_evidence and audience (the reviews' yes/no criteria), certifications",
    "label_time": "the reviews' public time (odate), else the creation of the review that "
    "completed the set; never before opened_at",
    "prompt": "journal",
    "horizon": "the decision is public",
    "review_form": journal.REVIEW,
    "decision_field": journal.DECISION_FIELD,
}


def form_fields(client: OpenReviewClient, invitation_id: str) -> list[str] | None:
    """The content fields of an invitation's note form; None when it is not readable."""
    content = form_content(client, invitation_id)
    return None if content is None else sorted(content)


def form_content(client: OpenReviewClient, invitation_id: str) -> dict[str, Any] | None:
    """The content of an invitation's note form (field -> its spec); None when not readable."""
    answer = client.get_json_or_none(
        "/invitations", {"id": invitation_id}, "invitations", none_on=FORMS_NOT_READABLE
    )
    found = [i for i in (answer or {}).get("invitations", []) if isinstance(i, dict)]
    if not found:
        return None
    edit = found[0].get("edit") or {}
    inner = edit.get("invitation")
    form = (inner.get("edit") or {}) if isinstance(inner, dict) else edit
    content = (form.get("note") or {}).get("content") or {}
    return content if isinstance(content, dict) else {}


def rating_scale_of(spec: Any) -> list[float] | None:
    """[lowest, highest] of a rating field's options (openreview-py's ``value.param.enum``:
    numbers, ``{"value": 6, ...}`` or ``"6: marginally above"``); None without options."""
    param = ((spec or {}).get("value") or {}).get("param") if isinstance(spec, dict) else None
    options = (param or {}).get("enum") if isinstance(param, dict) else None
    values = [forms.number(o.get("value") if isinstance(o, dict) else o) for o in options or []]
    numbers = [v for v in values if v is not None]
    return [min(numbers), max(numbers)] if numbers else None


def _by_kind(venue: str, notes: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The plan openreview-py's code gives the venue's kind (module docstring)."""
    under_review = f"{venue}/{journal.UNDER_REVIEW}"
    if any(forms.value(n.get("content"), "venueid") == under_review for n in notes):
        return {**DECISION_PLAN, "forms": "not readable: openreview-py's journal forms"}
    return {**RATING_PLAN, "forms": "not readable: openreview-py's conference forms"}


def label_plan(
    client: OpenReviewClient, venue: str, notes: Iterable[dict[str, Any]]
) -> dict[str, Any]:
    """The round's label plan (module docstring).

    Raises:
        DataError: the forms read carry neither a numeric rating nor a decision.
    """
    contents = {name: form_content(client, f"{venue}/-/{name}") for name in REVIEW_FORMS}
    reviews = {name: None if c is None else sorted(c) for name, c in contents.items()}
    decision = form_fields(client, f"{venue}/-/{journal.DECISION}")
    if decision is None and all(fields is None for fields in reviews.values()):
        return _by_kind(venue, notes)
    for name, fields in reviews.items():
        if fields and set(fields) & set(forms.RATING_FIELDS):
            rating = next(f for f in forms.RATING_FIELDS if f in fields)
            scale = rating_scale_of((contents[name] or {}).get(rating))
            scaled = {"rating_scale": scale} if scale is not None else {}
            return {**RATING_PLAN, "review_form": name, "forms": "read", **scaled}
    field = next((f for f in DECISION_FIELDS if f in (decision or [])), None)
    if field is not None:
        review_form = next((n for n, f in reviews.items() if f is not None), journal.REVIEW)
        return {
            **DECISION_PLAN,
            "review_form": review_form,
            "decision_field": field,
            "forms": "read",
        }
    named = "; ".join(
        f"{venue}/-/{name}: {', '.join(fields) or 'no fields'}"
        for name, fields in [*reviews.items(), (journal.DECISION, decision)]
        if fields is not None
    )
    raise DataError(
        f"OpenReview venue {venue}: its forms carry neither a numeric rating "
        f"({', '.join(forms.RATING_FIELDS)}) nor a decision ({', '.join(DECISION_FIELDS)}) "
        f"(fields found: {named}), so a round there has no label to wait for"
    )
