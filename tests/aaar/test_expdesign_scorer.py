from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, GenerateConfig, ModelName, ModelOutput, get_model
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste_evals.aaar.metrics import en_f1, judge_failure_rate, judge_unparsed_rate
from research_taste_evals.aaar.parsing import judge_decision
from research_taste_evals.aaar.scorer.expdesign import expdesign_scorer
from research_taste_evals.aaar.scorer.expdesign_judge import (
    JUDGE_CONFIG,
    JudgeResult,
    en_scores,
    entailment_rate,
    faithful_decision,
    judge_lists,
    strict_decision,
)
from research_taste_evals.aaar.solvers import PREDICTED_EXPERIMENTS_KEY, PREDICTED_EXPLANATIONS_KEY
from research_taste_evals.core.embeddings import OFFLINE_MODEL

JUDGE = "baseline/word-overlap-judge"


def test_judge_parser_is_the_release_regex() -> None:
    assert judge_decision("1") == 1
    assert judge_decision("  0, because the test is bad") == 0
    assert judge_decision("## Decision: 0.001, 01, 0, 111") == 0  # upstream's own example
    assert judge_decision("Similar: 1") == 1
    for unreadable in ("yes", ""):
        with pytest.raises(ValueError):
            judge_decision(unreadable)


def test_entailment_rate_leaves_items_without_a_decision_out() -> None:
    assert entailment_rate([1, None, 0, 1]) == pytest.approx(2 / 3)
    assert math.isnan(entailment_rate([None, None]))


def test_the_two_readings_of_one_judge_call() -> None:
    """Strict: any failure has no decision. Faithful (upstream): no 0/1 or a refusal is 0; a
    provider error has no decision (upstream stops its run rather than score it)."""
    ok = JudgeResult(0, "j", 0, 1)
    unparsed = JudgeResult(1, "j", 0, None, "unparseable")
    refused = JudgeResult(2, "j", 0, None, "refusal")
    error = JudgeResult(3, "j", 0, None, "model_error")
    assert [strict_decision(r) for r in (ok, unparsed, refused, error)] == [1, None, None, None]
    assert [faithful_decision(r) for r in (ok, unparsed, refused, error)] == [1, 0, 0, None]


def test_en_scores_hand_worked() -> None:
    # 3 predicted items, 1 entailed; 4 reference items, 2 covered: P 1/3, R 1/2, F1 = 0.4.
    p, r, f1 = en_scores([1, 0, 0], [1, 1, 0, 0])
    assert (p, r) == (pytest.approx(1 / 3), pytest.approx(1 / 2))
    assert f1 == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2)) and f1 == pytest.approx(0.4)
    assert en_scores([0, 0], [0]) == (0.0, 0.0, 0.0)  # no division by zero
    # An empty prediction is 0, not NaN and not skipped (upstream divides by all papers).
    assert en_scores([], []) == (0.0, 0.0, 0.0)
    p, r, f1 = en_scores([None], [1])
    assert math.isnan(p) and r == 1.0 and math.isnan(f1)


def _sample_score(value: dict[str, float]) -> SampleScore:
    return SampleScore(score=Score(value=value), sample_id="x")


def test_metrics_macro_average_skip_nan_and_count_unparsed() -> None:
    scores = [
        _sample_score({"en_f1": 0.5, "judge_calls": 4.0, "judge_unparsed": 1.0, "judge_failed": 2}),
        _sample_score(
            {"en_f1": math.nan, "judge_calls": 2.0, "judge_unparsed": 2.0, "judge_failed": 2}
        ),
        _sample_score({"en_f1": 0.0, "judge_calls": 0.0, "judge_unparsed": 0.0, "judge_failed": 0}),
    ]
    assert en_f1()(scores) == pytest.approx(0.25)
    assert judge_unparsed_rate()(scores) == pytest.approx(3 / 6)
    assert judge_failure_rate()(scores) == pytest.approx(4 / 6)
    assert math.isnan(en_f1()([]))
    assert math.isnan(judge_unparsed_rate()([]))


