"""The ReviewCritique answer contract (``reviewcritique/parsing.py``), shape by shape.

Every READ shape carries the same decision as the canonical answer; every UNPARSED shape must
stay unparsed (no decision for any segment), never be misread.
"""

from __future__ import annotations

import json

import pytest

from research_taste_evals.reviewcritique.parsing import parse_outcome

# Canonical decision on a 4-segment review: 2 and 4 deficient.
LA = {"segments": [
    {"id": 1, "reliability": "Yes", "explanation": "fine"},
    {"id": 2, "reliability": "No", "explanation": "misreads table 2"},
    {"id": 3, "reliability": "Yes", "explanation": "fine"},
    {"id": 4, "reliability": "No", "explanation": "vague"},
]}  # fmt: skip
SD = {"deficient_segments": [
    {"id": 2, "explanation": "misreads table 2"}, {"id": 4, "explanation": "vague"},
]}  # fmt: skip
CANONICAL = {1: False, 2: True, 3: False, 4: True}
LA_JSON, SD_JSON = json.dumps(LA), json.dumps(SD)
LA_PRETTY, SD_PRETTY = json.dumps(LA, indent=2), json.dumps(SD, indent=2)


def _la(labels: list[tuple[object, object]]) -> str:
    return json.dumps({"segments": [{"id": i, "reliability": r} for i, r in labels]})


STRING_IDS_LA = _la([("1", "Yes"), ("2", "No"), ("3", "Yes"), ("4", "No")])
LOWER_LA = _la([(1, "yes"), (2, "no"), (3, "yes"), (4, "no")])
UPPER_LA = _la([(1, "YES"), (2, "NO."), (3, " Yes "), (4, "No")])

READ = [
    ("canonical", LA_JSON, SD_JSON),
    ("pretty printed", LA_PRETTY, SD_PRETTY),
    ("json fence", f"```json\n{LA_PRETTY}\n```", f"```json\n{SD_PRETTY}\n```"),
    ("bare fence", f"```\n{LA_JSON}\n```", f"```\n{SD_JSON}\n```"),
    ("JSON fence upper", f"```JSON\n{LA_JSON}\n```", f"```JSON\n{SD_JSON}\n```"),
    ("prose before fence", f"Here is my assessment:\n\n```json\n{LA_PRETTY}\n```",
     f"Sure! Below are the deficient segments.\n```json\n{SD_PRETTY}\n```"),
    ("prose before and after fence",
     f"My analysis:\n```json\n{LA_PRETTY}\n```\nLet me know if you need more detail.",
     f"Result:\n```json\n{SD_PRETTY}\n```\n\nNote: segment 3 is borderline but acceptable."),
    ("one-line fence then a note", f"```json\n{LA_JSON}\n```\nNote: ids follow the review.",
     f"```json\n{SD_JSON}\n```\n(Segments 1 and 3 are reliable.)"),
    ("unfenced with prose", f"Answer: {LA_JSON} Hope this helps.", f"Final answer {SD_JSON}."),
    ("think block", f"<think>Segment 2 says table 2... {{draft}}</think>\n{LA_JSON}",
     f"<think>\nLet me check each segment.\n</think>\n\n{SD_JSON}"),
    ("think block with a draft object",
     "<think>draft: " + _la([(1, "No")]) + "</think>" + LA_JSON,
     '<think>{"deficient_segments": [{"id": 1}]}</think>' + SD_JSON),
    ("closing tag only (template opened it)", f"Reviewing segments...\n</think>\n{LA_JSON}",
     f"Okay, segment 4 is vague.</think>{SD_JSON}"),
    ("thinking and reasoning tags", f"<thinking>hmm</thinking>\n{LA_JSON}",
     f"<reasoning>x</reasoning>```json\n{SD_JSON}\n```"),
    ("string ids", STRING_IDS_LA,
     json.dumps({"deficient_segments": [{"id": "2"}, {"id": " 4 "}]})),
    ("lowercase labels", LOWER_LA, SD_JSON),
    ("upper and padded labels", UPPER_LA, SD_JSON),
    ("capitalised keys",
     json.dumps({"Segments": [{"ID": i, "Reliability": "No" if d else "Yes"}
                              for i, d in CANONICAL.items()]}),
     json.dumps({"Deficient_Segments": [{"Id": 2}, {"Id": 4}]})),
    ("no explanations", _la([(1, "Yes"), (2, "No"), (3, "Yes"), (4, "No")]),
     json.dumps({"deficient_segments": [{"id": 2}, {"id": 4}]})),
    ("extra keys", json.dumps({**LA, "summary": "two weak segments"}),
     json.dumps({**SD, "confidence": 0.8})),
    ("example object first, answer last",
     'The format is {"segments": [{"id": 1, "reliability": "Yes"}]}.\n' + LA_JSON,
     'Schema: {"deficient_segments": []}\n\n' + SD_JSON),
    ("shuffled entries",
     json.dumps({"segments": list(reversed(LA["segments"]))}),
     json.dumps({"deficient_segments": list(reversed(SD["deficient_segments"]))})),
    ("markdown heading and bold", f"## Assessment\n**Labels:**\n```json\n{LA_PRETTY}\n```",
     f"### Deficient segments\n\n```json\n{SD_PRETTY}\n```\n**Done.**"),
    ("null explanation",
     json.dumps({"segments": [{**e, "explanation": None} for e in LA["segments"]]}),
     json.dumps({"deficient_segments": [{"id": 2, "explanation": None}, {"id": 4}]})),
    ("consistent duplicate", _la([(1, "Yes"), (2, "No"), (2, "No"), (3, "Yes"), (4, "No")]),
     json.dumps({"deficient_segments": [{"id": 2}, {"id": 4}, {"id": 4}]})),
]  # fmt: skip

