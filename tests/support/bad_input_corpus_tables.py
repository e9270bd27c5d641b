"""Bad-input cases for the table and YAML inputs: TastyBench CSVs and LFT rubrics."""

from __future__ import annotations

import csv
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bad_input_case import NOT_UTF8, Case

from research_taste_evals.lft.rubric import DEFAULT_RUBRIC_DIR
from research_taste_evals.tastybench.demo import write_demo_tastybench

TB_DATA = "model-elicitation/data"
TB_PAPERS = "llm_rl_yix_curate.csv"
TB_IDEAS = "llm_rl_yix_curate_with_ideas.csv"


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
