"""The tastybench task on a folder the builder wrote from the fake Graph API."""

from __future__ import annotations

import csv
import datetime as dt
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import log_metrics
import pytest
from fake_graph_api import FETCH_DATE, TRUTH, WINDOW, FakeClock, FakeGraphApi
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage

from research_taste.builders.semantic_scholar import SemanticScholar
from research_taste.builders.tastybench_set import SetRequest, build
from research_taste_evals.core.data import DataError
from research_taste_evals.tastybench.built_set import built_titles_and_abstracts, load_built_set
from research_taste_evals.tastybench.tastybench import tastybench
from research_taste_evals.tastybench.tastybench_extract import load_sources, tastybench_extract

MODES = ("upstream", "windowed", "common_window")
FAST = {"display": "none", "max_connections": 100, "max_samples": 100, "log_realtime": False}


@pytest.fixture
def built(fake_api: FakeGraphApi, fake_clock: FakeClock, tmp_path: Path) -> Path:
    out = tmp_path / "set"
    client = SemanticScholar(
        out / "cache",
        base_url=fake_api.base_url,
        clock=fake_clock,
        today=lambda: dt.date.fromisoformat(FETCH_DATE),
    )
    request = SetRequest("rl llm", *(dt.date.fromisoformat(day) for day in WINDOW), 20)
    build(request, out, client, progress=False)
    return out


def test_every_velocity_mode_uses_the_sets_fetch_date(built: Path) -> None:
    loaded = load_built_set(built, "abstract", None, window_months=6)
    papers = {paper.paper_id: paper for paper in loaded.papers}
    assert set(papers) == set(TRUTH)
    for paper_id, velocity in TRUTH.items():
        if velocity is None:  # an undated series: no velocity in any mode, never 0.0
            assert all(math.isnan(papers[paper_id].velocity(mode)) for mode in MODES)
            continue
        assert papers[paper_id].velocity("upstream") == pytest.approx(velocity, rel=1e-12)
        assert papers[paper_id].velocity("windowed") == pytest.approx(velocity, rel=1e-12)
    # six month starts by 2026-01-15 for A, B and K (seven: the first six), four for C
    assert math.isnan(papers["KEEP-C"].velocity("common_window"))
    assert papers["KEEP-A"].velocity("common_window") == pytest.approx(4.0)
    assert papers["KEEP-C"].months_observed == 4
    assert loaded.metadata["velocity_fetch_date"] == FETCH_DATE
    assert papers["KEEP-A"].text == "An abstract. (KEEP-A)"


def test_ideas_need_the_extracted_file_and_extraction_reads_the_abstracts(built: Path) -> None:
    with pytest.raises(DataError, match="holds abstracts only; write ideas with"):
        load_built_set(built, "idea", None, 6)
    texts = built_titles_and_abstracts(built)
    found, missing = load_sources("curated", "idea", str(built), None, texts)
    assert {pid for pid, _, _ in found} == set(TRUTH) and missing == []
    assert dict((pid, text) for pid, _, text in found)["KEEP-B"] == "An abstract. (KEEP-B)"
    ideas = built.parent / "ideas.csv"
    with ideas.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["paper_id", "title", "abstract", "idea"])
        writer.writerows([pid, "", "", f"the idea of {pid}"] for pid in TRUTH)
    loaded = load_built_set(built, "idea", str(ideas), 6)
    assert {paper.text for paper in loaded.papers} == {f"the idea of {pid}" for pid in TRUTH}


def test_the_citation_oracle_ranks_a_built_set_perfectly(built: Path, tmp_path: Path) -> None:
    task = tastybench(
        data_path=str(built),
        representation="abstract",
        schedule="all_pairs",
        bootstrap_resamples=100,
    )
    log = inspect_eval(
        task, model="baseline/citation-oracle", log_dir=str(tmp_path / "logs"), **FAST
    )[0]
    assert log.status == "success"
    metrics = log_metrics.metrics_of(log)
    assert metrics["bt_spearman"] == pytest.approx(1.0)
    assert metrics["elo_spearman"] == pytest.approx(1.0)
    metadata = log.eval.metadata or {}
    assert metadata["velocity_fetch_date"] == FETCH_DATE
    assert metadata["provenance"]["data_revision"] == f"built set, fetched {FETCH_DATE}"
    build_info = metadata["build"]
    assert build_info["query"] == "rl llm"
    assert build_info["window"] == {"from": WINDOW[0], "to": WINDOW[1]}
    assert build_info["fetch_date"] == FETCH_DATE
    assert build_info["api_base"].startswith("http://127.0.0.1:")
    assert build_info["papers_unchanged_since_build"] is True


def test_extracted_ideas_of_a_built_set_feed_the_judge(
    built: Path, tmp_path: Path, scripted_model: Callable[..., Any]
) -> None:
    from research_taste.cli.tastybench import write_representations

    def extractor(messages: list[ChatMessage]) -> str:
        abstract = messages[-1].text.split("<abstract>\n")[1].split("\n")[0]
        return f"<idea>The idea behind {abstract}</idea>"

    log = inspect_eval(
        tastybench_extract(data_path=str(built)),
        model=scripted_model(extractor),
        log_dir=str(tmp_path / "logs"),
        **FAST,
    )[0]
    assert (log.eval.metadata or {})["paper_set"] == "built"
    ideas = tmp_path / "ideas.csv"
    assert write_representations(log, ideas) == (4, [])
    loaded = load_built_set(built, "idea", str(ideas), 6)
    texts = {paper.paper_id: paper.text for paper in loaded.papers}
    assert texts["KEEP-C"] == "The idea behind An abstract. (KEEP-C)"
