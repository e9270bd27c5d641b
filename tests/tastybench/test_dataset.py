from __future__ import annotations

import csv
import math
import shutil
from pathlib import Path

import pytest

from research_taste_evals.core.data import DataError, cache_dir
from research_taste_evals.tastybench.dataset import (
    IDEA_FILES,
    PAPER_FILES,
    PaperRecord,
    load_papers,
    locate,
    record_to_paper,
)
from research_taste_evals.tastybench.demo import DEMO_PAPERS

DATA = Path("model-elicitation") / "data"


def _rewrite(path: Path, change: dict[str, str], row: int = 0) -> None:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[row].update(change)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_record_to_paper_reads_both_velocities() -> None:
    record = PaperRecord.model_validate(
        {
            "paperId": "p1",
            "title": "T",
            "pub_date": "2025-09-08",
            "b": "3.5",
            "citation_dates": '["2025-10-01", "2025-11-01", "2025-12-01"]',
            "citation_counts": "[2, 6, 6]",
            "rank": "9",
        }
    )
    paper = record_to_paper(record, "an idea", "fixture.csv")
    assert (paper.paper_id, paper.text, paper.velocity_upstream) == ("p1", "an idea", 3.5)
    assert paper.velocity_windowed == pytest.approx(4.0)  # 2 -> 6 over the two observed months
    assert paper.velocity("upstream") == 3.5 and paper.velocity("windowed") == pytest.approx(4.0)


def test_demo_set_loads_in_upstream_layout(demo_dir: Path) -> None:
    loaded = load_papers("curated", "idea", demo_dir)
    assert [paper.paper_id for paper in loaded.papers] == [row[0] for row in DEMO_PAPERS]
    assert loaded.metadata["papers"] == len(DEMO_PAPERS)
    assert loaded.metadata["papers_source"].startswith("local:")
    abstracts = load_papers("curated", "abstract", demo_dir).papers
    assert abstracts[0].text.startswith(DEMO_PAPERS[0][1])
    recent = next(p for p in loaded.papers if p.pub_date == "2025-07-07")
    assert recent.velocity_windowed > recent.velocity_upstream  # flat tail removed


def test_files_directly_in_the_folder_work_too(demo_dir: Path) -> None:
    assert len(load_papers("curated", "idea", demo_dir / DATA).papers) == len(DEMO_PAPERS)


def test_missing_texts_are_left_out_and_listed(demo_dir: Path) -> None:
    _rewrite(demo_dir / DATA / "llm_rl_yix_curate_with_ideas.csv", {"idea": "N/A"})
    loaded = load_papers("curated", "idea", demo_dir)
    assert loaded.metadata["papers_without_text"] == [DEMO_PAPERS[0][0]]
    assert len(loaded.papers) == len(DEMO_PAPERS) - 1


def test_bad_inputs_name_file_record_and_field(demo_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no llm_rl.csv"):
        load_papers("full", "idea", demo_dir)
    with pytest.raises(DataError, match="tastybench-extract"):
        load_papers("curated", "summary", demo_dir)
    with pytest.raises(DataError, match="does not exist"):
        load_papers("curated", "idea", tmp_path / "nowhere")
    truth = demo_dir / DATA / "llm_rl_yix_curate.csv"
    _rewrite(
        truth,
        {"citation_dates": '["2025-02-01", "2025-01-01"]', "citation_counts": "[1, 2]"},
        row=1,
    )
    with pytest.raises(DataError, match=r"paper demo0002: field 'citation_dates': .*increasing"):
        load_papers("curated", "idea", demo_dir)
    _rewrite(truth, {"citation_counts": "[1, 2"}, row=3)
    with pytest.raises(DataError, match=r"curate.csv: record 3: field 'citation_counts'"):
        load_papers("curated", "idea", demo_dir)


def test_representations_file_needs_its_column(demo_dir: Path, tmp_path: Path) -> None:
    texts = tmp_path / "summaries.csv"
    texts.write_text("paper_id,summary\ndemo0001,S1\ndemo0002,S2\n", encoding="utf-8")
    loaded = load_papers("curated", "summary", demo_dir, representations_path=texts)
    assert [paper.text for paper in loaded.papers] == ["S1", "S2"]
    assert "sha256:" in loaded.metadata["representation_source"]
    with pytest.raises(DataError, match="no 'idea' column"):
        load_papers("curated", "idea", demo_dir, representations_path=texts)
    texts.write_text("paper_id,summary\ndemo0001,S1\ndemo0001,S2\n", encoding="utf-8")
    with pytest.raises(DataError, match="repeated"):
        load_papers("curated", "summary", demo_dir, representations_path=texts)


@pytest.mark.upstream
def test_upstream_folder_works_as_data_path(tastybench_upstream: Path) -> None:
    curated = load_papers("curated", "idea", tastybench_upstream)
    assert len(curated.papers) == 37
    dapo = next(p for p in curated.papers if p.title.startswith("DAPO"))
    assert dapo.velocity_upstream == pytest.approx(63.43296703296704)
    # Of DAPO's 14 months, 8 had started by 2025-11-08: 21, 54, ..., 741 citations.
    assert dapo.velocity_windowed == pytest.approx(100.02380952380952)
    assert not any(math.isnan(p.velocity_windowed) for p in curated.papers)
    with pytest.raises(DataError, match="no upstream ideas"):
        load_papers("full", "idea", tastybench_upstream)


@pytest.mark.upstream
def test_pinned_checksums_match_the_upstream_files(tastybench_upstream: Path) -> None:
    """Seed the download cache with the verified copies: the pinned sha256s must accept them."""
    for pinned in (*PAPER_FILES.values(), *(f for f in IDEA_FILES.values() if f)):
        target = cache_dir() / "files" / pinned.sha256 / pinned.filename
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tastybench_upstream / DATA / pinned.filename, target)
        path, source = locate(pinned, None)
        assert path == target
        assert pinned.url.startswith(
            "https://raw.githubusercontent.com/parviam/tastybench/be72f06a"
        )
        assert source.startswith(pinned.url)
