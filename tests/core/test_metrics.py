from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score
from sklearn.metrics import f1_score, precision_score, recall_score

from research_taste_evals.core.metrics import (
    decision_accuracy,
    decision_f1,
    decision_precision,
    decision_recall,
    decision_value,
    unparsed_rate,
)
from research_taste_evals.core.stats import precision_recall_f1


def _scores(pairs: list[tuple[int, int | None]], policy: str) -> list[SampleScore]:
    return [
        SampleScore(score=Score(value=decision_value(label, pred, policy)))  # type: ignore[arg-type]
        for label, pred in pairs
    ]


def test_precision_recall_f1_agrees_with_sklearn() -> None:
    labels = [1, 0, 0, 0, 1, 0, 1, 0]
    preds = [1, 1, 0, 0, 0, 1, 1, 0]
    tp = sum(1 for y, p in zip(labels, preds, strict=True) if y == p == 1)
    fp = sum(1 for y, p in zip(labels, preds, strict=True) if y == 0 and p == 1)
    fn = sum(1 for y, p in zip(labels, preds, strict=True) if y == 1 and p == 0)
    precision, recall, f1 = precision_recall_f1(tp, fp, fn)
    assert precision == pytest.approx(precision_score(labels, preds))
    assert recall == pytest.approx(recall_score(labels, preds))
    assert f1 == pytest.approx(f1_score(labels, preds))


def test_all_positive_on_one_in_four_gives_paper_row() -> None:
    # The AAAR-1.0 All-Positive row: F1 40.00, P 25.00, R 100.00.
    scores = _scores([(1, 1), (0, 1), (0, 1), (0, 1)] * 5, "strict")
    assert decision_f1()(scores) == pytest.approx(0.4, abs=1e-12)
    assert decision_precision()(scores) == pytest.approx(0.25, abs=1e-12)
    assert decision_recall()(scores) == pytest.approx(1.0, abs=1e-12)


def test_strict_excludes_unparsed_from_f1_but_counts_it() -> None:
    # Hand-worked: parsed decisions (1,1), (0,0), (1,0) -> tp 1, fn 1, tn 1: P 1, R 0.5, F1 2/3.
    scores = _scores([(1, 1), (0, 0), (1, 0), (0, None)], "strict")
    assert decision_precision()(scores) == pytest.approx(1.0)
    assert decision_recall()(scores) == pytest.approx(0.5)
    assert decision_f1()(scores) == pytest.approx(2 / 3)
    assert decision_accuracy()(scores) == pytest.approx(2 / 3)
    assert unparsed_rate()(scores) == pytest.approx(0.25)


def test_faithful_scores_unparsed_as_the_wrong_label() -> None:
    # (0, None) becomes a false positive: tp 1, fp 1, fn 1 -> P 0.5, R 0.5.
    scores = _scores([(1, 1), (0, 0), (1, 0), (0, None)], "faithful")
    assert decision_precision()(scores) == pytest.approx(0.5)
    assert decision_recall()(scores) == pytest.approx(0.5)
    assert decision_accuracy()(scores) == pytest.approx(0.5)
    assert unparsed_rate()(scores) == pytest.approx(0.25)


def test_degenerate_inputs_are_nan_not_errors() -> None:
    assert math.isnan(decision_f1()([]))
    assert math.isnan(unparsed_rate()([]))
    only_unparsed = _scores([(1, None)], "strict")
    assert math.isnan(decision_f1()(only_unparsed))
    assert math.isnan(decision_accuracy()(only_unparsed))


def test_epoch_means_keep_pooled_f1() -> None:
    # Two epochs of one positive sample: predicted 1 then 0 -> mean tp 0.5, fn 0.5.
    reduced = [
        SampleScore(score=Score(value={"tp": 0.5, "fp": 0, "fn": 0.5, "tn": 0, "unparsed": 0}))
    ]
    assert decision_recall()(reduced) == pytest.approx(0.5)
    assert decision_f1()(reduced) == pytest.approx(2 / 3)


def test_nan_on_error_gives_every_figure_nan_and_logs_the_cause(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from research_taste_evals.core.metrics import nan_on_error

    def broken() -> dict[str, float]:
        raise ZeroDivisionError("no papers")

    figures = nan_on_error("example metric", ["rho", "n"], broken)
    assert list(figures) == ["rho", "n"] and all(math.isnan(v) for v in figures.values())
    assert "example metric failed" in caplog.text and "ZeroDivisionError" in caplog.text
    assert nan_on_error("fine", ["rho"], lambda: {"rho": 0.5}) == {"rho": 0.5}
