"""The task end to end on the demo rows: the TastyBench wording, epochs, unreadable answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from log_metrics import metrics_of
from mock_models import scripted_model

from research_taste_evals.core.recognition import NOT_RECOGNISED, is_probe_prompt
from research_taste_evals.scijudge import scijudge

pytestmark = pytest.mark.slow


def test_the_tastybench_wording_reads_project_answers(tmp_path: Path) -> None:
    task = scijudge(data_path="demo", prompt="tastybench", bootstrap_resamples=50)
    first = task.dataset[0]
    assert isinstance(first.input, str) and first.input.startswith("I’m a researcher")
    assert "Project 1: Routing tokens" in first.input
    (log,) = inspect_eval(task, model="baseline/scijudge-oracle", log_dir=str(tmp_path))
    assert metrics_of(log)["accuracy"] == 1.0
    assert log.eval.metadata and log.eval.metadata["provenance"]["prompt_variant"] == "tastybench"


def test_epochs_keep_every_figure(tmp_path: Path) -> None:
    task = scijudge(data_path="demo", bootstrap_resamples=50)
    (one,) = inspect_eval(task, model="baseline/scijudge-always-a", log_dir=str(tmp_path / "1"))
    task = scijudge(data_path="demo", bootstrap_resamples=50)
    (two,) = inspect_eval(
        task, model="baseline/scijudge-always-a", epochs=2, log_dir=str(tmp_path / "2")
    )
    once, twice = metrics_of(one), metrics_of(two)
    assert set(once) == set(twice)
    for name in ("accuracy", "accuracy_ci_low", "accuracy_ci_high", "position_a_share", "pairs"):
        assert twice[name] == pytest.approx(once[name]), name


def test_an_unreadable_answer_is_asked_once_by_default_then_counted_wrong(tmp_path: Path) -> None:
    calls: list[str] = []

    def respond(messages: list[ChatMessage]) -> str:
        if is_probe_prompt(messages[-1].text):
            return NOT_RECOGNISED
        calls.append(messages[-1].text)
        return "Hard to say."

    task = scijudge(data_path="demo", bootstrap_resamples=50)
    assert task.metadata and task.metadata["reask"] == 0
    assert task.metadata["provenance"]["paper_faithful"]["reask"] is True
    (log,) = inspect_eval(task, model=scripted_model(respond), log_dir=str(tmp_path))
    metrics = metrics_of(log)
    assert len(calls) == len(task.dataset), "one call per answer: the paper asks once"
    assert (metrics["unparsed_rate"], metrics["reasked_rate"]) == (1.0, 0.0)
    assert metrics["accuracy"] == 0.0
    assert metrics["position_a_share"] != metrics["position_a_share"]  # NaN: nothing read


def test_a_reask_when_asked_for_is_marked_as_not_the_paper_s_protocol(tmp_path: Path) -> None:
    def respond(messages: list[ChatMessage]) -> str:
        return NOT_RECOGNISED if is_probe_prompt(messages[-1].text) else "Hard to say."

    task = scijudge(data_path="demo", reask=1, bootstrap_resamples=50)
    assert task.metadata and task.metadata["provenance"]["paper_faithful"]["reask"] is False
    (log,) = inspect_eval(task, model=scripted_model(respond), log_dir=str(tmp_path))
    assert metrics_of(log)["reasked_rate"] == 1.0
