"""Bad-input cases beyond malformed records: empty files, a value out of range, a missing model
folder, a grader panel that cannot reach its quorum, a task with no grader. Each ends in one
sentence naming the file or the argument and the fix (issue 31)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bad_input_case import Case
from bad_input_corpus_tables import TB_DATA, TB_IDEAS, TB_MODEL

from research_taste_evals.ideapairs.demo import write_demo_pairs
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique
from research_taste_evals.tastybench.demo import write_demo_tastybench

RC_ARGS = {"bertscore_model": "offline-minilm"}


def _review_file(text: str) -> Callable[[Path], dict[str, Any]]:
    def build(tmp: Path) -> dict[str, Any]:
        tmp.mkdir(parents=True, exist_ok=True)
        path = tmp / "reviews.jsonl"
        path.write_text(text, encoding="utf-8")
        return {"data_path": str(path), **RC_ARGS}

    return build


def _empty_ideas(tmp: Path) -> dict[str, Any]:
    root = write_demo_tastybench(tmp / "tb")
    (root / TB_DATA / TB_IDEAS).write_text("", encoding="utf-8")
    return {"data_path": str(root)}


def _missing_bertscore_folder(tmp: Path) -> dict[str, Any]:
    path = write_demo_reviewcritique(tmp / "rc")
    return {"data_path": str(path), "bertscore_model": str(tmp / "no-such-model")}


def _pairs(**args: Any) -> Callable[[Path], dict[str, Any]]:
    return lambda tmp: {"pairs_file": str(write_demo_pairs(tmp / "pairs")), **args}


# Data errors (DataError): also run by test_bad_inputs.py.
EMPTY_FILE_CASES = [
    Case(
        "review-critique-empty-file",
        "review_critique",
        _review_file(""),
        ("reviews.jsonl", "no papers with reviews", "empty"),
        "baseline/flag-all",
    ),
    Case(
        "review-critique-blank-lines-only",
        "review_critique",
        _review_file("\n   \n\n"),
        ("reviews.jsonl", "no papers with reviews", "blank lines"),
        "baseline/flag-all",
    ),
    Case(
        "tastybench-ideas-file-empty",
        "tastybench",
        _empty_ideas,
        (TB_IDEAS, "no records"),
        TB_MODEL,
    ),
]

# Set-up errors (ConfigError, RoleError: user errors that are not about a data file).
SETUP_CASES = [
    Case(
        "idea-pairs-tier-4",
        "idea_pairs",
        _pairs(tiers=4),
        ("argument 'tiers' got 4", "1, 2, 3", "-T tiers=1,2"),
        "baseline/longer",
    ),
    Case(
        "review-critique-missing-bertscore-folder",
        "review_critique",
        _missing_bertscore_folder,
        ("-T bertscore_model=", "no-such-model", "no such folder", "offline-minilm"),
        "baseline/flag-all",
    ),
    Case(
        "lft-quorum-above-the-panel",
        "lft",
        lambda tmp: {"quorum": 99, "task_ids": "petunia-plastid"},
        ("-T quorum=99", "outside 1..10", "grader_repeats=10"),
        "baseline/lft-generic-protocol",
        {"grader": "baseline/lft-grader"},
    ),
    Case(
        "lft-without-a-grader",
        "lft",
        lambda tmp: {"task_ids": "petunia-plastid"},
        ("'grader' model role", "--model-role grader="),
        "baseline/lft-generic-protocol",
    ),
]
