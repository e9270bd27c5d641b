"""The whole builder: pairs in both orders, split hygiene, the report, extraction and leaks."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessage
from mock_models import scripted_model

from research_taste.builders.ideapairs.builder import build
from research_taste.builders.ideapairs.leaderboards import read_pwc_json
from research_taste.builders.ideapairs.splitting import paper_file_stem, paper_key
from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.demo import demo_leaderboards, write_demo_leaderboards
from research_taste_evals.ideapairs.pairs_schema import read_pairs

MIN_UPSTREAM_LEADERBOARDS = 30


def _accounting(report: dict[str, object]) -> None:
    assert report["kept"] + report["dropped"] == report["entries_read"]  # type: ignore[operator]
    assert 0 < report["kept_in_pairs"] <= report["kept"]  # type: ignore[operator]
    assert sum(report["dropped_by_reason"].values()) == report["dropped"]  # type: ignore[union-attr]
    assert len(report["drops"]) == report["dropped"]  # type: ignore[arg-type]


def test_every_pair_in_both_orders_with_opposite_labels(tmp_path: Path) -> None:
    source = write_demo_leaderboards(tmp_path)
    result = build([source], tmp_path / "pairs.jsonl", tmp_path / "report.json", extract=False)
    records = read_pairs(tmp_path / "pairs.jsonl")  # validates the schema and the mirroring
    assert len(records) == 2 * result.report["pairs"] > 0
    by_pair = defaultdict(dict)
    for record in records:
        by_pair[record.pair_id][record.order] = record
    for orders in by_pair.values():
        original, swapped = orders["original"], orders["swapped"]
        assert (original.label, swapped.label) == ("A", "B")
        assert original.idea_a == swapped.idea_b and original.idea_b == swapped.idea_a
        assert original.idea_a.unified_score > original.idea_b.unified_score
    report = json.loads((tmp_path / "report.json").read_text())
    _accounting(report)
    assert report["dropped"] == 0
    tagging = next(b for b in report["leaderboards"] if "DemoTag" in b["board"])
    assert tagging["inverted"] == ["Error"]
    assert all(r.idea_a.text_source == "method_and_title" for r in records)
    assert all(r.goal_source == "template" for r in records)
    assert "(Demo et al." not in records[0].idea_a.text  # the citation is not in the idea text


def test_no_idea_in_both_train_and_test(tmp_path: Path) -> None:
    boards = demo_leaderboards()
    source = tmp_path / "boards.json"
    source.write_text(json.dumps(boards * 3))  # the same papers on several leaderboards
    build([source], tmp_path / "pairs.jsonl", extract=False, seed=11)
    splits = defaultdict(set)
    for record in read_pairs(tmp_path / "pairs.jsonl"):
        for idea in (record.idea_a, record.idea_b):
            splits[idea.idea_id].add(record.split)
    assert all(len(s) == 1 for s in splits.values())


def test_time_split_holds_out_newer_ideas(tmp_path: Path) -> None:
    source = write_demo_leaderboards(tmp_path)
    build([source], tmp_path / "pairs.jsonl", extract=False, test_after=2019)
    for record in read_pairs(tmp_path / "pairs.jsonl"):
        newest = max(record.idea_a.year, record.idea_b.year)
        assert (record.split == "test") == (newest > 2019)
        if record.split == "test":
            assert min(record.idea_a.year, record.idea_b.year) > 2019


def test_bad_leaderboard_names_file_and_field_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            [
                {
                    "task": "T",
                    "datasets": [
                        {"dataset": "D", "sota": {"rows": [{"model_name": "m", "metrics": [1, 2]}]}}
                    ],
                }
            ]
        )
    )
    with pytest.raises(
        DataError, match=r"bad\.json: tasks\[0\]\.datasets\[0\]\.sota\.rows\[0\]\.metrics"
    ):
        build([bad], tmp_path / "pairs.jsonl", extract=False)
    assert not (tmp_path / "pairs.jsonl").exists()
    with pytest.raises(DataError, match="does not exist"):
        build([tmp_path / "missing.json"], tmp_path / "pairs.jsonl", extract=False)
    with pytest.raises(ValueError, match="extractor"):
        build([bad], tmp_path / "pairs.jsonl")


def test_extraction_withholds_leaking_texts(tmp_path: Path) -> None:
    source = write_demo_leaderboards(tmp_path)
    papers = tmp_path / "papers"
    papers.mkdir()
    for board in read_pwc_json(source):
        for entry in board.entries:
            stem = paper_file_stem(paper_key(entry))
            (papers / f"{stem}.md").write_text(f"Full text of {entry.paper_title}.")

    def respond(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        if "<description>" in prompt:
            return "<goal>Label tokens or rank passages as well as possible.</goal>"
        if "Contrastive pretraining" in prompt:
            return "<idea>The proposed method reaches 93.1 accuracy.</idea>"  # leaks a result
        if "Lattice" in prompt:
            return "no tags at all"
        return "<idea>The proposed method encodes inputs with a learned representation.</idea>"

    result = build(
        [source],
        tmp_path / "pairs.jsonl",
        tmp_path / "report.json",
        extractor=scripted_model(respond),
        paper_texts=papers,
        log_dir=str(tmp_path / "logs"),
    )
    extraction = result.report["extraction"]
    assert [w["leaks"] for w in extraction["withheld_for_leaks"]] == [["number 93.1"]]
    assert len(extraction["failed"]) == 1
    records = read_pairs(tmp_path / "pairs.jsonl")
    texts = {(i.method, i.text_source, i.text) for r in records for i in (r.idea_a, r.idea_b)}
    for method, text_source, text in texts:
        if method.startswith(("Contrastive", "Lattice")):
            assert text_source == "method_and_title" and "93.1" not in text
        else:
            assert text_source == "extracted"
    assert {r.goal_source for r in records} == {"extracted"}


def test_upstream_nlp_progress_json_gives_pairs_from_30_leaderboards(
    upstream_dir: Path, tmp_path: Path
) -> None:
    source = upstream_dir / "sota-extractor" / "data" / "tasks" / "nlp-progress.json"
    if not source.is_file():
        pytest.skip(f"{source} not found")
    result = build([source], tmp_path / "pairs.jsonl", tmp_path / "report.json", extract=False)
    report = result.report
    _accounting(report)
    assert report["entries_read"] == 559  # the PROVENANCE count of rows
    assert report["leaderboards_with_pairs"] >= MIN_UPSTREAM_LEADERBOARDS
    assert len(read_pairs(tmp_path / "pairs.jsonl")) == report["records"]


def test_extraction_without_paper_texts_lists_the_files_it_looked_for(tmp_path: Path) -> None:
    source = write_demo_leaderboards(tmp_path)

    def respond(messages: list[ChatMessage]) -> str:
        return (
            "<goal>Rank well.</goal>" if "<description>" in messages[-1].text else "<idea>x</idea>"
        )

    result = build(
        [source],
        tmp_path / "pairs.jsonl",
        extractor=scripted_model(respond),
        log_dir=str(tmp_path / "logs"),
    )
    missing = result.report["extraction"]["ideas_without_paper_text"]
    assert missing and all(set(item) == {"paper_file", "method"} for item in missing)
    records = read_pairs(tmp_path / "pairs.jsonl")
    assert {r.idea_a.text_source for r in records} == {"method_and_title"}
    # the extracted goal, plus the deciding metric on the board with two metrics
    assert {r.goal for r in records} == {
        "Rank well.",
        "Rank well. The leaderboard ranks entries by Accuracy.",
    }
