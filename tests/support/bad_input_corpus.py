"""The bad-input corpus: one broken copy of a valid demo input per case, and what it must say.

Each case starts from the data the project's demo writes (valid by construction), breaks one
thing, and names the task run on it and the fragments the error must contain: the file, the
record or path inside it, and the field.
"""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste_evals.aaar.demo import (
    write_demo_eqinfer,
    write_demo_expdesign,
    write_demo_weakness,
)
from research_taste_evals.lft.rubric import DEFAULT_RUBRIC_DIR
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique
from research_taste_evals.tastybench.demo import write_demo_tastybench

NOT_UTF8 = b"\xff\xfe not utf-8 \xc3\x28"
TB_DATA = "model-elicitation/data"
TB_PAPERS = "llm_rl_yix_curate.csv"
TB_IDEAS = "llm_rl_yix_curate_with_ideas.csv"


@dataclass(frozen=True)
class Case:
    """A broken input: ``build(tmp)`` writes it and returns the task arguments to run it with."""

    name: str
    task: str
    build: Callable[[Path], dict[str, Any]]
    expected: tuple[str, ...]
    model: str = "baseline/all-positive"
    model_roles: dict[str, str] = field(default_factory=dict)


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


# ------------------------------------------------ tastybench (papers, ideas, pairs CSVs)

TB_MODEL = "baseline/tastybench-longer"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _write_rows(path: Path, rows: list[dict[str, str]], header: list[str] | None = None) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header or list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _tasty(
    file: str, edit: Callable[[Path], None], extra: Callable[[Path], dict] | None = None
) -> Callable[[Path], dict[str, Any]]:
    def build(tmp: Path) -> dict[str, Any]:
        root = write_demo_tastybench(tmp / "tb")
        edit(root / TB_DATA / file)
        return {"data_path": str(root), **(extra(root) if extra else {})}

    return build


def _header_only(path: Path) -> None:
    _write_rows(path, [], header=list(_rows(path)[0]))


def _repeat_paper(path: Path) -> None:
    rows = _rows(path)
    rows[2]["paperId"] = rows[0]["paperId"]
    _write_rows(path, rows)


def _bad_counts(path: Path) -> None:
    rows = _rows(path)
    rows[1]["citation_counts"] = "[1, 2,"
    _write_rows(path, rows)


def _ideas_copy(root: Path, edit: Callable[[list[dict[str, str]]], list[dict[str, str]]]) -> dict:
    rows = edit(_rows(root / TB_DATA / TB_IDEAS))
    target = root / "mine.csv"
    _write_rows(target, rows)
    return {"representations_path": str(target)}