UNPARSED = [
    ("prose only", "Segments 2 and 4 are deficient; the rest are fine."),
    ("empty", ""),
    ("truncated json", LA_JSON[:-3]),
    ("trailing comma", '{"segments": [{"id": 1, "reliability": "Yes"},]}'),
    ("single quotes", "{'segments': [{'id': 1, 'reliability': 'Yes'}]}"),
    ("template echo", '{"segments": [{"id": 1, "reliability": "Yes", "explanation": "..."}, ...]}'),
    ("list without wrapper", json.dumps(LA["segments"])),
    ("wrong list key", json.dumps({"labels": LA["segments"]})),
    ("other prompt's answer", SD_JSON),
    ("answer only inside think", f"<think>{LA_JSON}</think>I could not decide."),
    ("cut off while thinking", f"{LA_JSON[:5]}<think>I think {LA_JSON}"),
    ("answer then unrelated object last", LA_JSON + '\n{"note": "done"}'),
    ("boolean id", _la([(True, "Yes")])),
    ("float id", _la([(1.5, "No")])),
    ("word id", _la([("three", "No")])),
    ("label maybe", _la([(1, "Yes"), (2, "Maybe")])),
    ("label synonym", _la([(1, "reliable"), (2, "deficient")])),
    ("boolean label", _la([(1, True), (2, False)])),
    ("missing reliability", json.dumps({"segments": [{"id": 1}]})),
    ("missing id", json.dumps({"segments": [{"reliability": "No"}]})),
    ("entry not an object", json.dumps({"segments": [1, 2]})),
    ("segments not a list", json.dumps({"segments": {"1": "Yes"}})),
]  # fmt: skip


@pytest.mark.parametrize(("name", "labeling_all", "select_deficient"), READ)
def test_realistic_shapes_read_the_canonical_decision(
    name: str, labeling_all: str, select_deficient: str
) -> None:
    la = parse_outcome("labeling_all", labeling_all, 4)
    sd = parse_outcome("select_deficient", select_deficient, 4)
    assert la.parsed and sd.parsed, (name, la.error, sd.error)
    assert la.deficient == CANONICAL, name
    assert sd.deficient == CANONICAL, name
    assert la.omitted == [] and la.invented == [] and la.contradictory == []


@pytest.mark.parametrize(("name", "text"), UNPARSED)
def test_adversarial_shapes_stay_unparsed(name: str, text: str) -> None:
    outcome = parse_outcome("labeling_all", text, 4)
    assert not outcome.parsed, name
    assert outcome.deficient == {} and outcome.error


def test_select_deficient_adversarial_shapes_stay_unparsed() -> None:
    for text in ["2, 4", LA_JSON, '{"deficient_segments": "2, 4"}',
                 '{"deficient_segments": [{"id": "two"}]}', "```json\n```"]:  # fmt: skip
        assert not parse_outcome("select_deficient", text, 4).parsed, text
    # Select-Deficient with nothing listed is the answer "every segment is reliable".
    assert parse_outcome("select_deficient", '{"deficient_segments": []}', 2).deficient == {
        1: False,
        2: False,
    }


def test_table_has_at_least_30_shapes() -> None:
    assert len(READ) + len(UNPARSED) >= 30


def test_labeling_all_decisions_and_omitted_ids() -> None:
    outcome = parse_outcome("labeling_all", _la([(1, "Yes"), (2, "No"), (4, "No")]), 4)
    assert outcome.parsed
    assert outcome.deficient == {1: False, 2: True, 4: True}
    assert outcome.omitted == [3]  # never defaulted to "reliable"


def test_invented_duplicate_and_contradictory_ids_are_counted_not_used() -> None:
    text = _la([(1, "No"), (9, "No"), (0, "Yes"), (1, "No"), (2, "Yes"), (3, "Yes"), (3, "no")])
    outcome = parse_outcome("labeling_all", text, 3)
    assert outcome.invented == [9, 0]
    assert outcome.duplicates == [1]
    assert outcome.contradictory == [3]
    # Id 3 has contradictory labels: no decision (not omitted: it was answered, badly).
    assert outcome.deficient == {1: True, 2: False}
    assert outcome.omitted == []
    selected = json.dumps({"deficient_segments": [{"id": 2, "explanation": "x"}, {"id": 7}]})
    outcome = parse_outcome("select_deficient", selected, 3)
    assert outcome.invented == [7]
    assert outcome.deficient == {1: False, 2: True, 3: False}
    assert outcome.explanations[2] == "x"


def test_error_names_where_the_contract_breaks() -> None:
    outcome = parse_outcome("labeling_all", _la([(1, "Yes"), (2, "Maybe")]), 2)
    assert outcome.error is not None and outcome.error.startswith("segments.1.reliability")
