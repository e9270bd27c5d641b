"""``research-taste sweep --dry-run``: samples after task filters, calls, tokens and cost."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.event import ModelEvent
from inspect_ai.log import resolve_sample_attachments

from research_taste.cli import main
from research_taste.cli.demo import run_demo
from research_taste.cli.sweep import PlannedRun
from research_taste.cli.sweep_estimate import estimate, estimate_tokens
from research_taste.cli.sweep_load import load_sweep
from research_taste.cli.sweep_schema import SweepConfig
from research_taste_evals.core.recognition import is_probe_prompt

# The tasks whose first prompt is the sample's text (the demo's arguments, demo data).
DEMO_ARGS = {
    "eqinfer": {"data_path": "demo"},
    "tastybench": {"data_path": "demo", "schedule": "all_pairs"},
    "idea_pairs": {"pairs_file": "demo", "split": "all"},
    "review_critique": {"data_path": "demo", "bertscore_model": "offline-minilm"},
}


def _tokenizer():  # type: ignore[no-untyped-def]
    """The packaged all-MiniLM tokenizer (the ``offline`` extra), loaded offline."""
    pytest.importorskip("transformers")
    from transformers import AutoTokenizer

    from research_taste_evals.core.packaged_models import OFFLINE_MINILM, packaged_model_folder

    try:
        folder, _ = packaged_model_folder(OFFLINE_MINILM)
    except Exception as error:  # noqa: BLE001 - the extra is not installed
        pytest.skip(f"packaged MiniLM unavailable: {error}")
    return AutoTokenizer.from_pretrained(str(folder))


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_input_estimate_is_within_20_percent_of_a_tokenizer_count_of_a_demo_run(
    tmp_path: Path,
) -> None:
    tokenizer = _tokenizer()
    logs = run_demo(log_dir=str(tmp_path / "logs"), only=list(DEMO_ARGS))
    config = SweepConfig(log_dir=str(tmp_path / "sweep"), tasks=[{"task": "eqinfer"}])
    rendered: dict[str, list[int]] = {}
    for log in logs:
        task = log.eval.task.rsplit("/", 1)[-1]
        counted = 0
        for stored in log.samples or []:
            sample = resolve_sample_attachments(stored)
            first = next(  # the task's own question: the recognition probe's calls come apart
                e
                for e in sample.events
                if isinstance(e, ModelEvent)
                and e.role is None
                and not is_probe_prompt(e.input[-1].text)
            )
            counted += sum(
                len(tokenizer(m.text, add_special_tokens=False)["input_ids"]) for m in first.input
            )
        run = PlannedRun(task, DEMO_ARGS[task], log.eval.model, {})
        estimated = estimate(run, config, rendered).input_tokens
        assert estimated is not None and counted > 0
        assert abs(estimated - counted) <= 0.2 * counted, (task, estimated, counted)


def test_estimate_tokens_counts_words_pieces_digits_and_marks() -> None:
    # "Hello" 1, "," 1, "internationalisation" (20 letters: 3 pieces of 8), "4" "2" 2, "\" "(" 2.
    assert estimate_tokens("Hello, internationalisation 42 \\(") == 1 + 1 + 3 + 2 + 2


def _sweep(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "sweep.yaml"
    path.write_text(f"log_dir: {tmp_path / 'logs'}\n{body}", encoding="utf-8")
    return path


def test_dry_run_counts_samples_after_task_ids_and_prices_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """lft task_ids=petunia-plastid is one rubric: 1 sample (it was 4, the eval.yaml count)."""
    path = _sweep(
        tmp_path,
        "models: [baseline/lft-generic-protocol]\n"
        "model_roles: {grader: [baseline/lft-grader, baseline/lft-grader]}\n"
        "tasks: [{task: lft, args: {task_ids: petunia-plastid}},\n"
        "        {task: eqinfer, args: {data_path: demo}, models: [baseline/all-positive]}]\n"
        "limit: 10\n"
        "epochs: 2\n"
        "prices: {baseline/all-positive: {input: 3.0, output: 15.0}}\n",
    )
    assert main(["sweep", str(path), "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    lft_line = next(line for line in lines if " lft " in line)
    # 1 sample x 2 epochs; calls per sample: 1 (model) + 10 x 2 graders (eval.yaml) = 21.
    assert "samples=2 " in lft_line and "~calls=42" in lft_line and "cost=?" in lft_line
    config = load_sweep(path)
    run = PlannedRun("eqinfer", {"data_path": "demo"}, "baseline/all-positive", {})
    figures = estimate(run, config, {})
    # 24 demo equations, limit 10, 2 epochs: 20 samples; eqinfer asks for at most 200 tokens.
    assert figures.samples == 20 and figures.output_ceiling == 20 * 200
    assert figures.input_tokens is not None
    expected = (figures.input_tokens * 3.0 + 4000 * 15.0) / 1_000_000
    assert figures.cost == pytest.approx(expected)
    eq_line = next(line for line in lines if " eqinfer " in line)
    assert f"cost=${expected:,.2f}" in eq_line and "out_tokens<=4,000" in eq_line
    assert lines[-1].startswith("2 runs, about 62 model calls")


def test_a_sweep_prints_each_build_warning_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A task is built once per model: its build-time warning would print once per model."""
    import logging

    from research_taste.cli.sweep import each_warning_once

    monkeypatch.setattr(logging.getLogger(), "handlers", [])  # as in the CLI: none configured
    logger = logging.getLogger("research_taste_evals.ideapairs.dataset")
    with each_warning_once():
        for _ in range(2):
            logger.warning("idea_pairs: only %d pairs", 17)
        logger.warning("another warning")
    assert capsys.readouterr().err.splitlines() == ["idea_pairs: only 17 pairs", "another warning"]
    assert logging.getLogger().handlers == []
