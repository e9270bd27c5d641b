"""The bad-input corpus: one broken copy of a valid demo input per case, and what it must say.

Each case starts from the data the project's demo writes (valid by construction), breaks one
thing, and names the task run on it and the fragments the error must contain: the file, the
record or path inside it, and the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bad_input_case import NOT_UTF8, Case
from bad_input_corpus_setup import EMPTY_FILE_CASES
from bad_input_corpus_tables import LFT, TASTYBENCH

from research_taste_evals.aaar.demo import (
    write_demo_eqinfer,
    write_demo_expdesign,
    write_demo_weakness,
)
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique

# ---------------------------------------------------------------- eqinfer (one JSON list)


def _eqinfer(edit: Callable[[list[dict[str, Any]]], Any] | bytes) -> Callable[[Path], dict]:
    def build(tmp: Path) -> dict[str, Any]:
        path = write_demo_eqinfer(tmp / "eq")
        if isinstance(edit, bytes):
            path.write_bytes(edit)
        else:
            records = json.loads(path.read_text())
            path.write_text(json.dumps(edit(records)))
        return {"data_path": str(path)}

    return build


def _set(records: list[dict[str, Any]], index: int, key: str, value: Any) -> list[dict]:
    records[index][key] = value
    return records


def _drop(records: list[dict[str, Any]], index: int, key: str) -> list[dict[str, Any]]:
    del records[index][key]
    return records


EQINFER = [
    Case("eqinfer-not-utf8", "eqinfer", _eqinfer(NOT_UTF8), ("equation.demo.json", "UTF-8")),
    Case(
        "eqinfer-bad-json",
        "eqinfer",
        _eqinfer(b'[{"context_before": '),
        ("equation.demo.json", "invalid JSON at line 1"),
    ),
    Case(
        "eqinfer-empty-list",
        "eqinfer",
        _eqinfer(lambda r: []),
        ("equation.demo.json", "no records"),
    ),
    Case(
        "eqinfer-not-a-list",
        "eqinfer",
        _eqinfer(lambda r: r[0]),
        ("equation.demo.json", "expected a JSON list"),
    ),
    Case(
        "eqinfer-missing-answer",
        "eqinfer",
        _eqinfer(lambda r: _drop(r, 1, "answer")),
        ("equation.demo.json", "record 1", "'answer'"),
    ),
    Case(
        "eqinfer-three-options",
        "eqinfer",
        _eqinfer(lambda r: _set(r, 0, "options_list", ["a", "b", "c"])),
        ("equation.demo.json", "record 0", "'options_list'"),
    ),
    Case(
        "eqinfer-answer-letter",
        "eqinfer",
        _eqinfer(lambda r: _set(r, 2, "answer", "E")),
        ("equation.demo.json", "record 2", "'answer'"),
    ),
    Case(
        "eqinfer-no-such-path",
        "eqinfer",
        lambda tmp: {"data_path": str(tmp / "absent.json")},
        ("absent.json", "data_path does not exist"),
    ),
]


# ------------------------------------------- expdesign / paper_weakness (per-paper folders)

EXPDESIGN_ARGS = {"embedding_model": "offline-minilm"}
WEAKNESS_ARGS = {"embedding_model": "offline-minilm", "itf_idf_model": "offline-minilm"}
GRADER = {"grader": "baseline/word-overlap-judge"}


def _papers(
    writer: Callable[[Path], Path], glob: str, edit: Callable[[Path], None], extra: dict
) -> Callable[[Path], dict[str, Any]]:
    def build(tmp: Path) -> dict[str, Any]:
        root = writer(tmp / "papers")
        edit(sorted(root.glob(glob))[0])
        return {"data_path": str(root), **extra}

    return build


def _edit_json(edit: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def apply(path: Path) -> None:
        record = json.loads(path.read_text())
        edit(record)
        path.write_text(json.dumps(record))

    return apply


def _remove_record(path: Path) -> None:
    path.unlink()


def _same_id_as_next(path: Path) -> None:
    other = sorted(path.parent.parent.glob("*/data_text.json"))[1]
    record = json.loads(path.read_text())
    key = "id" if "id" in record else "ID"
    record[key] = json.loads(other.read_text())[key]
    path.write_text(json.dumps(record))


def _short_explanations(record: dict[str, Any]) -> None:
    record["output"]["Why do you suggest these experiments?"].pop()


def _expdesign(edit: Callable[[Path], None]) -> Callable[[Path], dict[str, Any]]:
    return _papers(write_demo_expdesign, "Experiment_Design/*/data_text.json", edit, EXPDESIGN_ARGS)


def _weakness(edit: Callable[[Path], None]) -> Callable[[Path], dict[str, Any]]:
    glob = "Paper_Weakness/ICLR_2023/*/data_text.json"
    return _papers(write_demo_weakness, glob, edit, WEAKNESS_ARGS)


PAPER_FOLDERS = [
    Case(
        "expdesign-folder-without-record",
        "expdesign",
        _expdesign(_remove_record),
        ("demo.0001", "paper folder has no data_text.json", "1 of 3 folders"),
        model_roles=GRADER,
    ),
    Case(
        "expdesign-explanations-shorter",
        "expdesign",
        _expdesign(_edit_json(_short_explanations)),
        ("demo.0001/data_text.json", "record 0", "'output'", "experiments but", "explanations"),
        model_roles=GRADER,
    ),
    Case(
        "expdesign-not-utf8",
        "expdesign",
        _expdesign(lambda path: path.write_bytes(NOT_UTF8)),
        ("demo.0001/data_text.json", "UTF-8"),
        model_roles=GRADER,
    ),
    Case(
        "expdesign-duplicate-id",
        "expdesign",
        _expdesign(_same_id_as_next),
        (
            "demo.0001/data_text.json",
            "paper id 'demo.0002' appears in two records",
            "demo.0002/data_text.json",
        ),
        model_roles=GRADER,
    ),
    Case(
        "expdesign-missing-id",
        "expdesign",
        _expdesign(_edit_json(lambda record: record.pop("id"))),
        ("demo.0001/data_text.json", "record 0", "field 'id'"),
        model_roles=GRADER,
    ),
    Case(
        "weakness-folder-without-record",
        "paper_weakness",
        _weakness(_remove_record),
        ("demo_w01", "paper folder has no data_text.json"),
    ),
    Case(
        "weakness-no-reviewers",
        "paper_weakness",
        _weakness(_edit_json(lambda record: record.update(output=[]))),
        ("demo_w01/data_text.json", "record 0", "field 'output'"),
    ),
    Case(
        "weakness-missing-input",
        "paper_weakness",
        _weakness(_edit_json(lambda record: record.pop("input"))),
        ("demo_w01/data_text.json", "record 0", "field 'input'"),
    ),
]


# ------------------------------------------------ review_critique (JSONL, two layouts)

RC_MODEL = "baseline/flag-all"
RC_ARGS = {"bertscore_model": "offline-minilm"}


def _review_jsonl(edit: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | bytes) -> Callable:
    def build(tmp: Path) -> dict[str, Any]:
        path = write_demo_reviewcritique(tmp / "rc")
        if isinstance(edit, bytes):
            path.write_bytes(edit)
        else:
            papers = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            path.write_text("".join(json.dumps(paper) + "\n" for paper in edit(papers)))
        return {"data_path": str(path), **RC_ARGS}

    return build


def _derived_layout(papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The third-party layout (``paper_text`` + ``reviews`` list), one review broken."""
    derived = []
    for paper in papers:
        reviews = [
            value for value in paper.values() if isinstance(value, dict) and "review" in value
        ]
        derived.append(
            {"title": paper["title"], "paper_text": paper["body_text"], "reviews": reviews}
        )
    derived[1]["reviews"][0]["review"][0].pop("reliability")
    return derived


