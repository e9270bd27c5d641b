"""The extraction step: task, CSV writer, CLI, and the judge task reading the CSV back."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, Model

from research_taste.cli import main
from research_taste.cli.tastybench import write_representations
from research_taste_evals.core.data import DataError
from research_taste_evals.tastybench.dataset import load_papers
from research_taste_evals.tastybench.demo import DEMO_PAPERS
from research_taste_evals.tastybench.tastybench import tastybench
from research_taste_evals.tastybench.tastybench_extract import parse_tagged, tastybench_extract

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
Metrics = Callable[[EvalLog], dict[str, float]]


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_parse_tagged() -> None:
    assert parse_tagged("x <idea> Using a thing. </idea> y", "idea") == "Using a thing."
    assert parse_tagged("<summary>\nA\nB\n</summary>", "summary") == "A\nB"
    assert parse_tagged("<idea></idea>", "idea") is None
    assert parse_tagged("no tags", "idea") is None


def test_ideas_round_trip_into_the_judge_task(
    demo_dir: Path, tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    def extractor(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        assert "Your goal is to extract the core idea" in prompt
        if DEMO_PAPERS[0][1] in prompt:
            return "I cannot do that."  # no tags: counted and left out
        return "<idea>Using " + prompt.split("<abstract>\n")[1][:40] + "</idea>"

    log = inspect_eval(
        tastybench_extract(data_path=str(demo_dir)),
        model=scripted_model(extractor),
        display="none",
        log_dir=str(tmp_path / "logs"),
    )[0]
    assert metrics_of(log)["extraction_rate"] == pytest.approx(0.9)
    output = tmp_path / "ideas.csv"
    written, failed = write_representations(log, output)
    assert (written, failed) == (9, [DEMO_PAPERS[0][0]])
    rows = _rows(output)
    assert list(rows[0]) == ["paper_id", "title", "abstract", "idea"]
    loaded = load_papers("curated", "idea", demo_dir, representations_path=output)
    assert loaded.metadata["papers_without_text"] == [DEMO_PAPERS[0][0]]
    assert all(paper.text.startswith("Using ") for paper in loaded.papers)
    task = tastybench(data_path=str(demo_dir), representations_path=str(output), rounds=1)
    assert len(task.dataset) == len(loaded.papers) - 1


def test_summaries_from_full_texts(demo_dir: Path, tmp_path: Path, metrics_of: Metrics) -> None:
    fulltexts = tmp_path / "fulltext"
    fulltexts.mkdir()
    for paper_id, title, *_ in DEMO_PAPERS[:3]:
        (fulltexts / f"{paper_id}.txt").write_text(f"{title}. Method details. More.", "utf-8")
    task = tastybench_extract(data_path=str(demo_dir), kind="summary", sources_path=str(fulltexts))
    assert task.metadata is not None
    assert len(task.metadata["papers_without_source"]) == len(DEMO_PAPERS) - 3
    log = inspect_eval(
        task, model="baseline/tastybench-lead", display="none", log_dir=str(tmp_path / "logs")
    )[0]
    assert metrics_of(log)["extraction_rate"] == 1.0
    output = tmp_path / "summaries.csv"
    assert write_representations(log, output) == (3, [])
    assert [row["summary"] for row in _rows(output)][0] == f"{DEMO_PAPERS[0][1]}. Method details."
    loaded = load_papers("curated", "summary", demo_dir, representations_path=output)
    assert len(loaded.papers) == 3


def test_sources_are_required_where_upstream_has_none(demo_dir: Path) -> None:
    with pytest.raises(DataError, match="full texts"):
        tastybench_extract(data_path=str(demo_dir), kind="summary")
    with pytest.raises(ValueError, match="kind"):
        tastybench_extract(data_path=str(demo_dir), kind="title")  # type: ignore[arg-type]


def test_cli_writes_a_file_the_task_reads(demo_dir: Path, tmp_path: Path) -> None:
    output = tmp_path / "out" / "ideas.csv"
    code = main(
        [
            "tastybench-extract",
            "--model", "baseline/tastybench-lead",
            "--data-path", str(demo_dir),
            "--output", str(output),
            "--log-dir", str(tmp_path / "logs"),
            "--idea-prompt", "curated",
        ]
    )  # fmt: skip
    assert code == 0
    assert len(load_papers("curated", "idea", demo_dir, representations_path=output).papers) == 10


def test_anonymize_asks_for_no_names_and_withholds_a_text_that_names_its_paper(
    demo_dir: Path, tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    from research_taste_evals.tastybench.prompts import ANONYMIZE_INSTRUCTION

    def extractor(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        assert ANONYMIZE_INSTRUCTION in prompt and prompt.index(
            ANONYMIZE_INSTRUCTION
        ) < prompt.index("</instructions>")
        if DEMO_PAPERS[0][1] in prompt:  # names its paper (the demo abstracts open with it)
            return f"<idea>Proposing {DEMO_PAPERS[0][1].lower()}, a critic-free method.</idea>"
        if DEMO_PAPERS[1][1] in prompt:
            return "no tags"
        return "<idea>Training a policy with an unnamed objective.</idea>"

    log = inspect_eval(
        tastybench_extract(data_path=str(demo_dir), anonymize=True),
        model=scripted_model(extractor),
        display="none",
        log_dir=str(tmp_path / "logs"),
    )[0]
    metrics = metrics_of(log)
    assert metrics["extraction_rate"] == pytest.approx(0.8)
    assert metrics["withheld_rate"] == pytest.approx(0.1)
    assert metrics["unparsed_rate"] == pytest.approx(0.1)
    written, failed = write_representations(log, tmp_path / "ideas.csv")
    assert written == 8 and set(failed) == {DEMO_PAPERS[0][0], DEMO_PAPERS[1][0]}
    assert (log.eval.metadata or {})["anonymize"] is True


def test_cli_anonymize_withholds_texts_that_name_their_paper(
    demo_dir: Path, tmp_path: Path
) -> None:
    """The lead-sentences baseline copies the demo abstracts' opening title: all withheld."""
    output = tmp_path / "ideas.csv"
    code = main(
        [
            "tastybench-extract",
            "--model", "baseline/tastybench-lead",
            "--data-path", str(demo_dir),
            "--output", str(output),
            "--log-dir", str(tmp_path / "logs"),
            "--anonymize",
        ]
    )  # fmt: skip
    assert code == 0
    rows = _rows(output)
    assert len(rows) == 10 and all(row["idea"] == "" for row in rows)
