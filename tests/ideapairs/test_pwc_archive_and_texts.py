"""The paper's source (pwc-archive evaluation tables, on a parquet fixture in its schema), the
NLP filter, offline failure in one sentence; clean idea texts and the identity-leak flag."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval as inspect_eval

from research_taste.builders.ideapairs import pwc_archive
from research_taste.builders.ideapairs.builder import build
from research_taste.builders.ideapairs.leaderboards import read_leaderboards
from research_taste.cli import main
from research_taste_evals.core.data import DataError, ResolvedData
from research_taste_evals.ideapairs.ideapairs import idea_pairs


def _rows(prefix: str, count: int, metric: str = "Accuracy") -> list[dict[str, Any]]:
    return [
        {
            "model_name": f"{prefix} model {i}",
            "paper_title": f"{prefix} paper {i}",
            "paper_url": f"https://arxiv.org/abs/19{i % 9 + 1:02d}.{i:05d}",
            "paper_date": f"{2015 + i % 6}-01-01",
            "metrics": {metric: str(90.0 - 3.0 * i)},
        }
        for i in range(count)
    ]


def _dataset(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "dataset": name,
        "description": f"The {name} benchmark.",
        "sota": {"metrics": ["Accuracy"], "rows": rows},
        "subdatasets": [],
    }


def write_fixture(path: Path) -> Path:
    """Three tasks: NLP (with a subtask that inherits NLP), Computer Vision, and one board of a
    single row; the layout of the HF pwc-archive/evaluation-tables parquet shards."""
    tasks = [
        {
            "task": "Question Answering",
            "categories": ["Natural Language Processing"],
            "description": "",
            "datasets": [_dataset("SQuAD", _rows("qa", 12)), _dataset("Tiny", _rows("t", 1))],
            "subtasks": [
                {
                    "task": "Open-Domain QA",
                    "categories": [],
                    "description": "",
                    "datasets": [_dataset("NQ", _rows("odqa", 8))],
                    "subtasks": [],
                }
            ],
        },
        {
            "task": "Image Classification",
            "categories": ["Computer Vision"],
            "description": "",
            "datasets": [_dataset("ImageNet", _rows("img", 10))],
            "subtasks": [],
        },
    ]
    path.mkdir(parents=True, exist_ok=True)
    shard = path / "data" / "train-00000-of-00001.parquet"
    shard.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(tasks), shard)
    return shard


def test_parquet_shard_reads_like_the_json_dump_and_keeps_nlp_only(tmp_path: Path) -> None:
    shard = write_fixture(tmp_path / "snapshot")
    every = {b.name for b in read_leaderboards([shard])}
    assert "Image Classification on ImageNet" in every
    nlp = read_leaderboards([shard], nlp_only=True)
    assert {b.name for b in nlp} == {
        "Question Answering on SQuAD",
        "Question Answering on Tiny",
        "Open-Domain QA on NQ",
    }
    squad = next(b for b in nlp if b.dataset == "SQuAD")
    assert squad.entries[0].cells == {"Accuracy": "90.0"} and squad.entries[0].year == 2015


def test_nlp_filter_needs_categories(tmp_path: Path) -> None:
    shard = tmp_path / "no-categories.parquet"
    pq.write_table(pa.Table.from_pylist([{"task": "QA", "datasets": [], "subtasks": []}]), shard)
    with pytest.raises(DataError, match="no task has a 'categories' field"):
        read_leaderboards([shard], nlp_only=True)


def test_build_from_the_pinned_source_sets_its_counts_beside_the_papers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "snapshot"
    write_fixture(root)
    seen = []

    def cached(pinned: Any, data_path: Any = None, what: str = "") -> ResolvedData:
        seen.append(pinned)
        return ResolvedData(path=root, source=pinned.describe(), revision=pinned.revision)

    monkeypatch.setattr(pwc_archive, "resolve_data", cached)
    report = build([], tmp_path / "pairs.jsonl", extract=False, source="pwc-archive").report
    assert seen == [pwc_archive.PWC_ARCHIVE]
    assert len(pwc_archive.PWC_ARCHIVE.revision) == 40  # a full commit hash
    beside = report["source"]["beside_the_paper"]
    assert beside["nlp_leaderboards_with_2_entries"] == {"ours": 2, "paper": 1918}
    assert beside["pairs"]["paper"] == 11488 and beside["pairs"]["ours"] == report["pairs"] > 0
    assert report["leaderboards_read"] == 3  # ImageNet (Computer Vision) is not read
    assert report["inputs"][0]["sha256"]  # the shard's checksum is recorded


def test_pwc_archive_offline_fails_in_one_sentence_with_the_file_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(DataError) as error:
        pwc_archive.fetch_pwc_archive()
    message = str(error.value)
    assert "--source FILE" in message and "7dd607a42427a2c27fcedc689a7415df58788c50" in message
    assert message.count(". ") == 0 and "\n" not in message
    args = ["--source", "pwc-archive", "--out", str(tmp_path / "p"), "--no-extract"]
    code = main(["ideapairs", "build", *args])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert "--source FILE" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "p").exists()


def test_source_file_applies_the_nlp_filter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shard = write_fixture(tmp_path / "copy")
    out = tmp_path / "pairs.jsonl"
    assert (
        main(["ideapairs", "build", "--source", str(shard), "--out", str(out), "--no-extract"]) == 0
    )
    printed = capsys.readouterr().out
    assert "(paper: 1,918)" in printed and "(paper: 11,488)" in printed
    assert "identity_leak: true" in printed
    assert main(["ideapairs", "build", str(shard), "--source", str(shard), "--out", str(out)]) == 2


def test_extraction_debris_is_stripped(upstream_dir: Path) -> None:
    export = upstream_dir / "sota-extractor" / "data" / "tasks" / "nlp-progress.json"
    methods = [e.method for b in read_leaderboards([export]) for e in b.entries]
    assert "Bi-LSTM att+LEX" in methods
    assert not any("wzxhzdk" in m or "\x02" in m for m in methods)


def test_no_extract_texts_log_identity_leak(tmp_path: Path) -> None:
    shard = write_fixture(tmp_path / "copy")
    pairs = tmp_path / "pairs.jsonl"
    report = build([shard], pairs, extract=False).report
    assert report["extraction"]["identity_leak"] is True
    log = inspect_eval(
        idea_pairs(pairs_file=str(pairs), split="all", bootstrap_resamples=20),
        model="baseline/first",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert log.eval.metadata is not None and log.eval.metadata["identity_leak"] is True
