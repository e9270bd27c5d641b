"""Reading review forms: ratings, weakness items, note kinds and dates."""

from __future__ import annotations

import pytest

from research_taste.builders.openreview import forms


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (6, 6.0),
        ("6: marginally above the acceptance threshold", 6.0),
        ("5: Accept: technically solid paper", 5.0),
        (" 2.5", 2.5),
        ("Strong accept", None),
        (True, None),
        (None, None),
    ],
)
def test_ratings_read_as_their_leading_number(raw: object, expected: float | None) -> None:
    assert forms.number(raw) == expected


def test_review_fields_by_documented_names() -> None:
    review = forms.read_review(
        {
            "id": "r1",
            "content": {
                "overall_recommendation": {"value": "4: accept"},
                "other_strengths_and_weaknesses": {"value": "- a\n- b"},
                "confidence": {"value": 3},
            },
        }
    )
    assert (review.rating, review.rating_field, review.confidence) == (
        4.0,
        "overall_recommendation",
        3.0,
    )
    assert review.weakness_field == "other_strengths_and_weaknesses"
    bare = forms.read_review({"id": "r2", "content": {"rating": {"value": 8}}})
    assert bare.rating == 8.0 and bare.weaknesses == "" and bare.weakness_field == ""


def test_weakness_items_split_bullets_numbers_and_paragraphs() -> None:
    assert forms.weakness_items("- one\n  continued\n- two") == ["one continued", "two"]
    assert forms.weakness_items("1. first\n2) second\nW3: third") == ["first", "second", "third"]
    assert forms.weakness_items("Para one\nstill.\n\nPara two.") == ["Para one still.", "Para two."]


def test_note_kind_and_decisions() -> None:
    note = {"invitations": ["V/Submission1/-/Official_Review", "V/-/Edit"]}
    assert forms.note_kind(note) == "Official_Review"
    assert forms.decision_score("Accept (Oral)") == 3.0
    assert forms.decision_score("Accept (poster)") == 1.0
    assert forms.decision_score("Reject") == 0.0
    assert forms.decision_score("Pending") is None
    assert forms.note_date({"cdate": 1757678400000}).isoformat() == "2025-09-12"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("content", "kinds", "expected"),
    [
        ({"venueid": {"value": "V/2026/Conference/Withdrawn_Submission"}}, set(), "withdrawn"),
        ({"venue": {"value": "ICLR 2026 Conference Withdrawn Submission"}}, set(), "withdrawn"),
        ({"venueid": {"value": "V/Submission"}}, {"Withdrawal"}, "withdrawn"),
        ({"venueid": {"value": "V/Desk_Rejected_Submission"}}, set(), "desk_rejected"),
        ({"venueid": {"value": "V/Submission"}}, {"Desk_Rejection"}, "desk_rejected"),
        ({"venueid": {"value": "V/Rejected_Submission"}}, {"Official_Review"}, None),
        # a journal's (openreview-py openreview/journal/journal.py, Journal.__init__)
        ({"venueid": {"value": "TMLR/Desk_Rejected"}}, set(), "desk_rejected"),
        ({"venueid": {"value": "TMLR/Withdrawn_Submission"}}, set(), "withdrawn"),
        ({"venueid": {"value": "TMLR/Retracted_Acceptance"}}, set(), "retracted"),
        ({"venueid": {"value": "TMLR/Rejected"}}, {"Review", "Decision"}, None),
        ({"venueid": {"value": "TMLR/Under_Review"}}, set(), None),
    ],
)
def test_set_aside_from_venueid_venue_text_or_reply(
    content: dict, kinds: set[str], expected: str | None
) -> None:
    assert forms.set_aside_status(content, kinds) == expected


def test_iclr_2023_form_reads_as_aaar_did() -> None:
    review = forms.read_review(
        {
            "content": {
                "recommendation": {"value": "8: accept, good paper"},
                "strength_and_weaknesses": {"value": "Weak: small scale."},
            }
        }
    )
    assert review.rating == 8.0 and review.weakness_field == "strength_and_weaknesses"
