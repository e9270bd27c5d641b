"""Strict and released (faithful) readings of the same EqInfer answers, side by side.

Upstream reads a binary answer with ``int(answer.strip())`` (must be 0 or 1), re-asks up to 3
times, then forces the wrong label (scripts/subtask1_equation_model_eval_binary.py); a
multiple-choice answer is one call, scored by normalised exact match
(scripts/subtask1_equation_model_eval.py, calculate_metrics_src.normalize_answer).
"""

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
from research_taste_evals.aaar.parsing import (
    faithful_binary,
    faithful_choice_correct,
    strict_binary,
    strict_choice,
)

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
RETRIES = 3


@pytest.mark.parametrize(
    ("answer", "strict", "faithful"),
    [
        ("**1**", 1, None),  # int() rejects markdown: upstream re-asks, then forces wrong
        ("01", None, 1),  # int("01") == 1
        ("+1", None, 1),  # int("+1") == 1
        ("1", 1, 1),
        (" 0\n", 0, 0),
        ("1.", 1, None),
        ("(1)", 1, None),
        ("0_1", None, 1),  # int() accepts digit separators
        ("2", None, None),
        ("maybe", None, None),
    ],
)
def test_binary_readings_table(answer: str, strict: int | None, faithful: int | None) -> None:
    assert strict_binary(answer) == strict
    assert faithful_binary(answer) == faithful


@pytest.mark.parametrize(
    ("answer", "strict_f1", "faithful_f1", "calls_per_decision"),
    [
        ("**1**", 0.4, 0.0, 1 + RETRIES),  # upstream scores 0; strict reads the 1
        ("01", math.nan, 0.4, 1 + RETRIES),  # strict: never a bare digit (all unparsed)
        ("+1", math.nan, 0.4, 1 + RETRIES),
        ("1", 0.4, 0.4, 1),
    ],
)
def test_scripted_answers_get_upstream_labels_and_both_modes_are_logged(
    tmp_path: Path,
    scripted_model: ScriptedModel,
    answer: str,
    strict_f1: float,
    faithful_f1: float,
    calls_per_decision: int,
) -> None:
    calls: list[int] = []

    def model(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return answer

    log = inspect_eval(
        eqinfer(data_path=str(write_demo_eqinfer(tmp_path)), parse_retries=RETRIES),
        model=scripted_model(model),
        display="none",
    )[0]
    metrics = metrics_of(log)
    decisions = 4 * len(DEMO_EQINFER)
    assert len(calls) == calls_per_decision * decisions
    for name, expected in (("decision_f1", strict_f1), ("faithful_f1", faithful_f1)):
        if math.isnan(expected):
            assert math.isnan(metrics[name])
        else:
            assert metrics[name] == pytest.approx(expected, abs=1e-12)
    assert log.samples is not None
    for sample in log.samples:
        score = next(iter(sample.scores.values())) if sample.scores else None
        assert score is not None and score.metadata is not None
        label = score.metadata["label"]
        upstream = faithful_binary(answer)
        # The release code's label: the int() reading, else the wrong label.
        forced = upstream if upstream is not None else 1 - label
        value = score.value
        assert isinstance(value, dict)
        predicted_positive = value["faithful_tp"] + value["faithful_fp"]
        assert predicted_positive == float(forced == 1)
        assert score.metadata["faithful_prediction"] == upstream
        assert score.metadata["prediction"] == strict_binary(answer)


def test_precision_is_nan_when_nothing_is_predicted_positive(
    tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    # scikit-learn's precision_score (upstream) returns 0 with a warning here; we report NaN.
    metrics = metrics_of(
        inspect_eval(
            eqinfer(data_path=str(write_demo_eqinfer(tmp_path))),
            model=scripted_model(lambda _: "0"),
            display="none",
        )[0]
    )
    assert math.isnan(metrics["decision_precision"]) and math.isnan(metrics["faithful_precision"])
    assert metrics["decision_recall"] == 0.0 and metrics["decision_f1"] == 0.0


def test_choice_readings() -> None:
    letters = ("A", "B", "C", "D")
    assert strict_choice("a", letters) == "A" and faithful_choice_correct("a", "A")
    assert strict_choice("**B**", letters) == "B" and faithful_choice_correct("**B**", "B")
    assert strict_choice("(C).", letters) == "C" and faithful_choice_correct("(C).", "C")
    assert strict_choice("A) x = y", letters) is None
    assert not faithful_choice_correct("A) x = y", "A")


def test_multiple_choice_is_one_call_with_released_option_format(
    tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    prompts: list[str] = []

    def model(messages: list[ChatMessage]) -> str:
        prompts.append(messages[-1].text)
        return "not a letter"

    record = {
        "context_before": "before",
        "context_after": "after",
        "options_list": ["x_1", "x_2", "x_3", "x_4"],
        "answer": "C",
    }
    path = tmp_path / "equation.one.json"
    path.write_text(json.dumps([record]))
    log = inspect_eval(
        eqinfer(data_path=str(path), variant="multiple_choice", shuffle_options=False),
        model=scripted_model(model),
        display="none",
    )[0]
    metrics = metrics_of(log)
    assert len(prompts) == 1  # one call, as released: an unreadable answer is not re-asked
    assert "(A). `x_1`;\n(B). `x_2`;\n(C). `x_3`;\n(D). `x_4`\n" in prompts[0]
    assert metrics["choice_unparsed_rate"] == 1.0 and math.isnan(metrics["choice_accuracy"])
    assert metrics["faithful_choice_accuracy"] == 0.0


def test_multiple_choice_re_asks_only_as_an_option(
    tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    answers = iter(["not a letter", "b"])
    log = inspect_eval(
        eqinfer(
            data_path=str(write_demo_eqinfer(tmp_path)),
            variant="multiple_choice",
            choice_retries=1,
            shuffle_options=False,
        ),
        model=scripted_model(lambda _: next(answers, "b")),
        display="none",
        limit=1,
    )[0]
    metrics = metrics_of(log)
    assert metrics["choice_unparsed_rate"] == 0.0  # the re-ask got a letter
    assert (log.eval.metadata or {})["provenance"]["paper_faithful"]["retries"] is False
