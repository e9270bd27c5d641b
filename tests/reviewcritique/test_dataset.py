from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from research_taste_evals.core.data import DataError, PinnedFile, git_blob_id
from research_taste_evals.reviewcritique import dataset
from research_taste_evals.reviewcritique.dataset import (
    count_segments,
    load_reviewcritique,
    load_reviews,
    normalise_error_type,
    record_to_sample,
    reviewcritique_dataset,
)
from research_taste_evals.reviewcritique.demo import demo_records, write_demo_reviewcritique
from research_taste_evals.reviewcritique.records import ReviewRecord, flatten_reviews

LLM_FILE = Path("reviewcritique/data/ReviewCritique_LLM.jsonl")
DERIVED_DIR = Path("reviewcritique/derived_partial_keene-ng")


def _independent_count(files: list[Path]) -> dict[str, int]:
    """Count the derived files with plain json, papers united by title (written for the test)."""
    papers: dict[str, Any] = {}
    for file in files:
        for line in file.read_text().splitlines():
            record = json.loads(line)
            papers.setdefault(record["title"], record)
    reviews = [review for paper in papers.values() for review in paper["reviews"]]
    segments = [segment for review in reviews for segment in review["review"]]
    return {
        "papers": len(papers),
        "reviews": len(reviews),
        "segments": len(segments),
        "deficient_segments": sum(1 for s in segments if s["reliability"] == "No"),
    }


@pytest.mark.upstream
def test_upstream_llm_file_counts(upstream_dir: Path) -> None:
    reviews, resolved, duplicates = load_reviewcritique("llm", str(upstream_dir / LLM_FILE))
    assert count_segments(reviews) == {
        "papers": 20,
        "reviews": 60,
        "segments": 1610,
        "deficient_segments": 226,
    }
    assert duplicates == 0
    assert {r.reviewer for r in reviews} == {"claude_opus", "gpt4", "gemini_pro_1.5"}
    # The pinned digests are those of the shared copy.
    assert git_blob_id(resolved.path) == dataset.PINNED_FILES["llm"].git_blob


@pytest.mark.upstream
def test_derived_human_subset_reads_every_paper_and_segment(upstream_dir: Path) -> None:
    folder = upstream_dir / DERIVED_DIR
    files = sorted(folder.glob("*.jsonl"))
    reviews, _, duplicates = load_reviewcritique("human", str(folder))
    counted = _independent_count(files)
    assert count_segments(reviews) == counted
    # The README of the derived copy states the same union.
    assert counted == {"papers": 36, "reviews": 135, "segments": 3846, "deficient_segments": 234}
    # Papers drawn twice across the four files are read once: every review line beyond the
    # union is a dropped duplicate.
    all_reviews = sum(
        len(json.loads(line)["reviews"]) for f in files for line in f.read_text().splitlines()
    )
    assert duplicates == all_reviews - counted["reviews"] == 14
    # One file alone: every line and every review.
    one, _ = load_reviews(folder / "dev_split.a1a20fb.jsonl")
    assert count_segments(one) == _independent_count([folder / "dev_split.a1a20fb.jsonl"])


@pytest.mark.upstream
def test_real_record_to_sample(upstream_dir: Path) -> None:
    reviews, _ = load_reviews(upstream_dir / LLM_FILE)
    sample = record_to_sample(reviews[0], paper_words=50)
    metadata = sample.metadata or {}
    segments = metadata["segments"]
    assert len(segments) == len(reviews[0].segments)
    assert metadata["paper_truncated"] is True and metadata["paper_words_kept"] == 50
    assert metadata["paper_words_total"] == len(reviews[0].paper_text.split())
    assert isinstance(sample.input, str) and f"[{len(segments)}] " in sample.input
    assert sample.target == ",".join(str(s["id"]) for s in segments if s["deficient"])
    assert "NON-AI" in metadata["license"]


def test_demo_file_round_trips_with_bare_nan(tmp_path: Path) -> None:
    path = write_demo_reviewcritique(tmp_path)
    assert "NaN" in path.read_text()
    reviews, _ = load_reviews(path)
    assert count_segments(reviews) == {
        "papers": 3,
        "reviews": 5,
        "segments": 17,
        "deficient_segments": 6,
    }
    samples = reviewcritique_dataset(reviews, paper_words=10_000, name="demo")
    first = samples[0].metadata or {}
    assert first["paper_truncated"] is False
    assert [s["error_type"] for s in first["segments"] if s["deficient"]] == [
        "Neglect",
        "Vague Critique",
    ]
    assert all(s["error_type"] is None for s in first["segments"] if not s["deficient"])


def test_derived_layout_and_sample_ids_from_content(tmp_path: Path) -> None:
    upstream = demo_records()[0]
    derived = {
        "title": upstream["title"],
        "decision": upstream["decision"],
        "paper_text": upstream["body_text"],
        "reviews": [upstream["review#1"], upstream["review#2"]],
    }
    (tmp_path / "a.jsonl").write_text(json.dumps(upstream) + "\n")
    (tmp_path / "b.jsonl").write_text(json.dumps(derived) + "\n")
    from_upstream, _ = load_reviews(tmp_path / "a.jsonl")
    from_derived, _ = load_reviews(tmp_path / "b.jsonl")
    assert [r.reviewer for r in from_derived] == ["review#1", "review#2"]
    ids_a = [record_to_sample(r, 100).id for r in from_upstream]
    ids_b = [record_to_sample(r, 100).id for r in from_derived]
    assert ids_a == ids_b and len(set(ids_a)) == 2
    both, duplicates = load_reviews(tmp_path)  # a folder: both files, repeats dropped
    assert len(both) == 2 and duplicates == 2


def test_numbers_as_segment_text_and_error_type_variants() -> None:
    record = demo_records()[2]
    record["review#1"]["review"][0]["segment_text"] = 4.1
    record["review#1"]["review"][1]["segment_text"] = 2019
    raw = flatten_reviews(record, "x")
    validated = ReviewRecord.model_validate(raw[0])
    assert [s.segment_text for s in validated.segments[:2]] == ["4.1", "2019"]
    assert normalise_error_type("out-of-scope") == normalise_error_type("Out-of-scope ")
    assert normalise_error_type(None) == "Unspecified"


def test_bad_record_names_file_paper_and_field(tmp_path: Path) -> None:
    records = demo_records()
    records[1]["review#1"]["review"][2]["reliability"] = "Maybe"
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(DataError) as error:
        load_reviews(path)
    message = str(error.value)
    assert "bad.jsonl" in message and "paper 2" in message
    assert "review 'review#1'" in message and "segments[2].reliability" in message
    records = demo_records()
    del records[0]["body_text"]
    path.write_text(json.dumps(records[0]) + "\n")
    with pytest.raises(DataError, match="paper 1: field 'body_text'"):
        load_reviews(path)


def test_pinned_download_checks_the_git_blob(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_demo_reviewcritique(tmp_path / "remote")
    good = PinnedFile(
        url=source.as_uri(), sha256=None, filename="h.jsonl", git_blob=git_blob_id(source)
    )
    monkeypatch.setitem(dataset.PINNED_FILES, "human", good)
    reviews, resolved, _ = load_reviewcritique("human")
    assert len(reviews) == 5 and resolved.revision == f"git-blob:{good.git_blob}"
    bad = PinnedFile(url=source.as_uri(), sha256=None, filename="x.jsonl", git_blob="0" * 40)
    monkeypatch.setitem(dataset.PINNED_FILES, "human", bad)
    with pytest.raises(DataError, match="expected git blob 0000"):
        load_reviewcritique("human")
