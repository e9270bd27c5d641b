"""The offline baselines on the demo pairs (built by the real builder from demo leaderboards)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageUser
from log_metrics import every_figure_of

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.ideapairs.baselines import always_first, idea_texts, longer_idea
from research_taste_evals.ideapairs.dataset import forecast_prompt
from research_taste_evals.ideapairs.demo import write_demo_pairs
from research_taste_evals.ideapairs.ideapairs import idea_pairs


@pytest.mark.parametrize(
    ("variant", "first", "second"), [("paper", "0", "1"), ("reasoning", "Answer: A", "Answer: B")]
)
def test_baselines_read_the_prompt(variant: str, first: str, second: str) -> None:
    text = forecast_prompt("Goal.", "short", "a much longer idea", variant)
    prompt = [ChatMessageUser(content=text)]
    assert idea_texts(prompt) == ("short", "a much longer idea")
    assert always_first.respond(prompt).startswith(first)
    assert longer_idea.respond(prompt).startswith(second)
    assert "only answer" in always_first.respond([ChatMessageUser(content="hello")])


@pytest.mark.parametrize(
    ("model", "accuracy", "consistency"),
    [("baseline/first", 0.0, 0.0), ("baseline/longer", None, None), ("baseline/newer", None, None)],
)
def test_baselines_run_on_the_demo_pairs(
    tmp_path: Path, model: str, accuracy: float | None, consistency: float | None
) -> None:
    pairs = write_demo_pairs(tmp_path / "demo")
    log = inspect_eval(
        idea_pairs(pairs_file=str(pairs), split="all", bootstrap_resamples=200),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    metrics = every_figure_of(log)
    assert metrics["unparsed_rate"] == 0.0
    assert metrics["pairs"] > 10
    if accuracy is not None:
        assert metrics["accuracy"] == accuracy and metrics["consistency"] == consistency
    if model == "baseline/newer":
        # It answers from years: consistent whenever the two years differ, and in the demo
        # the newer idea is always the better one, so it is right whenever it is consistent.
        assert metrics["accuracy"] == metrics["consistency"] > 0
        # No demo pair has the older idea better: the recency difference is undefined (NaN).
        assert metrics["recency_bias/n_b"] == 0 and math.isnan(metrics["recency_bias/delta"])
