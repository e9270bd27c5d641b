"""The packaged real model, end to end (marker local_llm: slow, deselected by default).

    python -m pytest tests/local_model -m local_llm

Skipped when the local-llm extra is not installed. The session converts the GGUF once into its
scratch cache (conftest's RESEARCH_TASTE_CACHE_DIR), a few minutes on a CPU.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from research_taste_evals.aaar.demo import write_demo_eqinfer
from research_taste_evals.aaar.eqinfer import eqinfer
from research_taste_evals.core.packaged_models import PackagedModelError
from research_taste_evals.core.task_metric import log_results
from research_taste_evals.reviewcritique.demo import write_demo_reviewcritique
from research_taste_evals.reviewcritique.reviewcritique import review_critique

pytestmark = [
    pytest.mark.local_llm,
    pytest.mark.skipif(
        importlib.util.find_spec("gguf") is None or importlib.util.find_spec("accelerate") is None,
        reason="the local-llm extra is not installed (pip install -e '.[local-llm]')",
    ),
]
MODEL = "local/smollm2-135m-instruct"


@pytest.fixture(autouse=True)
def _converted_model() -> None:
    """Convert the packaged GGUF (once per session); skip when its package is missing."""
    from research_taste.local.local_llm import converted_folder

    try:
        converted_folder("smollm2-135m-instruct")
    except PackagedModelError as error:
        pytest.skip(str(error))


def test_a_prompt_longer_than_a_small_context_is_counted_not_a_crash(tmp_path: Path) -> None:
    model = get_model(MODEL, context_length=256, max_new_tokens=8)
    task = review_critique(
        data_path=str(write_demo_reviewcritique(tmp_path / "rc")),
        bertscore_model="offline-minilm",
        bootstrap_resamples=20,
    )
    [log] = inspect_eval(task, model=model, limit=1, log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    outputs = [e.output for s in log.samples or [] for e in s.events if e.event == "model"]
    assert outputs and all(o.stop_reason == "model_length" for o in outputs)
    assert all("context overflow: the prompt has" in (o.error or "") for o in outputs)
    metrics = log_results(log)
    assert metrics["labeling_all_unparsed_rate"] == 1.0


def test_the_real_model_answers_a_task_end_to_end(tmp_path: Path) -> None:
    model = get_model(MODEL, max_new_tokens=8)
    task = eqinfer(data_path=str(write_demo_eqinfer(tmp_path / "eq")))
    [log] = inspect_eval(task, model=model, limit=1, log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    [sample] = log.samples or []
    assert sample.output.usage is not None and sample.output.usage.output_tokens > 0
