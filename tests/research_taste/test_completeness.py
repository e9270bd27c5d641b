"""A run that lost samples under fail_on_error=False is reported partial, with its counts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage, Model

from research_taste.completeness import (
    PARTIAL,
    SAMPLES_COMPLETED,
    SAMPLES_TOTAL,
    run_completeness,
)
from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
FAIL_EVERY = 4  # every fourth model call raises


@pytest.mark.parametrize("lose_samples", [False, True])
def test_partial_run_counts_completed_of_total(
    scripted_model: ScriptedModel, tmp_path: Path, lose_samples: bool
) -> None:
    data = write_demo_eqinfer(tmp_path / "data")

    calls = {"n": 0}

    def flaky(messages: list[ChatMessage]) -> str:
        calls["n"] += 1
        if lose_samples and calls["n"] % FAIL_EVERY == 0:
            raise RuntimeError("provider down")
        return "Yes"

    log = inspect_eval(
        eqinfer(data_path=str(data)),
        model=scripted_model(flaky),
        fail_on_error=False,
        retry_on_error=0,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert log.status == "success"  # Inspect's own status hides the loss
    header = read_eval_log(log.location, header_only=True)
    block = run_completeness(header)
    errored = sum(1 for sample in log.samples or [] if sample.error)
    assert block[SAMPLES_TOTAL] == len(log.samples or [])
    assert block[SAMPLES_COMPLETED] == block[SAMPLES_TOTAL] - errored
    assert block[PARTIAL] is lose_samples
    assert (errored > 0) is lose_samples
    assert set(block["scored_samples"].values()) == {block[SAMPLES_COMPLETED]}
