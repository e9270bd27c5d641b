from __future__ import annotations

import json

from research_taste_evals.reviewcritique.parsing import parse_outcome, unfence


def _labels(entries: list[tuple[object, str]]) -> str:
    return json.dumps(
        {"segments": [{"id": i, "reliability": r, "explanation": f"e{i}"} for i, r in entries]}
    )


def test_labeling_all_decisions_and_omitted_ids() -> None:
    outcome = parse_outcome("labeling_all", _labels([(1, "Yes"), (2, "No"), (4, "No")]), 4)
    assert outcome.parsed
    assert outcome.deficient == {1: False, 2: True, 4: True}
    assert outcome.omitted == [3]  # never defaulted to "reliable"
    assert outcome.explanations[2] == "e2"


def test_invented_and_duplicate_ids_are_counted_not_used() -> None:
    text = _labels([(1, "No"), (9, "No"), (0, "Yes"), (1, "Yes"), (2, "Yes")])
    outcome = parse_outcome("labeling_all", text, 2)
    assert outcome.invented == [9, 0]
    assert outcome.duplicates == [1]
    assert outcome.deficient == {1: True, 2: False}  # the first entry for id 1 counts
    selected = json.dumps({"deficient_segments": [{"id": 2, "explanation": "x"}, {"id": 7}]})
    outcome = parse_outcome("select_deficient", selected, 3)
    assert outcome.invented == [7]
    assert outcome.deficient == {1: False, 2: True, 3: False}
    assert outcome.omitted == []


def test_strict_parsing_rejects_prose_wrong_types_and_wrong_keys() -> None:
    assert parse_outcome("labeling_all", "Segment 1 is fine.", 1).parsed is False
    assert parse_outcome("labeling_all", _labels([("1", "No")]), 1).parsed is False
    assert parse_outcome("labeling_all", _labels([(1, "no")]), 1).parsed is False
    assert parse_outcome("labeling_all", _labels([(True, "No")]), 1).parsed is False
    wrong_prompt = json.dumps({"deficient_segments": []})
    failed = parse_outcome("labeling_all", wrong_prompt, 1)
    assert failed.parsed is False and failed.deficient == {} and failed.error
    assert parse_outcome("select_deficient", "", 2).deficient == {}


def test_one_code_fence_is_tolerated() -> None:
    body = json.dumps({"deficient_segments": [{"id": 1, "explanation": "x"}]})
    assert unfence(f"```json\n{body}\n```\n") == body
    assert parse_outcome("select_deficient", f"```\n{body}\n```", 1).deficient == {1: True}
    assert parse_outcome("select_deficient", f"Here:\n```json\n{body}\n```", 1).parsed is False
