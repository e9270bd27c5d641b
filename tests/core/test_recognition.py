"""Recognition probe: reading real answer shapes, and one call per item per run."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from inspect_ai.model import CachePolicy, ChatMessage
from mock_models import scripted_model

from research_taste_evals.core.recognition import (
    RecallItem,
    RecallProbe,
    answer_year,
    labelled_title,
    names_item,
    title_ratio,
)

TITLE = "Training Language Models to Self-Correct via Reinforcement Learning"
DAPO = "DAPO: An Open-Source LLM Reinforcement Learning System at Scale"


@pytest.mark.parametrize(
    ("reply", "title", "named"),
    [
        (f"Title: {TITLE}\nYear: 2024", TITLE, True),
        # case and punctuation differences
        (
            "Title: training language models to self correct via reinforcement learning.",
            TITLE,
            True,
        ),
        (
            '**Title:** "DAPO - an open source LLM reinforcement learning system at scale"',
            DAPO,
            True,
        ),
        # a title-length window inside prose
        (f"This is Kumar et al.'s paper \u201c{TITLE}\u201d (2024), from DeepMind.", TITLE, True),
        (
            '```json\n{"title": "DAPO: An Open-Source LLM RL System at Scale", "year": 2025}\n```',
            DAPO,
            True,
        ),
        (
            f"<think>Could it be {TITLE}? Not sure.</think>I do not recognise this paper.",
            TITLE,
            False,
        ),
        ("I do not recognise this paper.", TITLE, False),
        (
            "I don't recognize this specific paper; it resembles work on self-correction.",
            TITLE,
            False,
        ),
        # prose echoing the description while declining is not naming it
        (f"I'm not familiar with it. It is about {TITLE.lower()}.", TITLE, False),
        (
            "Title: Reflexion: Language Agents with Verbal Reinforcement Learning\nYear: 2023",
            TITLE,
            False,
        ),
        ("", TITLE, False),
        ("Title: Unknown\nYear: Unknown", TITLE, False),
        ("Title: I do not recognise this paper.", TITLE, False),
        ('{"recognized": false, "title": null, "year": null}', TITLE, False),
        # declining, but quoting the title: named
        (f'{{"recognized": false}} Though it reads like "{TITLE}".', TITLE, True),
        (f"I don't recognise it for sure; it might be *{TITLE}* (2024).", TITLE, True),
    ],
)
def test_names_item_titles(reply: str, title: str, named: bool) -> None:
    assert names_item(reply, title) is named


def test_method_name_tokens_for_ideas() -> None:
    assert names_item("That is the ReMax paper (Li et al., 2023).", "Some long title", ("ReMax",))
    assert not names_item("A REINFORCE variant, I think.", "Some long title", ("ReMax",))
    assert names_item("Probably SWE\u2011RL (Wei et al.).", "Some long title", ("SWE-RL",))
    assert not names_item("RL for SWE tasks.", "Some long title", ("SWE-RL",))


def test_title_ratio_hand_worked() -> None:
    assert title_ratio("DAPO", "DAPO") == 1.0
    # "abc" vs "abd": 2 * 2 matching / 6 characters
    assert title_ratio("abc", "abd") == pytest.approx(4 / 6)


def test_labelled_title_and_year() -> None:
    assert (
        labelled_title("Sure.\nTitle: ReMax: A Simple Method\nYear: 2023")
        == "ReMax: A Simple Method"
    )
    assert labelled_title("no label here") is None
    assert (
        labelled_title('1. Title: "ReMax: A Simple Method"\n2. Year: 2023')
        == "ReMax: A Simple Method"
    )
    assert labelled_title("- Paper title: ReMax\n- Year: 2023") == "ReMax"
    assert answer_year("1. Title: X\n2. Year: 2023") == 2023
    assert answer_year("Title: X\nYear: circa 2023") == 2023
    assert answer_year('{"title": "X", "year": "2024"}') == 2024
    assert answer_year("no year") is None


def _items() -> list[RecallItem]:
    return [
        RecallItem("a", "An idea about self-correction.", TITLE),
        RecallItem("b", "DAPO decouples clipping.", DAPO, ("DAPO",)),
    ]


def test_probe_once_per_item_leak_is_moot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path))
    calls: list[str] = []

    def respond(messages: list[ChatMessage]) -> str:
        calls.append(messages[-1].text)
        return f"Title: {TITLE}\nYear: 2024"

    model = scripted_model(respond)
    probe = RecallProbe(cache=False)
    known, leaked = _items()

    async def run() -> list[object]:
        return list(await asyncio.gather(*(probe.recognise(known, model) for _ in range(5))))

    results = asyncio.run(run())
    assert len(calls) == 1 and "An idea about self-correction." in calls[0]
    assert all(r == results[0] for r in results) and results[0].recognized is True
    assert results[0].year == 2024
    moot = asyncio.run(probe.recognise(leaked, model))
    assert moot.recognized is None and moot.identity_leak and moot.leaks == ["name 'DAPO'"]
    assert len(calls) == 1


def test_a_failed_probe_fails_the_sample_and_is_asked_again(tmp_path: Path) -> None:
    """A probe call that fails after Inspect's retries raises (the sample fails and
    ``--retry-on-error`` runs it again), never an "unknown" recognition; nothing is memoised,
    so the retried sample asks again."""
    from mock_models import failing_model, scripted_model

    probe, item = RecallProbe(cache=False), _items()[0]
    with pytest.raises(RuntimeError, match="provider is down"):
        asyncio.run(probe.recognise(item, failing_model()))
    answer = f"Title: {item.title}"
    result = asyncio.run(probe.recognise(item, scripted_model(lambda messages: answer)))
    assert result.recognized is True and result.error is None


def test_baselines_answer_the_probe() -> None:
    from inspect_ai.model import get_model

    from research_taste_evals.core.baselines import register_baseline
    from research_taste_evals.core.recognition import NOT_RECOGNISED

    register_baseline("test-probe-rule", "answers 1")(lambda messages: "1")
    register_baseline(
        "test-probe-knower", "knows every paper", recall=lambda messages: f"Title: {TITLE}"
    )(lambda messages: "1")
    item = _items()[0]
    rule = asyncio.run(
        RecallProbe(cache=False).recognise(item, get_model("baseline/test-probe-rule"))
    )
    assert rule.answer == NOT_RECOGNISED and rule.recognized is False and rule.declined
    knower = get_model("baseline/test-probe-knower")
    assert asyncio.run(RecallProbe(cache=False).recognise(item, knower)).recognized is True
    # Its other answers are unchanged.
    assert asyncio.run(knower.generate("Which project?")).completion == "1"


def test_a_rerun_repeats_no_probe_call_under_a_cache_and_caches_nothing_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a cache (the run's ``--cache``, here given), a new run's probe reuses the first
    answer; without one (outside a run: none) each run asks and nothing is cached."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path))
    calls: list[int] = []

    def respond(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return "I do not recognise this paper."

    model = scripted_model(respond)
    for _ in range(2):  # two runs: two probes, as two task builds would make
        result = asyncio.run(RecallProbe().recognise(_items()[0], model))
        assert result.recognized is False
    assert len(calls) == 2 and not any(p.is_file() for p in tmp_path.rglob("*"))
    for _ in range(2):
        probe = RecallProbe(cache=CachePolicy(expiry=None))
        assert asyncio.run(probe.recognise(_items()[0], model)).recognized is False
    assert len(calls) == 3
