from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from research_taste_evals.aaar.dataset.expdesign import (
    EXPERIMENTS_KEY,
    EXPLANATIONS_KEY,
    ExpDesignRecord,
    expdesign_dataset,
    extract_list_items,
    load_expdesign_records,
    record_to_sample,
)
from research_taste_evals.aaar.dataset.paper_folders import record_files
from research_taste_evals.aaar.demo import DEMO_EXPDESIGN, write_demo_expdesign
from research_taste_evals.core.data import DataError
from research_taste_evals.core.text import nltk_words

FIXTURE: dict[str, Any] = {
    "id": "2104.00001",
    "input": ["\\section{Intro}\n", "We propose X.\n", "It is {good}.\n"],
    "output": {
        EXPERIMENTS_KEY: ["Compare X with Y.", "Ablate Z."],
        EXPLANATIONS_KEY: ["To show X works.", "To show Z matters."],
    },
}


def _write_paper(root: Path, record: Any, folder: str = "Experiment_Design") -> Path:
    paper_id = record["id"] if isinstance(record, dict) and "id" in record else "bad"
    path = root / folder / str(paper_id) / "data_text.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))
    return path


def test_record_to_sample_joins_input_like_upstream_and_cuts_words() -> None:
    record = ExpDesignRecord.model_validate(FIXTURE)
    sample = record_to_sample(record, context_words=4, counting="whitespace")
    # "".join keeps each line's own newline; words are whitespace tokens.
    assert sample.input == "\\section{Intro} We propose X."
    assert sample.id == "2104.00001"
    assert sample.target == "Compare X with Y.\nAblate Z."
    assert sample.metadata == {
        "paper_id": "2104.00001",
        "experiments": ["Compare X with Y.", "Ablate Z."],
        "explanations": ["To show X works.", "To show Z matters."],
        "item_dates": [],  # no date given: the task dates it (aaar/recall.py)
    }
    full = record_to_sample(record, context_words=3000, counting="whitespace")
    assert full.input == "\\section{Intro} We propose X. It is {good}."
    # As released (NLTK tokens, Treebank detokenizer): "\\section{Intro}" is 5 tokens, and the
    # detokenizer re-joins them with a space before the brace, as upstream's cut_word does.
    assert nltk_words("\\section{Intro} We") == ["\\section", "{", "Intro", "}", "We"]
    assert record_to_sample(record, context_words=6).input == "\\section {Intro} We propose"


def test_loader_accepts_root_folder_or_single_file(tmp_path: Path) -> None:
    root = write_demo_expdesign(tmp_path)
    by_root, resolved = load_expdesign_records(str(root))
    assert [r.id for r in by_root] == sorted(r["id"] for r in DEMO_EXPDESIGN)
    assert resolved.source.startswith("local:")
    by_folder, _ = load_expdesign_records(str(root / "Experiment_Design"))
    assert [r.id for r in by_folder] == [r.id for r in by_root]
    single = root / "Experiment_Design" / "demo.0002" / "data_text.json"
    assert [r.id for r in load_expdesign_records(str(single))[0]] == ["demo.0002"]
    dataset = expdesign_dataset(by_root, context_words=3000)
    assert [s.id for s in dataset] == [r.id for r in by_root]


def test_bad_records_name_file_and_field(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(FIXTURE))
    del bad["output"][EXPERIMENTS_KEY]
    path = _write_paper(tmp_path, bad)
    with pytest.raises(DataError, match=re.escape(f"{path}: record 0: field 'output.What exp")):
        load_expdesign_records(str(tmp_path))

    empty = json.loads(json.dumps(FIXTURE))
    empty["output"][EXPERIMENTS_KEY] = []
    _write_paper(tmp_path, empty)
    with pytest.raises(DataError, match="What experiments do you suggest doing"):
        load_expdesign_records(str(tmp_path))


def test_invalid_json_empty_folder_and_duplicate_ids(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no '<paper id>/data_text.json' folders"):
        record_files(tmp_path, "Experiment_Design")
    with pytest.raises(DataError, match="does not exist"):
        load_expdesign_records(str(tmp_path / "missing"))

    broken = tmp_path / "broken" / "Experiment_Design" / "x" / "data_text.json"
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json")
    with pytest.raises(DataError, match="invalid JSON"):
        load_expdesign_records(str(tmp_path / "broken"))

    twice = tmp_path / "twice"
    _write_paper(twice, FIXTURE)
    copy = twice / "Experiment_Design" / "copy" / "data_text.json"
    copy.parent.mkdir(parents=True)
    copy.write_text(json.dumps(FIXTURE))
    with pytest.raises(DataError, match="paper id '2104.00001' appears in two records"):
        load_expdesign_records(str(twice))


def test_default_source_is_the_pinned_hub_dataset_and_fails_clearly_offline() -> None:
    # Tests run with HF_HUB_OFFLINE=1: the pinned download must fail as a DataError that says
    # what to do, not as a huggingface_hub exception.
    with pytest.raises(DataError, match=r"Reza8848/AAAR-1.0@.*Experiment_Design.*data_path"):
        load_expdesign_records(None)


def test_list_extraction_is_the_release_regex() -> None:
    answer = "```\n1. Main comparison.\n2. Ablation: drop 0.5 of layers\nNot an item\n```"
    assert extract_list_items(answer) == [
        "1. Main comparison.",
        "2. Ablation: drop 0.5 of layers",
    ]
    # Faithful quirk: a decimal number anywhere starts an item.
    assert extract_list_items("Accuracy rose by 0.5 points") == ["0.5 points"]
    assert extract_list_items("No list here") == []


@pytest.mark.upstream
def test_real_upstream_records_load_when_present(upstream_dir: Path) -> None:
    folder = upstream_dir / "aaar-1.0" / "Experiment_Design"
    if not folder.is_dir():
        pytest.skip(f"no upstream ExpDesign copy at {folder} (the HF data is not mirrored here)")
    records, _ = load_expdesign_records(str(folder))
    assert records and all(r.output.experiments for r in records)
    sample = record_to_sample(records[0], context_words=3000)
    assert isinstance(sample.input, str) and len(sample.input.split()) <= 3000
