"""The generic grader panel: concurrency, per-member cache scopes, typed failures, quorum."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import CachePolicy, ModelOutput, ModelUsage
from inspect_ai.model._model import init_model_roles
from mock_models import counting_model, failing_model, in_flight_model, model_output, scripted_model

from research_taste_evals.core.grading import (
    CACHE_SCOPE_KEY,
    check_quorum,
    default_quorum,
    grade_member,
    member_cache,
    resolve_graders,
    run_panel,
    spread,
)


def parse_int(text: str) -> int:
    if not text.strip().isdigit():
        raise ValueError(f"not an integer: {text!r}")
    return int(text)


@pytest.fixture
def inspect_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    return tmp_path


def test_spread_median_and_iqr_hand_worked() -> None:
    # 6 x 4 and 4 x 7: sorted positions 5 and 6 are both 4 -> median 4.
    # numpy linear quartiles: q1 at rank 2.25 -> 4, q3 at rank 6.75 -> 7; IQR 3.
    result = spread([4] * 6 + [7] * 4)
    assert (result.median, result.q1, result.q3, result.iqr, result.n) == (4, 4, 7, 3, 10)
    assert spread([1, 2, 3, 4]).median == 2.5
    empty = spread([])
    assert math.isnan(empty.median) and empty.n == 0


def test_quorum_default_and_bounds() -> None:
    assert default_quorum(10) == 5 and default_quorum(1) == 1 and default_quorum(3) == 2
    assert check_quorum(None, 10) == 5 and check_quorum(10, 10) == 10
    with pytest.raises(ValueError, match=r"quorum must be in 1\.\.10"):
        check_quorum(11, 10)
    with pytest.raises(ValueError, match="quorum"):
        check_quorum(0, 10)


def test_member_cache_scopes_are_distinct_and_keep_the_policy() -> None:
    assert member_cache(False, 3) is False
    scoped = member_cache(True, 3)
    assert isinstance(scoped, CachePolicy) and scoped.scopes == {CACHE_SCOPE_KEY: "3"}
    custom = member_cache(CachePolicy(expiry="1D", scopes={"run": "a"}), 7)
    assert isinstance(custom, CachePolicy) and custom.expiry == "1D"
    assert custom.scopes == {"run": "a", CACHE_SCOPE_KEY: "7"}


def test_panel_of_ten_four_and_seven_gives_median_four() -> None:
    model, calls = counting_model(lambda n: "4" if n < 6 else "7")
    result = asyncio.run(run_panel("grade this", parse_int, [model], repeats=10))
    assert len(calls) == 10 and sorted(result.valid) == [4] * 6 + [7] * 4
    assert spread(result.valid).median == 4 and result.has_quorum


def test_with_cache_on_ten_members_make_ten_calls_and_reuse_their_own_answers(
    inspect_cache: Path,
) -> None:
    model, calls = counting_model(lambda n: str(n % 10))
    first = asyncio.run(run_panel("same prompt", parse_int, [model], repeats=10, cache=True))
    assert len(calls) == 10
    assert sorted(first.valid) == list(range(10))
    # A re-run hits each member's own cache entry: no new call, still ten different answers.
    again = asyncio.run(run_panel("same prompt", parse_int, [model], repeats=10, cache=True))
    assert len(calls) == 10
    assert [m.grade for m in again.members] == [m.grade for m in first.members]


def test_sequential_cached_calls_share_an_answer_only_without_member_scopes(
    inspect_cache: Path,
) -> None:
    # The control: the same call ten times with one plain cache policy is one call.
    model, calls = counting_model(lambda n: str(n))

    async def plain() -> list[int]:
        outs = [await model.generate("p", cache=CachePolicy()) for _ in range(10)]
        return [int(o.completion) for o in outs]

    assert asyncio.run(plain()) == [0] * 10 and len(calls) == 1

    scoped_model, scoped_calls = counting_model(lambda n: str(n))

    async def scoped() -> list[Any]:
        return [
            (await grade_member(scoped_model, i, i, "p", parse_int, cache=True)).grade
            for i in range(10)
        ]

    assert asyncio.run(scoped()) == list(range(10)) and len(scoped_calls) == 10


def test_three_unparseable_of_ten_score_from_seven_and_report_three() -> None:
    model, _ = counting_model(lambda n: "I would rather not say" if n < 3 else "6")
    result = asyncio.run(run_panel("p", parse_int, [model], repeats=10, quorum=7))
    assert result.valid == [6] * 7 and result.has_quorum
    assert result.failure_counts() == {"unparseable": 3, "refusal": 0, "model_error": 0}
    assert all("not an integer" in m.detail for m in result.failures)


def test_below_quorum_the_panel_says_so() -> None:
    model, _ = counting_model(lambda n: "x" if n < 6 else "6")
    result = asyncio.run(run_panel("p", parse_int, [model], repeats=10))
    assert len(result.valid) == 4 and result.quorum == 5 and not result.has_quorum


def test_a_failed_call_fails_the_panel_and_a_refusal_is_a_typed_failure() -> None:
    """A provider error after Inspect's retries raises (the sample fails and is retried with
    ``--retry-on-error``), never a missing grade; a refusal is the grader's answer, typed."""
    down = failing_model("provider is down")
    with pytest.raises(RuntimeError, match="provider is down"):
        asyncio.run(run_panel("p", parse_int, [down], repeats=2, quorum=1))

    refuser = scripted_model(lambda m: model_output("5", stop_reason="content_filter"))
    refused = asyncio.run(run_panel("p", parse_int, [refuser], repeats=3, quorum=1))
    assert refused.failure_counts()["refusal"] == 3 and refused.valid == []


