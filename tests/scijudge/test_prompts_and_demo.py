"""The TastyBench wording is TastyBench's; the shipped demo rows are the ones demo.py writes."""

from __future__ import annotations

from research_taste_evals.scijudge.demo import DEMO_FILE, demo_rows, demo_text
from research_taste_evals.scijudge.prompts import (
    FIELD_NEUTRAL,
    TASTYBENCH_DOMAIN,
    TASTYBENCH_JUDGE,
)
from research_taste_evals.scijudge.rows import left_out_reason, read_paper
from research_taste_evals.tastybench.prompts import JUDGE_GOODHART


def test_the_tastybench_wording_is_tastybench_s_default_judge_prompt_made_field_neutral() -> None:
    # A family imports no other family: scijudge repeats the constant, this test keeps it equal
    # to TastyBench's but for its one domain clause (SciJudgeBench's pairs are of every field).
    assert TASTYBENCH_JUDGE.count(FIELD_NEUTRAL) == 1
    assert TASTYBENCH_JUDGE.replace(FIELD_NEUTRAL, TASTYBENCH_DOMAIN) == JUDGE_GOODHART
    for field_word in ("LLM", "reinforcement", "math", "coding", "AI"):
        assert field_word not in TASTYBENCH_JUDGE


def test_the_shipped_demo_file_is_what_demo_py_writes() -> None:
    assert DEMO_FILE.read_text(encoding="utf-8") == demo_text()


def test_demo_rows_are_in_the_card_format_with_one_left_out() -> None:
    rows = demo_rows()
    keys = ("citations", "title", "abstract", "date", "category", "subcategory", "arxiv_id")
    fields = {f"paper_{side}_{key}" for side in "ab" for key in keys}
    assert all(fields | {"messages", "correct_answer"} <= set(r) for r in rows)
    reasons = [
        left_out_reason(r["correct_answer"], read_paper(r, "a", "x"), read_paper(r, "b", "x"))
        for r in rows
    ]
    assert reasons.count("equal_citations") == 1 and reasons.count(None) == len(rows) - 1
