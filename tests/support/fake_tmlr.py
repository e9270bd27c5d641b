"""A fake TMLR (an OpenReview journal) whose answers change with an injected clock.

It follows openreview-py's ``openreview/journal`` code (its names are held against a table
citing that code in ``tests/rounds/test_tmlr_names.py``):

- ``GET /notes?invitation=TMLR/-/Submission&details=replies`` lists the submissions under
  review (public from ``Under_Review``: ``Journal.get_under_review_submission_readers``), with
  ``venueid`` ``TMLR/Under_Review`` and the venue text ``Under review for TMLR``;
- a paper's reviews (``TMLR/Paper<N>/-/Review``) are among its replies only once released, all
  together (``process/review_process.py``: when the ``number_of_reviewers``-th, 3, is in;
  :attr:`TmlrPaper.released` may set another time), each with its creation ``cdate``, the
  release as ``odate`` and the ``.../-/Review_Release`` invitation beside its own; the review
  form is ``set_review_invitation``'s (no rating; ``claims_and_evidence``, ``audience``: Yes/No);
- the decision (``TMLR/Paper<N>/-/Decision``: ``recommendation``, ``certifications``) is a reply
  only once released; the submission is then accepted (``venueid`` ``TMLR``, ``Accepted by
  TMLR``, its ``certifications``) or ``TMLR/Rejected``; a certification may be added to an
  accepted submission later (:attr:`TmlrPaper.later_certifications`);
- withdrawn: ``TMLR/Withdrawn_Submission`` (``Withdrawn by Authors``) with a ``Withdrawal``
  reply; desk-rejected: ``TMLR/Desk_Rejected`` (``Desk rejected by TMLR``);
- ``GET /invitations?id=TMLR/-/Review`` and ``TMLR/-/Decision`` answer the super invitations'
  forms (``save_super_invitation``: the per-paper form under ``edit.invitation``) when
  ``forms_public``; openreview-py gives them the venue alone as readers, so with
  ``forms_public=False`` the fake answers 403, as OpenReview does an anonymous reader;
- ``GET /notes/edits`` answers 403: a journal review's edits are read by the venue, the action
  editor and the signer only (``set_review_invitation``'s ``edit.readers``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fake_openreview import FakeOpenReview

VENUE = "TMLR"
# openreview-py openreview/journal/journal.py, Journal.__init__ and its get_*_id methods.
NAMES = {
    "under_review": f"{VENUE}/Under_Review",
    "accepted": VENUE,
    "rejected": f"{VENUE}/Rejected",
    "withdrawn": f"{VENUE}/Withdrawn_Submission",
    "desk_rejected": f"{VENUE}/Desk_Rejected",
    "retracted": f"{VENUE}/Retracted_Acceptance",
    "submission": f"{VENUE}/-/Submission",
    "review": f"{VENUE}/Paper{{number}}/-/Review",
    "review_release": f"{VENUE}/Paper{{number}}/-/Review_Release",
    "decision": f"{VENUE}/Paper{{number}}/-/Decision",
    "decision_release": f"{VENUE}/Paper{{number}}/-/Decision_Release",
    "withdrawal": f"{VENUE}/Paper{{number}}/-/Withdrawal",
}
# openreview-py openreview/journal/invitation.py: set_review_invitation, set_decision_invitation.
REVIEW_FORM = (
    "summary_of_contributions",
    "strengths_and_weaknesses",
    "requested_changes",
    "broader_impact_concerns",
    "claims_and_evidence",
    "audience",
)
DECISION_FORM = (
    "claims_and_evidence",
    "audience",
    "recommendation",
    "comment",
    "resubmission_of_major_revision",
    "certifications",
)
RECOMMENDATIONS = ("Accept as is", "Accept with minor revision", "Reject")


def ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


def _wrap(content: dict[str, Any]) -> dict[str, Any]:
    return {name: {"value": value} for name, value in content.items()}


@dataclass
class TmlrReview:
    review_id: str
    created: dt.datetime
    claims_and_evidence: str = "Yes"
    audience: str = "Yes"
    weaknesses: str = "- The evaluation is small."  # the strengths_and_weaknesses field
    requested_changes: str = "None."


@dataclass
class TmlrPaper:
    paper_id: str
    number: int
    title: str
    abstract: str
    submitted: dt.datetime
    reviews: list[TmlrReview] = field(default_factory=list)
    released: dt.datetime | None = None  # the reviews' release (default: the third's creation)
    # (created, released, recommendation, certifications)
    decision: tuple[dt.datetime, dt.datetime, str, list[str]] | None = None
    later_certifications: list[tuple[dt.datetime, str]] = field(default_factory=list)
    withdrawn: dt.datetime | None = None
    desk_rejected: dt.datetime | None = None

    def release_time(self) -> dt.datetime | None:
        if self.released is not None:
            return self.released
        created = sorted(review.created for review in self.reviews)
        return created[2] if len(created) >= 3 else None

    def _decided(self, now: dt.datetime) -> bool:
        return self.decision is not None and self.decision[1] <= now

    def _state(self, now: dt.datetime) -> tuple[str, str]:
        if self.withdrawn is not None and self.withdrawn <= now:
            return NAMES["withdrawn"], "Withdrawn by Authors"
        if self.desk_rejected is not None and self.desk_rejected <= now:
            return NAMES["desk_rejected"], f"Desk rejected by {VENUE}"
        if self.decision is not None and self._decided(now):
            if self.decision[2].startswith("Accept"):
                return NAMES["accepted"], f"Accepted by {VENUE}"
            return NAMES["rejected"], f"Rejected by {VENUE}"
        return NAMES["under_review"], f"Under review for {VENUE}"

    def _replies(self, now: dt.datetime) -> list[dict[str, Any]]:
        out = []
        released = self.release_time()
        if released is not None and released <= now:
            for review in self.reviews:
                content = {
                    "summary_of_contributions": "The paper proposes a method.",
                    "strengths_and_weaknesses": review.weaknesses,
                    "requested_changes": review.requested_changes,
                    "broader_impact_concerns": "None.",
                    "claims_and_evidence": review.claims_and_evidence,
                    "audience": review.audience,
                }
                out.append(
                    {
                        "id": review.review_id,
                        "invitations": [
                            NAMES["review"].format(number=self.number),
                            NAMES["review_release"].format(number=self.number),
                        ],
                        "forum": self.paper_id,
                        "replyto": self.paper_id,
                        "cdate": ms(review.created),
                        "tcdate": ms(review.created),
                        "odate": ms(released),
                        "content": _wrap(content),
                    }
                )
        if self.decision is not None and self._decided(now):
            created, public, recommendation, certifications = self.decision
            content: dict[str, Any] = {"recommendation": recommendation, "comment": "Decided."}
            if certifications:
                content["certifications"] = certifications
            out.append(
                {
                    "id": f"{self.paper_id}-decision",
                    "invitations": [
                        NAMES["decision"].format(number=self.number),
                        NAMES["decision_release"].format(number=self.number),
                    ],
                    "forum": self.paper_id,
                    "cdate": ms(created),
                    "odate": ms(public),
                    "content": _wrap(content),
                }
            )
        if self.withdrawn is not None and self.withdrawn <= now:
            out.append(
                {
                    "id": f"{self.paper_id}-withdrawal",
                    "invitations": [NAMES["withdrawal"].format(number=self.number)],
                    "cdate": ms(self.withdrawn),
                    "content": _wrap({"withdrawal_confirmation": "I have read and agree."}),
                }
            )
        return out

    def note(self, now: dt.datetime) -> dict[str, Any]:
        venueid, venue = self._state(now)
        content: dict[str, Any] = {
            "title": self.title,
            "abstract": self.abstract,
            "venue": venue,
            "venueid": venueid,
            "pdf": f"/pdf/{self.paper_id}.pdf",
        }
        if venueid == NAMES["accepted"] and self.decision is not None:
            certified = list(self.decision[3])
            certified += [name for when, name in self.later_certifications if when <= now]
            if certified:
                content["certifications"] = certified
        return {
            "id": self.paper_id,
            "number": self.number,
            "invitations": [NAMES["submission"], f"{VENUE}/-/Under_Review"],
            "cdate": ms(self.submitted),
            "content": _wrap(content),
            "details": {"replies": self._replies(now)},
        }


def _form(name: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """A super invitation as ``InvitationBuilder.save_super_invitation`` saves it."""
    per_paper = {"id": f"{VENUE}/Paper${{2/content/noteNumber/value}}/-/{name}"}
    note = {"content": {field: {"value": {"param": {"type": "string"}}} for field in fields}}
    inner = {**per_paper, "edit": {"note": note}}
    return {"id": f"{VENUE}/-/{name}", "edit": {"invitation": inner}}


@dataclass
class FakeTmlr(FakeOpenReview):
    """TMLR as it stands at ``clock()``."""

    papers: list[TmlrPaper] = field(default_factory=list)
    clock: Callable[[], dt.datetime] = lambda: dt.datetime(2025, 10, 1, tzinfo=dt.UTC)
    forms_public: bool = True
    forms: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: {"Review": REVIEW_FORM, "Decision": DECISION_FORM}
    )

    def answer(self, path: str, params: dict[str, str], auth: str = "") -> tuple[int, str, bytes]:
        forbidden = 403, "application/json", b'{"name": "ForbiddenError", "status": 403}'
        if path == "/notes/edits":
            return forbidden
        if path == "/invitations":
            if not self.forms_public:
                return forbidden
            name = params.get("id", "").rsplit("/-/", 1)[-1]
            found = [_form(name, self.forms[name])] if name in self.forms else []
            body = {"invitations": found, "count": len(found)}
            return 200, "application/json", json.dumps(body).encode("utf-8")
        now = self.clock()
        self.notes = [paper.note(now) for paper in self.papers]
        return super().answer(path, params, auth)


def fake_tmlr(clock: Callable[[], dt.datetime], papers: list[TmlrPaper]) -> FakeTmlr:
    return FakeTmlr(venue=VENUE, notes=[], papers=papers, clock=clock)