def test_a_reply_without_choices_is_an_unparseable_grade_asked_no_more(
    inspect_cache: Path,
) -> None:
    """Inspect returns a reply without choices as an empty completion: the member's grade is
    an ``unparseable`` failure, counted, and the package asks nothing again."""
    empty = ModelOutput(model="mockllm/model", choices=[], usage=ModelUsage(total_tokens=1))
    calls: list[int] = []

    def always_empty(messages: object) -> ModelOutput:
        calls.append(len(calls))
        return empty

    result = asyncio.run(run_panel("p", parse_int, [scripted_model(always_empty)], repeats=2))
    assert result.failure_counts()["unparseable"] == 2 and result.valid == [] and len(calls) == 2


def test_several_grader_models_each_run_every_repeat() -> None:
    a, calls_a = counting_model(lambda n: "3")
    b, calls_b = counting_model(lambda n: "5")
    result = asyncio.run(run_panel("p", parse_int, [a, b], repeats=3))
    assert len(calls_a) == 3 and len(calls_b) == 3
    assert [m.index for m in result.members] == list(range(6))
    assert sorted(result.valid) == [3, 3, 3, 5, 5, 5]


def test_resolve_graders_precedence() -> None:
    explicit = resolve_graders(["mockllm/model", "mockllm/model"])
    assert len(explicit) == 2
    a, _ = counting_model(lambda n: "1")
    b, _ = counting_model(lambda n: "2")
    init_model_roles({"grader": [a, b]})
    try:
        assert resolve_graders() == [a, b]
        init_model_roles({"grader": a})
        assert resolve_graders() == [a]
    finally:
        init_model_roles({})
    with pytest.raises(ValueError, match="at least one"):
        resolve_graders([])


def test_members_run_concurrently() -> None:
    # Concurrency checked by counting calls in flight at once, never by timing: each call
    # waits until all ten have started, which only a concurrent panel achieves.
    async def panel() -> tuple[Any, int, int]:
        model, in_flight = in_flight_model("1", expected=10)
        result = await run_panel("p", parse_int, [model], repeats=10)
        return result, in_flight.calls, in_flight.most

    result, calls, most = asyncio.run(panel())
    assert result.valid == [1] * 10 and calls == 10
    assert most == 10, f"at most {most} of 10 panel members ran at the same time"


def test_bad_repeats_rejected() -> None:
    model, _ = counting_model(lambda n: "1")
    with pytest.raises(ValueError, match="repeats"):
        asyncio.run(run_panel("p", parse_int, [model], repeats=0))
