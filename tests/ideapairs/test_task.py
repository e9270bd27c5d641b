"""The idea_pairs task end to end with scripted models: the consistency-aware metric's anchors."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, Model
from log_metrics import every_figure_of
from mock_models import answering_probes, scripted_model

from research_taste_evals.core.data import DataError
from research_taste_evals.core.text import content_id
from research_taste_evals.ideapairs.ideapairs import idea_pairs

_IDEAS = re.compile(r"\nIdea A:\n(.*?)\n\nIdea B:\n(.*?)\n\nReason about", re.DOTALL)
LARGE = 800
RANDOM_TOLERANCE = 0.03
FAST_BOOTSTRAP = 200


def _ideas(messages: list[ChatMessage]) -> tuple[str, str]:
    match = _IDEAS.search(messages[-1].text)
    assert match, "not an idea-pair prompt"
    return match.group(1), match.group(2)


def always_first(messages: list[ChatMessage]) -> str:
    _ideas(messages)
    return "Answer: A\nConfidence: 0.9"


def oracle(messages: list[ChatMessage]) -> str:
    # Synthetic texts say which idea is better ("Idea 7 better: ...").
    first, _ = _ideas(messages)
    return f"I am sure.\nAnswer: {'A' if ' better:' in first else 'B'}\nConfidence: 1"


def seeded_random(messages: list[ChatMessage]) -> str:
    # Seeded by the prompt, so the answer does not depend on call order.
    rng = random.Random(content_id(messages[-1].text))
    return f"Answer: {rng.choice('AB')}\nConfidence: 0.5"


def run(
    pairs: Path,
    model: Model,
    tmp_path: Path,
    epochs: int = 1,
    log_samples: bool = True,
    **task_args: object,
) -> dict[str, float]:
    task_args.setdefault("prompt", "reasoning")  # these scripted models answer "Answer: A|B"
    log: EvalLog = inspect_eval(
        idea_pairs(pairs_file=str(pairs), bootstrap_resamples=FAST_BOOTSTRAP, **task_args),  # type: ignore[arg-type]
        model=model,
        epochs=epochs,
        log_samples=log_samples,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    return every_figure_of(log)


def test_always_first_scores_zero(synthetic_pairs: Callable[[int], Path], tmp_path: Path) -> None:
    metrics = run(synthetic_pairs(60), scripted_model(answering_probes(always_first)), tmp_path)
    assert metrics["accuracy"] == 0.0
    assert metrics["consistency"] == 0.0
    assert metrics["single_order_accuracy"] == 0.5
    assert metrics["unparsed_rate"] == 0.0


def test_oracle_scores_one_in_every_tier(
    synthetic_pairs: Callable[[int], Path], tmp_path: Path
) -> None:
    metrics = run(synthetic_pairs(60), scripted_model(answering_probes(oracle)), tmp_path, epochs=2)
    assert metrics["accuracy"] == 1.0
    assert metrics["consistency"] == 1.0
    assert metrics["conditional_accuracy"] == 1.0
    assert [metrics[f"accuracy/{t}sigma"] for t in (1, 2, 3)] == [1.0, 1.0, 1.0]
    assert "top1_accuracy" not in metrics  # ranking figures only in mode=ranking (B.10)
    assert metrics["brier"] == 0.0 and metrics["ece"] == 0.0 and metrics["mce"] == 0.0
    assert metrics["calibration/logprob_share"] == 0.0  # mock outputs carry no logprobs: verbalised


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_seeded_random_is_near_chance(
    synthetic_pairs: Callable[[int], Path], tmp_path: Path
) -> None:
    # Per-sample logs are left out only to keep this large run quick; metrics are unaffected.
    metrics = run(
        synthetic_pairs(LARGE),
        scripted_model(answering_probes(seeded_random)),
        tmp_path,
        log_samples=False,
    )
    assert abs(metrics["accuracy"] - 0.25) <= RANDOM_TOLERANCE
    assert abs(metrics["consistency"] - 0.5) <= 2 * RANDOM_TOLERANCE


def test_unparsed_answers_are_counted_not_dropped(
    synthetic_pairs: Callable[[int], Path], tmp_path: Path
) -> None:
    def mumble(messages: list[ChatMessage]) -> str:
        first, _ = _ideas(messages)
        return "Hard to say." if " better:" in first else "Answer: B\nConfidence: 0.7"

    metrics = run(synthetic_pairs(20), scripted_model(answering_probes(mumble)), tmp_path)
    assert metrics["accuracy"] == 0.0
    assert metrics["unparsed_rate"] == 0.5
    assert metrics["pairs"] == 20
    assert metrics["calibration/pairs"] == 0  # no probability without both answers


def test_split_and_tiers_filter(synthetic_pairs: Callable[[int], Path], tmp_path: Path) -> None:
    metrics = run(
        synthetic_pairs(30), scripted_model(answering_probes(oracle)), tmp_path, tiers="2"
    )
    assert metrics["pairs"] == 10 and metrics["pairs/2sigma"] == 10
    with pytest.raises(DataError, match="no pairs with split=train"):
        idea_pairs(pairs_file=str(synthetic_pairs(5)), split="train")
    with pytest.raises(DataError, match="pairs_file"):
        idea_pairs()
    with pytest.raises(ValueError, match="tiers"):
        idea_pairs(pairs_file=str(synthetic_pairs(5)), tiers="4")
