"""The fake TMLR's and the builder's names, held against openreview-py's journal code.

Each row: the name, and where openreview-py (``openreview/openreview-py``, folder
``openreview/journal/``) defines it, for the venue id ``TMLR`` and paper number 7.
"""

from __future__ import annotations

import pytest
from fake_tmlr import DECISION_FORM, NAMES, RECOMMENDATIONS, REVIEW_FORM, VENUE

from research_taste.builders.openreview import journal
from research_taste.rounds.plan import DECISION_PLAN

OPENREVIEW_PY = {
    # journal.py, Journal.__init__
    "under_review": ("TMLR/Under_Review", "journal.py: under_review_venue_id"),
    "accepted": ("TMLR", "journal.py: accepted_venue_id = venue_id"),
    "rejected": ("TMLR/Rejected", "journal.py: rejected_venue_id"),
    "withdrawn": ("TMLR/Withdrawn_Submission", "journal.py: withdrawn_venue_id"),
    "desk_rejected": ("TMLR/Desk_Rejected", "journal.py: desk_rejected_venue_id"),
    "retracted": ("TMLR/Retracted_Acceptance", "journal.py: retracted_venue_id"),
    # journal.py, __get_invitation_id with submission_group_name 'Paper'
    "submission": ("TMLR/-/Submission", "journal.py: get_author_submission_id"),
    "review": ("TMLR/Paper7/-/Review", "journal.py: get_review_id"),
    "review_release": ("TMLR/Paper7/-/Review_Release", "journal.py: get_release_review_id"),
    "decision": ("TMLR/Paper7/-/Decision", "journal.py: get_ae_decision_id"),
    "decision_release": ("TMLR/Paper7/-/Decision_Release", "journal.py: get_release_decision_id"),
    "withdrawal": ("TMLR/Paper7/-/Withdrawal", "journal.py: get_withdrawal_id"),
}
# invitation.py, InvitationBuilder.set_review_invitation: edit.note.content
REVIEW_FIELDS = {
    "summary_of_contributions",
    "strengths_and_weaknesses",
    "requested_changes",
    "broader_impact_concerns",
    "claims_and_evidence",
    "audience",
}
# invitation.py, InvitationBuilder.set_decision_invitation: edit.note.content (certifications
# when the journal has any), and the recommendation's enum
DECISION_FIELDS = {
    "claims_and_evidence",
    "audience",
    "recommendation",
    "comment",
    "resubmission_of_major_revision",
    "certifications",
}
RECOMMENDATION_ENUM = ["Accept as is", "Accept with minor revision", "Reject"]


@pytest.mark.parametrize("name", sorted(OPENREVIEW_PY))
def test_fake_names_follow_openreview_py(name: str) -> None:
    expected, _where = OPENREVIEW_PY[name]
    assert NAMES[name].format(number=7) == expected


def test_forms_follow_openreview_py() -> None:
    assert set(REVIEW_FORM) == REVIEW_FIELDS and set(DECISION_FORM) == DECISION_FIELDS
    assert list(RECOMMENDATIONS) == RECOMMENDATION_ENUM
    assert sorted(journal.DECISION_ORDINALS) == sorted(RECOMMENDATION_ENUM)
    assert set(journal.CRITERIA_FIELDS) <= REVIEW_FIELDS
    assert DECISION_PLAN["decision_field"] == "recommendation" == journal.DECISION_FIELD
    assert journal.CERTIFICATIONS_FIELD in DECISION_FIELDS


def test_builder_states_follow_openreview_py() -> None:
    for name, state in (
        ("under_review", journal.UNDER_REVIEW),
        ("rejected", journal.REJECTED),
        ("withdrawn", journal.WITHDRAWN),
        ("desk_rejected", journal.DESK_REJECTED),
        ("retracted", journal.RETRACTED),
    ):
        assert OPENREVIEW_PY[name][0] == f"{VENUE}/{state}"
    content = {"venueid": {"value": OPENREVIEW_PY["accepted"][0]}}
    assert journal.venue_state(VENUE, content) == "accepted"
    assert OPENREVIEW_PY["review"][0].endswith(f"/-/{journal.REVIEW}")
    assert OPENREVIEW_PY["decision"][0].endswith(f"/-/{journal.DECISION}")
