"""The core recall figures on hand-worked scores: twins, recognition counts, cutoff figures."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

import pytest
from inspect_ai.scorer import SampleScore, Score

from research_taste_evals.core.families import task_specs
from research_taste_evals.core.recall_control import ShownItem
from research_taste_evals.core.recall_items import item_records, recognition_values
from research_taste_evals.core.recall_metrics import recall_summary
from research_taste_evals.core.spec import TaskSpec

CONTROL = TaskSpec(
    task="toy", first_group=("accuracy",), items=lambda m: [ShownItem(i, None) for i in m["items"]]
)
UNPROBED = TaskSpec(task="toy_unprobed", first_group=("accuracy",), items=CONTROL.items)


def _accuracy(scores: list[SampleScore]) -> Mapping[str, float]:
    values = [s.score.as_float() for s in scores]
    mean = sum(values) / len(values)
    return {"accuracy": mean, "accuracy_ci_low": mean - 0.1, "accuracy_ci_high": mean + 0.1}


def _score(
    correct: float, items: dict[str, tuple[str | None, bool | None]], cutoff: str | None
) -> SampleScore:
    recall: dict[str, Any] = {
        item: {"date": date, "recognized": known, "identity_leak": False}
        for item, (date, known) in items.items()
    }
    metadata = {"knowledge_cutoff": cutoff, "recall": recall}
    return SampleScore(score=Score(value=correct, metadata=metadata), sample_id=id(metadata))


def test_twins_hand_worked_unprobed_family(caplog: pytest.LogCaptureFixture) -> None:
    # Stated cutoff 2024-06-30, nothing probed: post-cutoff = clean = a, b (correct 1, 0).
    scores = [
        _score(1, {"a": ("2024-09", None)}, "2024-06-30"),
        _score(0, {"b": ("2025", None)}, "2024-06-30"),
        _score(0, {"c": ("2024-06", None)}, "2024-06-30"),  # the cutoff's own month: not after
    ]
    with caplog.at_level(logging.INFO):
        values = recall_summary(UNPROBED, _accuracy)(scores)
    assert values["accuracy_post_cutoff"] == 0.5 and values["post_cutoff_samples"] == 2
    assert values["accuracy_clean"] == 0.5 and values["clean_items"] == 2
    assert values["accuracy_clean_ci_low"] == pytest.approx(0.4)
    assert values["clean_cutoff"] == 202406
    for key in ("accuracy_unrecognized", "recognized_rate", "estimated_cutoff"):
        assert math.isnan(values[key]), key
    assert math.isnan(values["post_cutoff_recognized"])  # no probe: NaN, not 0
    assert any("nothing was probed" in r.getMessage() for r in caplog.records)


def test_no_cutoff_and_no_dates_are_nan_with_reasons(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        none_stated = recall_summary(UNPROBED, _accuracy)([_score(1, {"a": ("2025", None)}, None)])
        undated = recall_summary(UNPROBED, _accuracy)([_score(1, {"a": (None, None)}, "2024-01")])
    for values in (none_stated, undated):
        assert math.isnan(values["accuracy_clean"]) and math.isnan(values["clean_items"])
        assert math.isnan(values["accuracy_post_cutoff"])
    messages = " | ".join(r.getMessage() for r in caplog.records)
    assert "no cutoff: none stated" in messages and "the items carry no dates" in messages


def test_too_few_items_is_nan_and_count_zero() -> None:
    scores = [_score(1, {"a": ("2023-01", False)}, "2024-06-30")]
    values = recall_summary(CONTROL, _accuracy)(scores)
    assert math.isnan(values["accuracy_clean"]) and values["clean_items"] == 0


def test_recognition_values_over_distinct_unleaked_items() -> None:
    scores = [
        _score(1, {"a": ("2024", True), "b": ("2024", False)}, None),
        _score(1, {"a": ("2024", True), "c": ("2024", False)}, None),  # "a" again: once
    ]
    leaked = SampleScore(
        score=Score(
            value=1,
            metadata={"recall": {"d": {"date": None, "recognized": None, "identity_leak": True}}},
        )
    )
    values = recognition_values(item_records([*scores, leaked]))
    assert values == {
        "recognized_rate": pytest.approx(1 / 3),
        "recognized_items": 1.0,
        "probed_items": 3.0,
        "leaked_items": 1.0,
    }
    off = recognition_values(item_records([_score(1, {"a": ("2024", None)}, None)]))
    assert math.isnan(off["recognized_rate"]) and math.isnan(off["probed_items"])


def test_every_item_recognised_no_clean_items_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Stated 2024-06-30; the model names all four, two of them after it.
    items = {"a": "2024-01", "b": "2024-05", "c": "2024-09", "d": "2025-02"}
    scores = [
        _score(1, {x: (items[x], True), y: (items[y], True)}, "2024-06-30")
        for x, y in (("a", "b"), ("c", "d"), ("a", "d"))
    ]
    summary = recall_summary(CONTROL, _accuracy)
    with caplog.at_level(logging.INFO):
        values = summary(scores)
        summary(scores)  # a metric may be recomputed: still one warning
    assert math.isnan(values["estimated_cutoff"]) and values["estimated_cutoff_items"] == 4
    assert values["post_cutoff_recognized"] == 2 and values["clean_cutoff"] == 202502
    assert values["clean_items"] == 0 and math.isnan(values["accuracy_clean"])
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "contradicted" in warnings[0] and "recognised 2 of" in warnings[0]
    infos = [r.getMessage() for r in caplog.records]
    assert any("recognises every item, through 2025-02" in m for m in infos)


def test_every_task_is_declared_once_with_its_roles() -> None:
    specs = task_specs()
    tasty = specs["tastybench"]
    assert (tasty.headline, tasty.probes, tasty.post_cutoff_count) == (
        "bt_spearman",
        True,
        "post_cutoff_papers",
    )
    assert not specs["eqinfer"].dated and specs["eqinfer"].undated_reason
    # Every registered task is declared once, with the roles it reads (the sweep checks these).
    from research_taste_evals._registry import TASKS

    assert list(specs) == [getattr(t, "__name__", "") for t in TASKS]
    # The roles each spec declares agree with its family's demo run (no list here: a task
    # added in its folder is checked too): the demo binds only declared roles, and every
    # declared role without a default or a waiver.
    from research_taste.cli.demo import DEMO_RUNS

    for run in DEMO_RUNS:
        declared = {role.role: role for role in specs[run.name].roles}
        assert set(run.model_roles) <= set(declared), run.name
        required = {
            name
            for name, role in declared.items()
            if role.default is None and role.explicit is None and role.waived_by is None
        }
        assert required <= set(run.model_roles), run.name
