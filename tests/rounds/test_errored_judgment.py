"""Issue 61: ``round score`` never scores an errored judgment as decisions, and every figure a
scored log reports about the round (labelled share, pending and dropped items) is the round's.

A judgment that ended as ``error`` (its samples failed, or none ran) is skipped and named with
what to do; a successful judgment whose samples partly errored is scored without them (an
errored sample is neither right, wrong nor unclear); a ``--limit 6`` judgment's scored log
counts the round's paired items (pending, labelled, dropped), as ``round resolve`` and the full
judgment's scored log do."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from inspect_ai.log import EvalError, list_eval_logs, read_eval_log, write_eval_log
from judged_round import FULL, judged_round
from openreview_round import T1

from research_taste.rounds.score import score_round
from research_taste_evals.core.rounds import load_round, newest_labels, paired_counts

pytestmark = pytest.mark.slow

FAILURE = EvalError(message="RuntimeError: provider down", traceback="", traceback_ansi="")


def _name(location: str) -> str:
    return location.rsplit("/", 1)[-1]


def _metrics(path: str) -> dict[str, float]:
    log = read_eval_log(path)
    assert log.results is not None
    return {n: m.value for group in log.results.scores for n, m in group.metrics.items()}


def test_errored_judgments_are_not_decisions_and_round_figures_are_the_rounds(
    tmp_path: Path,
) -> None:
    judges = [("baseline/random", FULL), ("baseline/tastybench-first", 6)]
    judges += [("baseline/tastybench-longer", FULL), ("baseline/tastybench-lead", FULL)]
    # resolved before any review: every paired item of the round pending, 6 of the limited run's
    folder, logs = judged_round(tmp_path, judges, resolve_at=T1 - dt.timedelta(days=1))
    by_model = {
        read_eval_log(i, header_only=True).eval.model: i.name for i in list_eval_logs(str(logs))
    }
    failed = read_eval_log(by_model["baseline/tastybench-longer"])
    failed.status, failed.error = "error", FAILURE
    for sample in failed.samples or []:
        sample.error, sample.output.choices = FAILURE, []
    write_eval_log(failed, failed.location)
    empty = read_eval_log(by_model["baseline/tastybench-lead"])
    empty.status, empty.error, empty.samples = "error", FAILURE, []
    write_eval_log(empty, empty.location)
    partly = read_eval_log(by_model["baseline/random"])
    assert partly.samples and len(partly.samples) > 2
    for sample in partly.samples[:2]:
        sample.error = FAILURE
    write_eval_log(partly, partly.location)

    said: list[str] = []
    skipped: list[str] = []
    scored = {
        entry.model: entry.scored for entry in score_round(folder, logs, None, skipped, said.append)
    }
    assert sorted(scored) == ["baseline/random", "baseline/tastybench-first"]
    assert len(skipped) == 2
    for sentence in skipped:
        assert "ended as 'error'" in sentence and "inspect eval-retry" in sentence
    for model in ("baseline/tastybench-longer", "baseline/tastybench-lead"):
        assert any(_name(by_model[model]) in sentence for sentence in skipped), model
    [note] = [line for line in said if "errored" in line]
    assert _name(by_model["baseline/random"]) in note and "2 of" in note
    kept = read_eval_log(scored["baseline/random"]).samples or []
    assert len(kept) == len(partly.samples) - 2
    assert all(sample.error is None for sample in kept)

    round_ = load_round(folder)
    counts = paired_counts(round_, newest_labels(round_))
    assert counts.pending > 6  # more than the limited run's items: a figure to get wrong
    for model in scored:
        figures = _metrics(scored[model])
        assert figures["labelled_share"] == pytest.approx(counts.labelled_share), model
        assert figures["pending_items"] == counts.pending, model
        assert figures["dropped_items"] == counts.dropped, model
