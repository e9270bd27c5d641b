from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, Model
from log_metrics import metrics_of

from research_taste_evals.aaar.demo import DEMO_EQINFER, write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.core.reasons import INVALID_RESPONSE_FORMAT

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]


@pytest.fixture
def demo_file(tmp_path: Path) -> Path:
    return write_demo_eqinfer(tmp_path)


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_all_positive_baseline_gives_the_paper_row(demo_file: Path) -> None:
    log = inspect_eval(
        eqinfer(data_path=str(demo_file)), model="baseline/all-positive", display="none"
    )[0]
    metrics = metrics_of(log)
    assert metrics["decision_f1"] == pytest.approx(0.40, abs=1e-12)
    assert metrics["decision_precision"] == pytest.approx(0.25, abs=1e-12)
    assert metrics["decision_recall"] == pytest.approx(1.0, abs=1e-12)
    assert metrics["unparsed_rate"] == 0.0
    # Bare 0/1 answers: the release code's reading gives the same row.
    assert metrics["faithful_f1"] == pytest.approx(0.40, abs=1e-12)
    assert metrics["faithful_precision"] == pytest.approx(0.25, abs=1e-12)
    assert metrics["faithful_recall"] == pytest.approx(1.0, abs=1e-12)
    assert log.eval.metadata is not None
    assert log.eval.metadata["provenance"]["data_source"].startswith("local:")


def test_oracle_answers_score_perfectly(demo_file: Path, scripted_model: ScriptedModel) -> None:
    def oracle(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        for record in DEMO_EQINFER:
            correct = record["options_list"]["ABCD".index(record["answer"])]
            if record["context_after"].split()[0] in prompt and f"\n{correct}\n" in prompt:
                return "1"
        return "0"

    metrics = metrics_of(
        inspect_eval(
            eqinfer(data_path=str(demo_file)), model=scripted_model(oracle), display="none"
        )[0]
    )
    assert metrics["decision_f1"] == 1.0 and metrics["decision_accuracy"] == 1.0


def test_maybe_is_counted_as_unparsed_not_a_crash_or_a_silent_zero(
    demo_file: Path, scripted_model: ScriptedModel
) -> None:
    calls: list[int] = []

    def maybe(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return "maybe"

    strict = inspect_eval(
        eqinfer(data_path=str(demo_file), parse_retries=1),
        model=scripted_model(maybe),
        display="none",
    )[0]
    metrics = metrics_of(strict)
    assert metrics["unparsed_rate"] == 1.0
    assert math.isnan(metrics["decision_f1"])  # nothing scored: undefined, not 0
    assert len(calls) == 2 * 4 * len(DEMO_EQINFER)  # one retry per decision
    assert strict.samples is not None
    assert strict.samples[0].scores is not None
    score = next(iter(strict.samples[0].scores.values()))
    assert score.reason == INVALID_RESPONSE_FORMAT

    # The same answers, read as the release code reads them (in the same log): upstream forces
    # every unreadable answer to the wrong label, so there are no true positives at all.
    assert metrics["faithful_f1"] == 0.0
    assert metrics["faithful_accuracy"] == 0.0
    assert metrics["faithful_forced_rate"] == 1.0


def test_multiple_choice_variant(demo_file: Path, scripted_model: ScriptedModel) -> None:
    log = inspect_eval(
        eqinfer(data_path=str(demo_file), variant="multiple_choice"),
        model=scripted_model(lambda _: "A"),
        display="none",
    )[0]
    metrics = metrics_of(log)
    assert log.samples is not None and len(log.samples) == len(DEMO_EQINFER)
    expected = sum(1 for s in log.samples if s.target == "A") / len(DEMO_EQINFER)
    assert metrics["choice_accuracy"] == pytest.approx(expected)
    assert metrics["choice_unparsed_rate"] == 0.0


def test_bad_parameters_fail_fast(demo_file: Path) -> None:
    with pytest.raises(ValueError, match="context_words"):
        eqinfer(data_path=str(demo_file), context_words=0)
    with pytest.raises(ValueError, match="variant"):
        eqinfer(data_path=str(demo_file), variant="ranking")  # type: ignore[arg-type]


def test_any_aaar_format_file_gives_all_positive_row(tmp_path: Path) -> None:
    records = [
        {
            "context_before": f"before {i}",
            "context_after": f"after {i}",
            "options_list": [f"e_{i}^{j}" for j in range(4)],
            "answer": "ABCD"[i % 4],
        }
        for i in range(13)
    ]
    path = tmp_path / "any.json"
    path.write_text(json.dumps(records))
    metrics = metrics_of(
        inspect_eval(eqinfer(data_path=str(path)), model="baseline/all-positive", display="none")[0]
    )
    assert (metrics["decision_f1"], metrics["decision_precision"], metrics["decision_recall"]) == (
        pytest.approx(0.4, abs=1e-12),
        pytest.approx(0.25, abs=1e-12),
        1.0,
    )