def _without_idea(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    return [{k: v for k, v in row.items() if k != "idea"} for row in rows]


def _repeat_idea(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    rows[1]["paper_id"] = rows[0]["paper_id"]
    return rows


def _pairs(text: str) -> Callable[[Path], dict[str, Any]]:
    def extra(root: Path) -> dict[str, Any]:
        path = root / "pairs.csv"
        path.write_text(text, encoding="utf-8")
        return {"schedule": "file", "pairs_file": str(path)}

    return extra


def _nothing(path: Path) -> None:
    return None


TASTYBENCH = [
    Case(
        "tastybench-papers-header-only",
        "tastybench",
        _tasty(TB_PAPERS, _header_only),
        (TB_PAPERS, "no records"),
        TB_MODEL,
    ),
    Case(
        "tastybench-duplicate-paper-id",
        "tastybench",
        _tasty(TB_PAPERS, _repeat_paper),
        (TB_PAPERS, "record 2", "field 'paperId'", "repeats record 0"),
        TB_MODEL,
    ),
    Case(
        "tastybench-citation-counts-not-json",
        "tastybench",
        _tasty(TB_PAPERS, _bad_counts),
        (TB_PAPERS, "record 1", "field 'citation_counts'"),
        TB_MODEL,
    ),
    Case(
        "tastybench-papers-not-utf8",
        "tastybench",
        _tasty(TB_PAPERS, lambda path: path.write_bytes(NOT_UTF8)),
        (TB_PAPERS, "cannot read CSV"),
        TB_MODEL,
    ),
    Case(
        "tastybench-ideas-header-only",
        "tastybench",
        _tasty(TB_IDEAS, _header_only),
        (TB_IDEAS, "no records"),
        TB_MODEL,
    ),
    Case(
        "tastybench-representations-path-missing",
        "tastybench",
        _tasty(TB_PAPERS, _nothing, lambda root: {"representations_path": str(root / "no.csv")}),
        ("no.csv", "representations_path does not exist"),
        TB_MODEL,
    ),
    Case(
        "tastybench-representations-no-idea-column",
        "tastybench",
        _tasty(TB_PAPERS, _nothing, lambda root: _ideas_copy(root, _without_idea)),
        ("mine.csv", "no 'idea' column"),
        TB_MODEL,
    ),
    Case(
        "tastybench-representations-repeated-paper",
        "tastybench",
        _tasty(TB_PAPERS, _nothing, lambda root: _ideas_copy(root, _repeat_idea)),
        ("mine.csv", "record 1", "field 'paper_id'", "repeated"),
        TB_MODEL,
    ),
    Case(
        "tastybench-pairs-unknown-paper",
        "tastybench",
        _tasty(TB_PAPERS, _nothing, _pairs("paper_1,paper_2\nnot-a-paper,also-not\n")),
        ("pairs.csv", "row 1", "field 'paper_1'", "not-a-paper"),
        TB_MODEL,
    ),
    Case(
        "tastybench-pairs-wrong-header",
        "tastybench",
        _tasty(TB_PAPERS, _nothing, _pairs("a,b\nx,y\n")),
        ("pairs.csv", "expected columns paper_1,paper_2"),
        TB_MODEL,
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


# ------------------------------------------------------------------- lft (rubric YAML)

LFT_MODEL = "baseline/lft-generic-protocol"
LFT_ROLES = {"grader": "baseline/lft-grader"}


def _rubric(edit: Callable[[str], str | bytes], name: str = "broken.yaml") -> Callable:
    def build(tmp: Path) -> dict[str, Any]:
        root = tmp / "rubrics"
        shutil.copytree(DEFAULT_RUBRIC_DIR, root)
        source = root / "ablation_plan.yaml"
        text = edit(source.read_text(encoding="utf-8"))
        source.unlink()
        target = root / name
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
        return {"rubric_dir": str(root)}

    return build


def _drop_line(prefix: str) -> Callable[[str], str]:
    return lambda text: "\n".join(line for line in text.splitlines() if not line.startswith(prefix))


LFT = [
    Case(
        "lft-rubric-not-utf8",
        "lft",
        _rubric(lambda text: NOT_UTF8),
        ("broken.yaml", "cannot read rubric"),
        LFT_MODEL,
        LFT_ROLES,
    ),
    Case(
        "lft-rubric-bad-yaml",
        "lft",
        _rubric(lambda text: text + "\n  : - [unclosed\n"),
        ("broken.yaml", "invalid YAML at line"),
        LFT_MODEL,
        LFT_ROLES,
    ),
    Case(
        "lft-rubric-not-a-mapping",
        "lft",
        _rubric(lambda text: "- just\n- a list\n"),
        ("broken.yaml", "expected a mapping"),
        LFT_MODEL,
        LFT_ROLES,
    ),
    Case(
        "lft-rubric-missing-prompt",
        "lft",
        _rubric(lambda text: text.replace("prompt: |", "prompts: |", 1)),
        ("broken.yaml", "prompt"),
        LFT_MODEL,
        LFT_ROLES,
    ),
    Case(
        "lft-rubric-context-document-missing",
        "lft",
        _rubric(lambda text: text.replace("context/ablation_digest.md", "context/absent.md")),
        ("broken.yaml", "context_documents[0].path", "absent.md"),
        LFT_MODEL,
        LFT_ROLES,
    ),
    Case(
        "lft-rubric-task-id-twice",
        "lft",
        _rubric(lambda text: text.replace("task_id: ablation-plan", "task_id: petunia-plastid")),
        ("broken.yaml", "task_id", "'petunia-plastid' is already used"),
        LFT_MODEL,
        LFT_ROLES,
    ),
]

TASK_CASES: list[Case] = [*EQINFER, *PAPER_FOLDERS, *TASTYBENCH, *REVIEW_CRITIQUE, *LFT]
