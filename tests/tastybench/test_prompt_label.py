"""The judge prompt follows the set's label (issue 42): unset, ``reviews`` for a review-label
set and ``goodhart`` otherwise; an explicit prompt asking about the other label is refused in
one sentence, before any model call; the log records the prompt actually used."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from research_taste_evals.core.errors import ConfigError
from research_taste_evals.tastybench.prompts import JUDGE_GOODHART, JUDGE_REVIEWS, prompt_for_set
from research_taste_evals.tastybench.tastybench import tastybench


@pytest.fixture
def review_dir(write_review_set: Callable[..., Path], tmp_path: Path) -> Path:
    return write_review_set(tmp_path / "or", json.dumps({"label": "mean_rating"}))


def test_the_rule() -> None:
    assert prompt_for_set(None, "mean_rating", "x") == "reviews"
    assert prompt_for_set(None, None, "x") == "goodhart"
    assert prompt_for_set("normal", None, "x") == "normal"
    assert prompt_for_set("reviews", "decision", "x") == "reviews"


def _refused(error: pytest.ExceptionInfo[ConfigError], *fragments: str) -> None:
    text = str(error.value)
    assert len(text.splitlines()) == 1 and text.count(". ") == 0, text
    assert all(fragment in text for fragment in fragments), text


@pytest.mark.parametrize("prompt", ["goodhart", "normal", "max_goodhart"])
def test_a_citation_prompt_on_a_review_label_set_is_refused(review_dir: Path, prompt: str) -> None:
    with pytest.raises(ConfigError) as error:
        tastybench(data_path=str(review_dir), representation="abstract", prompt=prompt)  # type: ignore[arg-type]
    _refused(error, f"prompt='{prompt}'", str(review_dir), "review-label", "prompt=reviews")


def test_reviews_on_a_citation_set_is_refused(demo_dir: Path) -> None:
    with pytest.raises(ConfigError) as error:
        tastybench(data_path=str(demo_dir), prompt="reviews")
    _refused(error, "prompt='reviews'", str(demo_dir), "citation velocity", "goodhart")


def test_unset_the_prompt_follows_the_label(review_dir: Path, demo_dir: Path) -> None:
    task = tastybench(data_path=str(review_dir), representation="abstract", recall_probe=False)
    reviews_head = JUDGE_REVIEWS.split("{project_1}")[0]
    assert all(str(sample.input).startswith(reviews_head) for sample in task.dataset)
    assert task.metadata is not None and task.metadata["prompt"] == "reviews"
    assert task.metadata["provenance"]["prompt_variant"] == "reviews"
    citation = tastybench(data_path=str(demo_dir), recall_probe=False)
    goodhart_head = JUDGE_GOODHART.split("{project_1}")[0]
    assert all(str(sample.input).startswith(goodhart_head) for sample in citation.dataset)
    assert citation.metadata is not None and citation.metadata["prompt"] == "goodhart"
