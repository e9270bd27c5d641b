"""An OpenReview journal (TMLR) as openreview-py's ``openreview/journal`` code lays it out.

Every name below is from openreview-py (``openreview/journal/journal.py``, class ``Journal``, and
``openreview/journal/invitation.py``, class ``InvitationBuilder``):

- venue ids of a submission's states (``Journal.__init__``): ``<venue>/Under_Review``
  (``under_review_venue_id``), ``<venue>/Decision_Pending``, ``<venue>/Rejected``,
  ``<venue>/Desk_Rejected``, ``<venue>/Withdrawn_Submission``, ``<venue>/Retracted_Acceptance``;
  an accepted submission's venue id is the venue id itself (``accepted_venue_id = venue_id``);
- per-paper invitations ``<venue>/Paper<N>/-/<name>`` (``__get_invitation_id`` with
  ``submission_group_name = 'Paper'``): ``Review`` (``get_review_id``), ``Review_Release``
  (``get_release_review_id``), ``Official_Recommendation`` (``get_reviewer_recommendation_id``:
  its notes are not public and are never read here), ``Decision`` (``get_ae_decision_id``),
  ``Decision_Release``, ``Withdrawal``, ``Desk_Rejection``, ``Retraction``;
- the review form (``set_review_invitation``): ``summary_of_contributions``,
  ``strengths_and_weaknesses``, ``requested_changes``, ``broader_impact_concerns`` and the
  yes/no criteria ``claims_and_evidence`` and ``audience`` (no rating);
- the decision form (``set_decision_invitation``): ``recommendation`` (``Accept as is``,
  ``Accept with minor revision``, ``Reject``), ``certifications`` (the journal's own, e.g.
  ``Featured Certification``), ``claims_and_evidence``, ``audience``, ``comment``; an accepted
  submission carries ``certifications`` too (``set_accepted_invitation``), and may gain one
  months later (``Event_Certification``).

Reviews are released to everyone together once ``number_of_reviewers`` (default 3) are in
(``process/review_process.py``: ``release_reviews_process``); the decision is public only
after its ``Decision_Release`` (a decision a reader can see is a public one).
"""

from __future__ import annotations

from typing import Any

from research_taste.builders.openreview import forms

UNDER_REVIEW = "Under_Review"
DECISION_PENDING = "Decision_Pending"
REJECTED = "Rejected"
DESK_REJECTED = "Desk_Rejected"
WITHDRAWN = "Withdrawn_Submission"
RETRACTED = "Retracted_Acceptance"
REVIEW = "Review"
DECISION = "Decision"
DECISION_FIELD = "recommendation"
CERTIFICATIONS_FIELD = "certifications"
CRITERIA_FIELDS = ("claims_and_evidence", "audience")
NUMBER_OF_REVIEWERS = 3  # Journal.get_number_of_reviewers' default
# The decision as an ordinal (issue 51's label plan): an accepted submission with one of these
# certifications ranks above every other acceptance.
DECISION_ORDINALS = {"Reject": 0.0, "Accept with minor revision": 1.0, "Accept as is": 2.0}
TOP_CERTIFICATIONS = ("Featured Certification", "Outstanding Certification")
TOP_ORDINAL = 3.0


def venue_state(venue: str, content: dict[str, Any] | None) -> str:
    """The submission's state: the part of its ``venueid`` after ``<venue>/`` (``accepted``
    when it is the venue id itself, "" when it names another venue)."""
    venueid = str(forms.value(content, "venueid") or "")
    if venueid == venue:
        return "accepted"
    return venueid.removeprefix(f"{venue}/") if venueid.startswith(f"{venue}/") else ""


def certifications(*contents: dict[str, Any] | None) -> list[str]:
    """Every certification the notes carry (a decision's, the accepted submission's), once."""
    found: list[str] = []
    for content in contents:
        named = forms.value(content, CERTIFICATIONS_FIELD) or []
        for name in named if isinstance(named, list) else [named]:
            if str(name) and str(name) not in found:
                found.append(str(name))
    return found


def decision_ordinal(recommendation: str, certified: list[str]) -> float | None:
    """The decision's ordinal (:data:`DECISION_ORDINALS`; 3 for an acceptance with a
    :data:`TOP_CERTIFICATIONS`); None for a text the journal's form does not offer."""
    score = DECISION_ORDINALS.get(recommendation.strip())
    if score is not None and score > 0 and any(c in TOP_CERTIFICATIONS for c in certified):
        return TOP_ORDINAL
    return score