class _TrackingJudge:
    """Answers 1 when P1 mentions 'alpha'; records calls, their configs and their overlap."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.in_flight = 0
        self.max_in_flight = 0
        self.prompts: list[str] = []
        self.configs: list[GenerateConfig] = []
        self.fail_on = fail_on

    async def generate(
        self, messages: list[ChatMessage], config: GenerateConfig, cache: Any = False
    ) -> ModelOutput:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        self.prompts.append(messages[-1].text)
        self.configs.append(config)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        case = messages[-1].text.rsplit("## P1: ", 1)[-1].split("\n## P2: ")[0]
        if self.fail_on is not None and self.fail_on in case:
            raise RuntimeError("provider unavailable")
        return ModelOutput.from_content("judge", "1" if "alpha" in case else "0")


def test_judge_calls_run_concurrently_one_per_item_in_order() -> None:
    judge = _TrackingJudge()
    judged = asyncio.run(
        judge_lists(judge, ["1. alpha", "2. beta"], ["alpha ref", "gamma", "delta"])  # type: ignore[arg-type]
    )
    assert judged.decisions(strict_decision) == ([1, 0], [1, 0, 0])
    assert len(judge.prompts) == 5 and judge.max_in_flight == 5
    # The released decoding settings (temperature 1, top-p 0.99, 720 max tokens).
    assert all(config == JUDGE_CONFIG for config in judge.configs)
    assert (JUDGE_CONFIG.temperature, JUDGE_CONFIG.top_p, JUDGE_CONFIG.max_tokens) == (1, 0.99, 720)
    # Each item is judged against the other side's whole list, joined by single spaces.
    assert "## P1: 1. alpha\n## P2: alpha ref gamma delta\n## Decision: " in judge.prompts[0]
    assert "## P1: gamma\n## P2: 1. alpha 2. beta\n## Decision: " in judge.prompts[3]
    # No prediction: no judge call at all.
    judge = _TrackingJudge()
    assert asyncio.run(judge_lists(judge, [], ["x"])).decisions(strict_decision) == ([], [])  # type: ignore[arg-type]
    assert judge.prompts == []


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_scoring_never_blocks_the_event_loop(
    slow_encode: float, watch_event_loop: Callable[..., Any]
) -> None:
    """Encoding (made slow here) runs in a worker thread: a ticker keeps ticking meanwhile."""
    slow_seconds = slow_encode
    # Inspect's own one-time work (entry points, its model-info YAML on the first generate) is
    # not scoring work: do it before the clock starts.
    asyncio.run(get_model(JUDGE).generate("warm up"))
    score_fn = expdesign_scorer(
        judge_model=JUDGE,
        embedding_model=OFFLINE_MODEL,
    )
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id="p1",
        epoch=1,
        input="context",
        messages=[],
        metadata={
            "experiments": ["Compare the method with baselines on benchmarks."],
            "explanations": ["To show the method works."],
        },
    )
    state.store.set(PREDICTED_EXPERIMENTS_KEY, ["1. Compare the method with baselines."])
    state.store.set(PREDICTED_EXPLANATIONS_KEY, ["1. To show that the method works."])

    score = watch_event_loop(lambda: score_fn(state, Target("")), 0.75 * slow_seconds)
    assert isinstance(score.value, dict)
    assert score.value["judge_calls"] == 2.0
    assert 0.0 < score.value["s_match"] <= 1.0


def test_a_provider_error_fails_the_sample_once_every_judge_call_ended() -> None:
    """A judge call that still fails after Inspect's retries raises (the sample fails and is
    retried with ``--retry-on-error``), never an undecided pair; the other calls end first, so
    their answers are cached for the retry (``asyncio.gather(..., return_exceptions=True)``)."""
    judge = _TrackingJudge(fail_on="beta")
    with pytest.raises(RuntimeError, match="provider unavailable"):
        asyncio.run(
            judge_lists(judge, ["1. alpha", "2. beta", "3. gamma"], ["alpha ref"])  # type: ignore[arg-type]
        )
    assert len(judge.prompts) == 4 and judge.in_flight == 0


def test_an_unparseable_judge_answer_is_0_in_the_faithful_reading_only() -> None:
    class Mute(_TrackingJudge):
        async def generate(
            self, messages: list[ChatMessage], config: GenerateConfig, cache: Any = False
        ) -> ModelOutput:
            await super().generate(messages, config, cache)
            return ModelOutput.from_content("judge", "cannot tell")

    judged = asyncio.run(judge_lists(Mute(), ["1. alpha"], ["alpha ref"]))  # type: ignore[arg-type]
    assert judged.decisions(strict_decision) == ([None], [None])
    assert judged.decisions(faithful_decision) == ([0], [0])


def test_v1_judges_every_reference_prediction_pair_and_aggregates_with_any() -> None:
    """Upstream's v1 (calculate_metrics_subtask2_exp_entailment.py): m x n calls, one pair each
    (P1 = reference, P2 = prediction), np.any along each axis. Hand-worked: 3 references x 2
    predictions = 6 calls; only pairs whose P1 holds "alpha" are judged 1."""
    judge = _TrackingJudge()
    predicted, reference = ["1. alpha pred", "2. beta"], ["alpha ref", "gamma", "delta"]
    judged = asyncio.run(judge_lists(judge, predicted, reference, "v1"))  # type: ignore[arg-type]
    assert len(judge.prompts) == 6 and judge.max_in_flight == 6
    assert "## P1: alpha ref\n## P2: 1. alpha pred\n## Decision: " in judge.prompts[0]
    assert "## P1: delta\n## P2: 2. beta\n## Decision: " in judge.prompts[5]
    assert all("Example 1:" in prompt for prompt in judge.prompts)  # v1 wording
    # Matrix rows (references): alpha ref -> [1, 1]; gamma, delta -> [0, 0].
    assert judged.decisions(strict_decision) == ([1, 1], [1, 0, 0])
    assert en_scores(*judged.decisions(strict_decision)) == pytest.approx((1.0, 1 / 3, 0.5))
