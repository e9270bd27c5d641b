"""Item dates a loader must refuse (issue 37): an idea's ``paper_date`` that is empty,
contradicts its ``year`` or lies in the future. One sentence naming file, record and field."""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from research_taste_evals.core.data import DataError
from research_taste_evals.ideapairs.demo import write_demo_pairs
from research_taste_evals.ideapairs.ideapairs import idea_pairs
from research_taste_evals.tastybench.demo import write_demo_tastybench
from research_taste_evals.tastybench.tastybench import tastybench

NEXT_YEAR = dt.date.today().year + 1


def _set(field: str, value: Any) -> Callable[[dict], None]:
    def edit(idea: dict) -> None:
        idea[field] = value

    return edit


CASES = [
    ("empty-paper-date", _set("paper_date", ""), (".paper_date': empty",)),
    (
        "paper-date-contradicts-year",
        _set("paper_date", "2031-03-01"),
        ("paper_date'", "2031-03-01 contradicts field", ".year'"),
    ),
]


def _write_edited(tmp_path: Path, edit: Callable[[dict], None]) -> Path:
    path = write_demo_pairs(tmp_path / "data")
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    target = records[0]["idea_a"]["idea_id"]
    for record in records:  # the idea wherever it appears, so both orders stay mirrors
        for side in ("idea_a", "idea_b"):
            if record[side]["idea_id"] == target:
                edit(record[side])
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _refused(path: Path, *fragments: str) -> None:
    with pytest.raises(DataError) as info:
        idea_pairs(pairs_file=str(path), split="all")
    text = str(info.value)
    assert len(text.splitlines()) == 1, text
    assert all(fragment in text for fragment in (path.name, "record ", *fragments)), text


@pytest.mark.parametrize(("edit", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_paper_date_is_one_sentence(
    edit: Callable[[dict], None], expected: tuple[str, ...], tmp_path: Path
) -> None:
    _refused(_write_edited(tmp_path, edit), *expected)


def test_paper_date_in_the_future_is_refused(tmp_path: Path) -> None:
    def edit(idea: dict) -> None:
        idea["year"] = NEXT_YEAR
        idea["paper_date"] = f"{NEXT_YEAR}-01-15"

    _refused(_write_edited(tmp_path, edit), ".paper_date'", "in the future")


def _tastybench_with_pub_date(tmp_path: Path, pub_date: str) -> tuple[Path, Path]:
    root = write_demo_tastybench(tmp_path / "tb")
    [truth] = sorted(root.rglob("llm_rl_yix_curate.csv"))
    with truth.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[0]["pub_date"] = pub_date
    with truth.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return root, truth


@pytest.mark.parametrize(
    ("pub_date", "expected"),
    [(f"{NEXT_YEAR}-02-01", "is in the future"), ("2025-12-01", "after its citation series")],
    ids=["future", "after-citations"],
)
def test_tastybench_pub_date_that_cannot_be_is_refused(
    pub_date: str, expected: str, tmp_path: Path
) -> None:
    root, truth = _tastybench_with_pub_date(tmp_path, pub_date)
    with pytest.raises(DataError) as info:
        tastybench(data_path=str(root))
    text = str(info.value)
    assert len(text.splitlines()) == 1, text
    assert all(f in text for f in (truth.name, "record 0", "field 'pub_date'", expected)), text
