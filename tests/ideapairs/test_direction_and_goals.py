"""Issue 31: the prompt states the direction on lower-is-better boards, goals lose scraping
debris and name the deciding metric, and the builder writes ``metric``/``lower_is_better``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from research_taste.builders.ideapairs.builder import build
from research_taste.builders.ideapairs.descriptions import clean_description
from research_taste_evals.ideapairs.dataset import forecast_prompt, record_to_sample
from research_taste_evals.ideapairs.pairs_schema import read_pairs
from research_taste_evals.ideapairs.solvers import order_prompt


def _board(metrics: list[str], values: list[list[float]], description: str) -> list[Any]:
    rows = [
        {
            "model_name": f"M{i}",
            "paper_title": f"Paper {i}",
            "paper_url": f"https://e.org/{i}",
            "paper_date": "2019-01-01",
            "metrics": dict(zip(metrics, row, strict=True)),
        }
        for i, row in enumerate(values)
    ]
    dataset = {"dataset": "Event2Mind", "description": description, "sota": {"rows": rows}}
    return [{"task": "Common Sense", "description": "", "datasets": [dataset]}]


@pytest.mark.parametrize("prompt", ["paper", "reasoning"])
def test_lower_is_better_is_stated_and_higher_keeps_the_papers_wording(prompt: str) -> None:
    lower = forecast_prompt("G.", "a", "b", prompt, lower_is_better=True, metric="Dev")
    assert "performed better on the benchmark: on its metric, Dev, lower is better." in lower
    assert "higher score" not in lower and "scored higher" not in lower
    for unknown in (False, None):  # None: a pairs file written before the field
        higher = forecast_prompt("G.", "a", "b", prompt, lower_is_better=unknown, metric="Acc")
        assert "Predict which idea achieved the higher score on the benchmark." in higher
        assert "lower is better" not in higher
    if prompt == "paper":
        assert "Answer with the label only: 0 if Idea A performed better, 1 if Idea B did." in lower


def test_builder_writes_the_metric_and_its_direction_and_the_prompt_states_it(
    tmp_path: Path,
) -> None:
    source = tmp_path / "board.json"
    cross_entropy = [[4.0 + i * 0.5] for i in range(8)]  # best first: lowest cross-entropy
    source.write_text(json.dumps(_board(["Dev Cross-Entropy"], cross_entropy, "")))
    build([source], tmp_path / "pairs.jsonl", extract=False)
    records = read_pairs(tmp_path / "pairs.jsonl")
    assert records and all(r.metric == "Dev Cross-Entropy" for r in records)
    assert all(r.lower_is_better is True for r in records)
    original = next(r for r in records if r.order == "original")
    swapped = next(r for r in records if r.pair_id == original.pair_id and r is not original)
    sample = record_to_sample(original, swapped, "paper")
    assert "on its metric, Dev Cross-Entropy, lower is better" in str(sample.input)
    assert "on its metric, Dev Cross-Entropy, lower is better" in order_prompt(
        sample.metadata or {}, "swapped"
    )
    # the better idea (Idea A of the original order) has the lower cross-entropy
    assert int(original.idea_a.method[1:]) < int(original.idea_b.method[1:])


def test_goal_names_the_deciding_metric_only_when_there_are_several(tmp_path: Path) -> None:
    source = tmp_path / "board.json"
    values = [[90.0 - i, 80.0 - i] for i in range(8)]
    source.write_text(json.dumps(_board(["Accuracy", "F1"], values, "")))
    build([source], tmp_path / "pairs.jsonl", extract=False)
    record = read_pairs(tmp_path / "pairs.jsonl")[0]
    assert "as measured by: Accuracy, F1. The leaderboard ranks entries by Accuracy." in record.goal
    assert (record.metric, record.lower_is_better) == ("Accuracy", False)
    source.write_text(json.dumps(_board(["Accuracy"], [[90.0 - i] for i in range(8)], "")))
    build([source], tmp_path / "one.jsonl", extract=False)
    assert "ranks entries" not in read_pairs(tmp_path / "one.jsonl")[0].goal


# (scraped description, cleaned) -- shapes from the NLP-progress export of sota-extractor.
DESCRIPTIONS = [
    (
        "Results are available at the [GLUE leaderboard](https://gluebenchmark.com/leaderboard)."
        " Here is a subset of results of recent models:",
        "Results are available at the GLUE leaderboard.",
    ),
    ("This data has been manually annotated three times:", ""),
    (
        "Models are evaluated based on F1. [Go back to the README](../README.md)",
        "Models are evaluated based on F1.",
    ),
    (
        "Example:\n| Question | SQL query |\n| --- | --- |\n| How many? | `SELECT COUNT` |\n"
        "Models are evaluated on accuracy.",
        "Models are evaluated on accuracy.",
    ),
    (
        "The metrics are:\n- F1\n- EM",
        "The metrics are: - F1 - EM",  # a colon followed by text keeps its lead-in
    ),
    ("Subtask A results:\n| Model | F1 |\n| --- | --- |\n| X | 0.6 |", ""),
]


@pytest.mark.parametrize(("raw", "clean"), DESCRIPTIONS)
def test_descriptions_lose_tables_back_links_and_dangling_lead_ins(raw: str, clean: str) -> None:
    assert clean_description(raw) == clean


def test_goal_from_a_debris_description_is_clean(tmp_path: Path) -> None:
    source = tmp_path / "board.json"
    debris = "Predict likely intents. Here is a subset of results of recent models:"
    source.write_text(json.dumps(_board(["Accuracy"], [[90.0 - i] for i in range(8)], debris)))
    build([source], tmp_path / "pairs.jsonl", extract=False)
    goal = read_pairs(tmp_path / "pairs.jsonl")[0].goal
    assert goal.endswith("Benchmark description: Predict likely intents.")
