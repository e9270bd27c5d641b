"""Leaderboard readers: PapersWithCode evaluation tables (JSON) and NLP-progress markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research_taste.builders.ideapairs.boards import find_year, parse_cell
from research_taste.builders.ideapairs.leaderboards import (
    read_leaderboards,
    read_nlp_progress_markdown,
    read_pwc_json,
)
from research_taste_evals.core.data import DataError

MARKDOWN = """# Common sense

Intro text.

### SWAG

Situations with Adversarial Generations.

| Model           | Dev  | Test  |  Paper / Source | Code |
| ------------- | :-----:| :-----:|--- | --- |
| BERT Large (Devlin et al., 2018) | 86.6 | 86.3 | [BERT](https://arxiv.org/abs/1810.04805) | |
| ESIM (Zellers et al., 2018) | 59.1 | \ufeff59 | [SWAG](http://arxiv.org/abs/1808.05326) | [C](x) |
| Old system | - | 40.0 | [Old](https://aclweb.org/anthology/P17-1001) | |

| Not | a leaderboard |
| --- | --- |
| x | y |
"""


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        (86.6, ("ok", 86.6)),
        ("90.871", ("ok", 90.871)),
        ("\ufeff39.6", ("ok", 39.6)),
        ("85.3%", ("ok", 85.3)),
        ("71.2*", ("ok", 71.2)),
        ("1,024", ("ok", 1024.0)),
        ("70.1 ± 0.3", ("ok", 70.1)),
        ("-", ("missing", None)),
        ("", ("missing", None)),
        (None, ("missing", None)),
        ("90.1/85.3", ("unparseable", None)),
        (True, ("unparseable", None)),
    ],
)
def test_parse_cell(raw: object, parsed: tuple[str, float | None]) -> None:
    assert parse_cell(raw) == parsed


def test_find_year_sources_in_order() -> None:
    assert find_year("m (2017)", "", "2019-01-02") == (2019, "paper_date")
    assert find_year("BERT (Devlin et al., 2018)", "https://arxiv.org/abs/1911.00001", None) == (
        2018,
        "model_name",
    )
    assert find_year("BERT", "https://arxiv.org/abs/1810.04805", None) == (2018, "arxiv_id")
    assert find_year("x", "http://aclweb.org/anthology/P17-1001", None) == (2017, "acl_id")
    assert find_year("x", "https://aclanthology.org/2020.acl-main.1/", None) == (2020, "acl_id")
    assert find_year("Prange et al. (2021), constructive", "", None) == (2021, "model_name")
    assert find_year("Deep Learning(Fasihul et al. 2016)", "", None) == (2016, "model_name")
    assert find_year("x", "https://example.org", None) == (None, "none")


def test_markdown_reader(tmp_path: Path) -> None:
    path = tmp_path / "common_sense.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    boards = read_nlp_progress_markdown(path)
    assert len(boards) == 1  # the table without a paper column is not a leaderboard
    board = boards[0]
    assert board.name == "Common sense on SWAG"
    assert "Adversarial" in board.description
    assert [e.method for e in board.entries] == [
        "BERT Large (Devlin et al., 2018)",
        "ESIM (Zellers et al., 2018)",
        "Old system",
    ]
    assert board.entries[0].paper_title == "BERT"
    assert board.entries[0].cells == {"Dev": "86.6", "Test": "86.3"}
    assert board.entries[2].year == 2017
    assert board.columns == ["Dev", "Test"]


def test_pwc_reader_walks_subtasks_and_subdatasets(tmp_path: Path) -> None:
    row = {"model_name": "m (2019)", "paper_title": "t", "paper_url": "", "metrics": {"Acc": 1}}
    tasks = [
        {
            "task": "Parent",
            "datasets": [
                {
                    "dataset": "D",
                    "sota": {"rows": [row]},
                    "subdatasets": [{"subdataset": "Sub", "sota": {"rows": [row, row]}}],
                }
            ],
            "subtasks": [
                {"task": "Child", "datasets": [{"dataset": "E", "sota": {"rows": [row]}}]}
            ],
        }
    ]
    path = tmp_path / "tables.json"
    path.write_text(json.dumps(tasks))
    boards = read_pwc_json(path)
    assert [(b.name, len(b.entries)) for b in boards] == [
        ("Parent on D", 1),
        ("Parent on D - Sub", 2),
        ("Child on E", 1),
    ]
    assert len({b.board_id for b in boards}) == 3


def test_reader_errors_name_the_file_and_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"task": "not a list"}))
    with pytest.raises(DataError, match="bad.json: tasks: expected a list"):
        read_pwc_json(path)
    other = tmp_path / "notes.csv"
    other.write_text("x")
    with pytest.raises(DataError, match="notes.csv: expected a .json"):
        read_leaderboards([other])


def test_upstream_files_read_with_provenance_counts(upstream_dir: Path) -> None:
    json_path = upstream_dir / "sota-extractor" / "data" / "tasks" / "nlp-progress.json"
    markdown = upstream_dir / "nlp-progress"
    if not json_path.is_file() or not markdown.is_dir():
        pytest.skip("sota-extractor / nlp-progress copies not found")
    boards = read_pwc_json(json_path)
    # PROVENANCE.md: 91 boards with rows, 559 rows.
    assert (len(boards), sum(len(b.entries) for b in boards)) == (91, 559)
    swag = next(b for b in boards if b.name == "Common Sense on SWAG")
    assert swag.entries[1].cells["Test"] == "-"
    md_boards = read_leaderboards([markdown])
    # PROVENANCE.md: 142 leaderboards with >= 4 entries (heuristic parse; ours agrees closely).
    assert abs(sum(len(b.entries) >= 4 for b in md_boards) - 142) <= 5