def _upstream_no_reviews(papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    papers[0] = {"title": papers[0]["title"], "body_text": papers[0]["body_text"]}
    return papers


def _upstream_no_text(papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    papers[1].pop("body_text")
    return papers


REVIEW_CRITIQUE = [
    Case(
        "review-critique-not-utf8",
        "review_critique",
        _review_jsonl(NOT_UTF8),
        ("reviewcritique_demo.jsonl", "line 1", "UTF-8"),
        RC_MODEL,
    ),
    Case(
        "review-critique-bad-json-line",
        "review_critique",
        _review_jsonl(b'{"title": "x"}\n{"title": \n'),
        ("reviewcritique_demo.jsonl", "line 2", "invalid JSON"),
        RC_MODEL,
    ),
    Case(
        "review-critique-upstream-no-reviews",
        "review_critique",
        _review_jsonl(_upstream_no_reviews),
        ("reviewcritique_demo.jsonl", "paper 1", "no reviews"),
        RC_MODEL,
    ),
    Case(
        "review-critique-upstream-no-paper-text",
        "review_critique",
        _review_jsonl(_upstream_no_text),
        ("reviewcritique_demo.jsonl", "paper 2", "field 'body_text'"),
        RC_MODEL,
    ),
    Case(
        "review-critique-derived-segment-field",
        "review_critique",
        _review_jsonl(_derived_layout),
        ("reviewcritique_demo.jsonl", "paper 2", "review 'review#1'", "reliability"),
        RC_MODEL,
    ),
]


TASK_CASES: list[Case] = [
    *EQINFER,
    *PAPER_FOLDERS,
    *TASTYBENCH,
    *REVIEW_CRITIQUE,
    *LFT,
    *EMPTY_FILE_CASES,
]
