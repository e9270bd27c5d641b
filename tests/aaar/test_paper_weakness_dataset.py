from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from research_taste_evals.aaar.dataset.paper_weakness import (
    WeaknessRecord,
    load_weakness_records,
    paper_text,
    record_to_sample,
    split_pieces,
    weakness_dataset,
)
from research_taste_evals.aaar.demo import DEMO_WEAKNESS, write_demo_weakness
from research_taste_evals.core.data import DataError

FIXTURE: dict[str, Any] = {
    "ID": "abc123",
    "track": "Deep Learning",
    "input": {
        "title": "A Title",
        "abstractText": "An abstract.",
        "sections": [
            {"heading": "1 Intro", "text": "Intro text."},
            {"heading": None, "text": "Orphan text."},
        ],
    },
    "output": [["Weak A.", "Weak B."], [], ["Weak C."]],
}


def _write(root: Path, record: Any, paper: str = "abc123") -> Path:
    path = root / "Paper_Weakness" / "ICLR_2023" / paper / "data_text.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))
    return path


def test_paper_text_is_abstract_title_then_sections_like_upstream() -> None:
    record = WeaknessRecord.model_validate(FIXTURE)
    # Upstream: abs + "\n\n" + title + "\n\n" + "\n".join(str(heading) + " " + str(text)).
    assert paper_text(record.input) == (
        "An abstract.\n\nA Title\n\n1 Intro Intro text.\nNone Orphan text."
    )


def test_split_combine_pieces_hand_worked() -> None:
    text = "w1 w2 w3 w4 w5 w6 w7"
    # 7 words, window 3: num_pieces = 7 // 3 + 1 = 3, per piece = 7 // 3 + 1 = 3.
    assert split_pieces(text, "split_combine", 3, "whitespace") == ["w1 w2 w3", "w4 w5 w6", "w7"]
    # 6 words, window 3: num_pieces = 3, per piece = 6 // 3 + 1 = 3: the last piece is empty,
    # as in the release code (its model answer is then usually "No research content").
    assert split_pieces("a b c d e f", "split_combine", 3, "whitespace") == ["a b c", "d e f", ""]
    # Fewer words than the window: one piece with everything.
    assert split_pieces(text, "split_combine", 100, "whitespace") == [text]
    assert split_pieces(text, "none", 3, "whitespace") == ["w1 w2 w3"]
    assert split_pieces("", "split_combine", 3, "whitespace") == [""]
    ten_k = " ".join(f"w{i}" for i in range(10_000))
    pieces = split_pieces(ten_k, "split_combine", 3000, "whitespace")
    assert [len(p.split()) for p in pieces] == [2501, 2501, 2501, 2497]
    assert " ".join(pieces) == ten_k


def test_record_to_sample() -> None:
    sample = record_to_sample(WeaknessRecord.model_validate(FIXTURE))
    assert sample.id == "abc123"
    assert sample.input == paper_text(WeaknessRecord.model_validate(FIXTURE).input)
    assert sample.target == ["Weak A.\nWeak B.", "", "Weak C."]
    assert sample.metadata is not None
    assert sample.metadata["reviewer_weaknesses"] == FIXTURE["output"]
    assert sample.metadata["paper_words"] == 11


def test_loader_layouts(tmp_path: Path) -> None:
    root = write_demo_weakness(tmp_path)
    records, resolved = load_weakness_records(str(root))
    assert [r.ID for r in records] == sorted(r["ID"] for r in DEMO_WEAKNESS)
    assert resolved.source.startswith("local:")
    for sub in ("Paper_Weakness", "Paper_Weakness/ICLR_2023"):
        assert [r.ID for r in load_weakness_records(str(root / sub))[0]] == [r.ID for r in records]
    assert len(weakness_dataset(records)) == len(DEMO_WEAKNESS)


def test_bad_records_name_file_and_field(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(FIXTURE))
    bad["output"] = "not a list"
    path = _write(tmp_path, bad)
    with pytest.raises(DataError, match=re.escape(f"{path}: record 0: field 'output'")):
        load_weakness_records(str(tmp_path))
    bad = json.loads(json.dumps(FIXTURE))
    bad["input"]["sections"][0]["text"] = 42
    _write(tmp_path, bad)
    with pytest.raises(DataError, match=re.escape("field 'input.sections[0].text'")):
        load_weakness_records(str(tmp_path))
    bad = json.loads(json.dumps(FIXTURE))
    bad["output"] = []
    _write(tmp_path, bad)
    with pytest.raises(DataError, match="field 'output'"):
        load_weakness_records(str(tmp_path))


def test_duplicate_ids_and_offline_hub(tmp_path: Path) -> None:
    _write(tmp_path, FIXTURE, "one")
    _write(tmp_path, FIXTURE, "two")
    with pytest.raises(DataError, match="paper id 'abc123' appears in two records"):
        load_weakness_records(str(tmp_path))
    with pytest.raises(DataError, match=r"Reza8848/AAAR-1.0@.*Paper_Weakness/ICLR_2023.*data_path"):
        load_weakness_records(None)


@pytest.mark.upstream
def test_real_upstream_records_load_when_present(upstream_dir: Path) -> None:
    folder = upstream_dir / "aaar-1.0" / "Paper_Weakness"
    if not folder.is_dir():
        pytest.skip(
            f"no upstream PaperWeakness copy at {folder} (the HF data is not mirrored here)"
        )
    records, _ = load_weakness_records(str(folder))
    assert records and all(r.output for r in records)
    sample = record_to_sample(records[0])
    assert isinstance(sample.input, str) and sample.input
