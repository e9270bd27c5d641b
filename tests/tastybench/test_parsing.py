from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessage, Model, ModelOutput
from mock_models import model_output

from research_taste_evals.core import cache_scope
from research_taste_evals.tastybench.choice import extract_choice
from research_taste_evals.tastybench.parsing import parse_extractor_reply, parse_judge_answer

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("I recommend Project 2.", 2),
        ("Project 1 is better.", 1),
        ("**Recommendation: Pursue Project 2**\n\nHere is why...", 2),
        ("You should go with **Project 1** because it scales.", 1),
        ("Prediction: Project 2 (the verifier one) will exhibit a higher citation velocity.", 2),
        ("Long analysis...\n\nPROJECT 1", 1),
        ("I would choose the second project.", 2),
        ("Project 2 is the better choice over Project 1.", 2),
    ],
)
def test_parser_reads_explicit_decisions(answer: str, expected: int) -> None:
    assert parse_judge_answer(answer) == expected


@pytest.mark.parametrize(
    "answer",
    [
        "Go with Project 1 if you have compute; choose Project 2 otherwise.",
        "If you want speed, Project 1 is the better choice.",
        "I would not pursue Project 1.",
        "Project 1 is faster; Project 2 is more novel.",
        "Both projects have merit.",
        "I recommend Project 1. On reflection, I recommend Project 2.",
        "Project 1.5 is better",
        "",
        # Both projects named in a verdict-like way: a lean each way is no decision.
        "Project 1 is more promising in theory. However, for citation velocity, Project 2 wins.",
        "I recommend Project 1. That said, if citations are all you want, Project 2 would win.",
        "Project 2 is the better choice. Still, the edge goes to Project 1 on novelty.",
    ],
)
def test_parser_leaves_ambiguous_answers_to_the_extractor(answer: str) -> None:
    assert parse_judge_answer(answer) is None


def test_extractor_reply_rules() -> None:
    assert parse_extractor_reply("They lean towards it.\nPROJECT 2") == (2, None)
    assert parse_extractor_reply("PROJECT 1") == (1, None)
    assert parse_extractor_reply("UNCLEAR") == (None, "extractor_unclear")
    # Upstream counted a reply naming both as PROJECT 1 (a position bias); here: unclear.
    assert parse_extractor_reply("Not PROJECT 2 ... PROJECT 1") == (None, "both_named")
    assert parse_extractor_reply("They liked the first one.") == (None, "neither_named")
    assert parse_extractor_reply("  ") == (None, "extractor_empty")


def test_extract_choice_paths(scripted_model: ScriptedModel) -> None:
    calls: list[str] = []

    def extractor_reply(messages: list[ChatMessage]) -> str:
        calls.append(messages[-1].text)
        return "PROJECT 1 and PROJECT 2 both"

    extractor = scripted_model(extractor_reply)
    empty = asyncio.run(extract_choice("", "parser_then_extractor", extractor))
    assert (empty.choice, empty.unclear_reason, calls) == (None, "empty", [])
    parsed = asyncio.run(
        extract_choice("I recommend Project 2.", "parser_then_extractor", extractor)
    )
    assert (parsed.choice, parsed.method, calls) == (2, "parser", [])
    both = asyncio.run(extract_choice("Both have merit.", "parser_then_extractor", extractor))
    assert (both.choice, both.unclear_reason, both.method) == (None, "both_named", "extractor")
    assert "<transcript>\nBoth have merit.\n</transcript>" in calls[0]
    every = asyncio.run(extract_choice("I recommend Project 2.", "extractor", extractor))
    assert every.method == "extractor" and len(calls) == 2
    no_model = asyncio.run(extract_choice("Both have merit.", "parser", None))
    assert (no_model.choice, no_model.unclear_reason) == (None, "ambiguous")


def test_an_extractor_provider_error_fails_the_call(scripted_model: ScriptedModel) -> None:
    """A provider error left after Inspect's retries is raised (the sample fails and
    ``--retry-on-error`` runs it again), never read as the judge's unclear answer."""

    def broken(messages: list[ChatMessage]) -> str:
        raise RuntimeError("provider down")

    with pytest.raises(RuntimeError, match="provider down"):
        asyncio.run(
            extract_choice("Both have merit.", "parser_then_extractor", scripted_model(broken))
        )


def test_an_extractor_refusal_is_a_typed_unclear(scripted_model: ScriptedModel) -> None:
    def refuses(messages: list[ChatMessage]) -> ModelOutput:
        return model_output("I can't help with that.", stop_reason="content_filter")

    result = asyncio.run(
        extract_choice("Both have merit.", "parser_then_extractor", scripted_model(refuses))
    )
    assert (result.choice, result.method, result.unclear_reason) == (
        None,
        "extractor",
        "extractor_refused",
    )


def test_extractor_calls_have_their_own_cache_scope_under_the_runs_cache(
    scripted_model: ScriptedModel, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without the run's ``--cache`` every call is made (none cached); with it, each scope has
    its own entry and a repeated scope reads it."""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path))
    calls: list[str] = []

    def reply(messages: list[ChatMessage]) -> str:
        calls.append(messages[-1].text)
        return f"PROJECT {1 + len(calls) % 2}"

    extractor = scripted_model(reply)
    for scope in ("s1/1", "s2/1", "s1/1"):
        asyncio.run(extract_choice("Hmm.", "extractor", extractor, cache_scope=scope))
    assert len(calls) == 3 and not any(p.is_file() for p in tmp_path.rglob("*"))
    monkeypatch.setattr(cache_scope, "run_cache", lambda: True)  # as under --cache
    for scope in ("s1/1", "s2/1", "s1/1"):
        asyncio.run(extract_choice("Hmm.", "extractor", extractor, cache_scope=scope))
    assert len(calls) == 5  # two scopes, two calls; the repeated scope reads its cache entry


def _logged_pairs(upstream: Path) -> list[tuple[str, str]]:
    pairs = []
    for log in sorted((upstream / "model-elicitation" / "data").rglob("ranking.log")):
        text = log.read_text(encoding="utf-8")
        pattern = r"<transcript>\n(.*?)\n</transcript>\nResponse:\n(.*?)\n={80}"
        pairs += [(m.group(1), m.group(2)) for m in re.finditer(pattern, text, re.DOTALL)]
    return pairs


@pytest.mark.upstream
def test_parser_never_contradicts_upstream_extractor(tastybench_upstream: Path) -> None:
    """On every judge answer in upstream's logs that upstream's extractor decided, the parser
    either agrees or defers (0 contradictions), and it decides most of them: no fewer than the
    379 it read before the descriptions in parentheses stopped counting as hedges (issue 42)."""
    decided = agree = 0
    for transcript, reply in _logged_pairs(tastybench_upstream):
        reference, _ = parse_extractor_reply(reply)
        parsed = parse_judge_answer(transcript)
        if reference is None:
            continue
        decided += 1
        if parsed is not None:
            assert parsed == reference, json.dumps(transcript[-300:])
            agree += 1
    assert decided > 400 and agree >= 379
    assert agree / decided > 0.6
