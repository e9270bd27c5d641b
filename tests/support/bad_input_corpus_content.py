"""Bad-input cases whose files parse and fit the schema but whose content cannot be scored:
empty texts, repeated records, contradictory fields, a misspelt key. These used to be
accepted silently (issue #22); each now stops the loader naming file, record and field.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bad_input_case import NOT_UTF8, Case
from bad_input_corpus import (
    GRADER,
    RC_MODEL,
    _edit_json,
    _eqinfer,
    _expdesign,
    _review_jsonl,
    _set,
    _weakness,
)
from bad_input_corpus_tables import LFT_MODEL, LFT_ROLES, _rubric

Papers = list[dict[str, Any]]

# ---------------------------------------------------------------- eqinfer

EQINFER = [
    Case(
        "eqinfer-repeated-record",
        "eqinfer",
        _eqinfer(lambda r: [*r, dict(r[1])]),
        ("equation.demo.json", "repeats record 1", "context_before"),
    ),
    Case(
        "eqinfer-empty-context-before",
        "eqinfer",
        _eqinfer(lambda r: _set(r, 2, "context_before", "  ")),
        ("equation.demo.json", "record 2", "field 'context_before'", "empty"),
    ),
    Case(
        "eqinfer-empty-context-after",
        "eqinfer",
        _eqinfer(lambda r: _set(r, 0, "context_after", "")),
        ("equation.demo.json", "record 0", "field 'context_after'", "empty"),
    ),
]

# ---------------------------------------------------------------- expdesign / paper_weakness


def _no_paper_text(record: dict[str, Any]) -> None:
    record["input"]["abstractText"] = None
    for section in record["input"]["sections"]:
        section["text"] = " "


PAPER_FOLDERS = [
    Case(
        "expdesign-empty-input",
        "expdesign",
        _expdesign(_edit_json(lambda record: record.update(input=["", " "]))),
        ("demo.0001/data_text.json", "record 0", "field 'input'", "no paper text"),
        model_roles=GRADER,
    ),
    Case(
        "expdesign-no-input-strings",
        "expdesign",
        _expdesign(_edit_json(lambda record: record.update(input=[]))),
        ("demo.0001/data_text.json", "record 0", "field 'input'", "no paper text"),
        model_roles=GRADER,
    ),
    Case(
        "weakness-paper-without-text",
        "paper_weakness",
        _weakness(_edit_json(_no_paper_text)),
        ("demo_w01/data_text.json", "record 0", "field 'input'", "the paper has no text"),
    ),
    Case(
        "weakness-every-reviewer-empty",
        "paper_weakness",
        _weakness(_edit_json(lambda record: record.update(output=[[], []]))),
        ("demo_w01/data_text.json", "record 0", "field 'output'", "all 2 reviewers"),
    ),
]

# ---------------------------------------------------------------- review_critique


def _misspelt_review_key(papers: Papers) -> Papers:
    review = papers[0]["review#2"]
    review["reveiw"] = review.pop("review")
    return papers


def _edit_first(edit: Callable[[dict[str, Any]], None]) -> Callable[[Papers], Papers]:
    def apply(papers: Papers) -> Papers:
        edit(papers[0])
        return papers

    return apply


def _segment_text(paper: dict[str, Any]) -> None:
    paper["review#1"]["review"][1]["segment_text"] = "   "


def _both_texts(paper: dict[str, Any]) -> None:
    paper["paper_text"] = paper["body_text"] + " (an older parse)"


RC = "reviewcritique_demo.jsonl"
REVIEW_CRITIQUE = [
    Case(
        "review-critique-misspelt-review-key",
        "review_critique",
        _review_jsonl(_misspelt_review_key),
        (RC, "paper 1", "field 'review#2'", "without 'review'", "reveiw"),
        RC_MODEL,
    ),
    Case(
        "review-critique-empty-title",
        "review_critique",
        _review_jsonl(_edit_first(lambda paper: paper.update(title=" "))),
        (RC, "paper 1", "review 'review#1'", "field 'title'", "empty"),
        RC_MODEL,
    ),
    Case(
        "review-critique-empty-paper-text",
        "review_critique",
        _review_jsonl(_edit_first(lambda paper: paper.update(body_text=""))),
        (RC, "paper 1", "review 'review#1'", "field 'paper_text'", "empty"),
        RC_MODEL,
    ),
    Case(
        "review-critique-empty-segment-text",
        "review_critique",
        _review_jsonl(_edit_first(_segment_text)),
        (RC, "paper 1", "review 'review#1'", "field 'segments[1].segment_text'", "empty"),
        RC_MODEL,
    ),
    Case(
        "review-critique-review-without-segments",
        "review_critique",
        _review_jsonl(_edit_first(lambda paper: paper["review#2"].update(review=[]))),
        (RC, "paper 1", "review 'review#2'", "field 'segments'"),
        RC_MODEL,
    ),
    Case(
        "review-critique-body-and-paper-text-differ",
        "review_critique",
        _review_jsonl(_edit_first(_both_texts)),
        (RC, "paper 1", "'body_text' and 'paper_text'", "differ"),
        RC_MODEL,
    ),
]

# ---------------------------------------------------------------- lft (context documents)


def _context_document(content: bytes) -> Callable[[Path], dict[str, Any]]:
    build_rubrics = _rubric(lambda text: text, name="ablation_plan.yaml")

    def build(tmp: Path) -> dict[str, Any]:
        args = build_rubrics(tmp)
        (Path(args["rubric_dir"]) / "context" / "ablation_digest.md").write_bytes(content)
        return {**args, "access": "context", "task_ids": "ablation-plan"}

    return build


LFT = [
    Case(
        "lft-context-document-not-utf8",
        "lft",
        _context_document(NOT_UTF8),
        ("ablation_plan.yaml", "context_documents[0].path", "ablation_digest.md", "UTF-8"),
        LFT_MODEL,
        LFT_ROLES,
    ),
    Case(
        "lft-context-document-empty",
        "lft",
        _context_document(b"\n \n"),
        ("ablation_plan.yaml", "context_documents[0].path", "ablation_digest.md", "empty"),
        LFT_MODEL,
        LFT_ROLES,
    ),
]

CONTENT_CASES: list[Case] = [*EQINFER, *PAPER_FOLDERS, *REVIEW_CRITIQUE, *LFT]
