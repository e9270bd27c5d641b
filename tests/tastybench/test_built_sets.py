"""Built sets refused in one sentence naming the file and field (issue 42): a review-label
set whose report names an unknown label, a review set fetched on two days, a broken report in
an OpenReview set, and a citation series with months after the set's fetch date."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from research_taste_evals.core.data import DataError
from research_taste_evals.tastybench.built_set import load_built_set

WriteSet = Callable[..., Path]

CITATION_COLUMNS = [
    "paper_id", "title", "pub_date", "abstract", "total_citations", "citation_dates",
    "citation_counts", "velocity", "fetch_date",
]  # fmt: skip


def _one_sentence(error: pytest.ExceptionInfo[DataError], *fragments: str) -> str:
    text = str(error.value)
    assert len(text.splitlines()) == 1, text
    assert all(fragment in text for fragment in fragments), text
    return text


def test_a_review_set_loads_with_its_label(write_review_set: WriteSet, tmp_path: Path) -> None:
    folder = write_review_set(tmp_path / "or", json.dumps({"label": "mean_rating"}))
    loaded = load_built_set(folder, "abstract", None, 6)
    assert (
        loaded.metadata["paper_set"] == "openreview" and loaded.metadata["label"] == "mean_rating"
    )
    assert loaded.metadata["velocity_fetch_date"] == "2025-11-20"


@pytest.mark.parametrize("label", ["votes", 7, ""])
def test_a_report_naming_an_unknown_label_is_refused(
    write_review_set: WriteSet, tmp_path: Path, label: object
) -> None:
    folder = write_review_set(tmp_path / "or", json.dumps({"label": label}))
    with pytest.raises(DataError) as error:
        load_built_set(folder, "abstract", None, 6)
    _one_sentence(error, "build_report.json", "field 'label'", repr(label), "mean_rating")


def test_two_fetch_dates_in_a_review_set_are_refused(
    write_review_set: WriteSet, tmp_path: Path
) -> None:
    report = json.dumps({"label": "decision"})
    folder = write_review_set(tmp_path / "or", report, ("2025-11-20", "2025-12-01"))
    with pytest.raises(DataError) as error:
        load_built_set(folder, "abstract", None, 6)
    _one_sentence(error, "papers.csv", "field 'fetch_date'", "found 2025-11-20, 2025-12-01")


@pytest.mark.parametrize("report", ["{not json", "[1, 2]"])
def test_a_broken_report_in_a_review_set_is_blamed_on_the_report(
    write_review_set: WriteSet, tmp_path: Path, report: str
) -> None:
    folder = write_review_set(tmp_path / "or", report)
    with pytest.raises(DataError) as error:
        load_built_set(folder, "abstract", None, 6)
    text = _one_sentence(error, "build_report.json", "not the builder's JSON object")
    assert "papers.csv" not in text and "total_citations" not in text


def write_citation_set(folder: Path, future_month: bool) -> Path:
    """A citation set fetched 2025-11-08; with ``future_month`` one paper's series runs on into
    2030 (citing papers dated in the future), which the builder never writes."""
    folder.mkdir()
    with (folder / "papers.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CITATION_COLUMNS)
        for k in range(3):
            dates = ["2025-08-01", "2025-09-01", "2025-10-01", "2025-11-01"]
            counts = [k, 2 * k, 3 * k, 4 * k]
            if future_month and k == 1:
                dates, counts = [*dates, "2030-01-01"], [*counts, 50]
            writer.writerow(
                [f"s{k}", f"T{k}", "2025-07-20", f"A{k}.", counts[-1], json.dumps(dates),
                 json.dumps(counts), k, "2025-11-08"]
            )  # fmt: skip
    (folder / "build_report.json").write_text(json.dumps({"query": "q"}), encoding="utf-8")
    return folder


def test_citation_months_after_the_fetch_date_are_refused_not_read_as_zero(
    tmp_path: Path,
) -> None:
    loaded = load_built_set(write_citation_set(tmp_path / "ok", False), "abstract", None, 3)
    assert [paper.velocity_windowed for paper in loaded.papers] == [0.0, 1.0, 2.0]
    with pytest.raises(DataError) as error:
        load_built_set(write_citation_set(tmp_path / "future", True), "abstract", None, 3)
    _one_sentence(
        error, "papers.csv", "paper s1", "field 'citation_dates'", "2030-01-01", "2025-11-08"
    )


@pytest.mark.parametrize("report", [None, "{}"])
def test_a_review_set_without_its_report_or_label_names_the_report(
    write_review_set: WriteSet, tmp_path: Path, report: str | None
) -> None:
    folder = write_review_set(tmp_path / "or", report or "{}")
    if report is None:
        (folder / "build_report.json").unlink()
    with pytest.raises(DataError) as error:
        load_built_set(folder, "abstract", None, 6)
    text = _one_sentence(error, "build_report.json", "missing", "'label' column")
    assert "total_citations" not in text
