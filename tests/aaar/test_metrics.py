"""Hand-worked checks of the AAAR-1.0 embedding and ROUGE measures (paper Section 4, App. B.1)."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pytest

from research_taste_evals.aaar.similarity import (
    EMPTY_LIST_PLACEHOLDER,
    itf_idf,
    itf_idf_item_scores,
    macro_average,
    rouge_scores,
    s_match,
    soft_precision_recall,
    with_placeholder,
)

E1 = np.array([1.0, 0.0], np.float32)
E2 = np.array([0.0, 1.0], np.float32)
U = np.array([0.6, 0.8], np.float32)  # cos(E1, U) = 0.6, cos(E2, U) = 0.8


def rows(*vectors: np.ndarray) -> np.ndarray:
    return np.stack(vectors).astype(np.float32)


# --- S-Precision / S-Recall / S-F1 -------------------------------------------------------------


def test_soft_precision_recall_hand_worked_with_empty_reviewer() -> None:
    # Reviewer 2 wrote nothing and is skipped.
    # P: E1 -> mean(max(1, .6), .6) = .8; E2 -> mean(max(0, .8), .8) = .8; P = .8
    # R: reviewer 1 -> mean(max(1, 0), max(.6, .8)) = .9; reviewer 3 -> .8; R = .85
    p, r, f1 = soft_precision_recall(
        rows(E1, E2), [rows(E1, U), np.zeros((0, 2), np.float32), rows(U)]
    )
    assert p == pytest.approx(0.8, abs=1e-6)
    assert r == pytest.approx(0.85, abs=1e-6)
    assert f1 == pytest.approx(2 * 0.8 * 0.85 / 1.65, abs=1e-6)


def test_soft_precision_recall_uses_raw_cosine_without_threshold() -> None:
    # One prediction orthogonal/opposite to everything: negative cosine is kept, no 0.5 cut.
    p, r, _ = soft_precision_recall(rows(-E1), [rows(E1, U)])
    assert p == pytest.approx(-0.6, abs=1e-6)  # max(-1, -.6)
    assert r == pytest.approx(-0.8, abs=1e-6)  # mean(-1, -.6)


def test_soft_precision_recall_empty_prediction_is_zero() -> None:
    assert soft_precision_recall(np.zeros((0, 2), np.float32), [rows(E1)]) == (0.0, 0.0, 0.0)


def test_soft_precision_recall_without_any_reviewer_item_is_nan() -> None:
    p, r, f1 = soft_precision_recall(rows(E1), [np.zeros((0, 2), np.float32)])
    assert math.isnan(p) and math.isnan(r) and math.isnan(f1)


def test_soft_precision_recall_rejects_bad_shapes() -> None:
    with pytest.raises(ValueError, match="pred_emb"):
        soft_precision_recall(np.ones((2, 2, 2)), [rows(E1)])


# --- ITF-IDF ------------------------------------------------------------------------------------

# Five items in three papers, A = [a1, a2], B = [b1, b2], C = [c1], with these cosines:
GRAM = np.array(
    [
        [1.0, 0.3, 0.496, 0.1, 0.704],  # a1
        [0.3, 1.0, 0.494, 0.1, 0.2],  # a2
        [0.496, 0.494, 1.0, 0.8, 0.6],  # b1
        [0.1, 0.1, 0.8, 1.0, 0.55],  # b2
        [0.704, 0.2, 0.6, 0.55, 1.0],  # c1
    ]
)


def gram_papers() -> list[np.ndarray]:
    items = np.linalg.cholesky(GRAM).astype(np.float32)  # rows with exactly these dot products
    return [items[0:2], items[2:4], items[4:5]]


def test_itf_idf_hand_worked() -> None:
    # O (same paper, < .5 -> 0, self included): a1 = a2 = 1 (.3 dropped); b1 = b2 = 1.8; c1 = 1.
    # R = 1 + sum over other papers of round(max, 2), a rounded max < .5 -> 0:
    #   a1: B max .496 rounds UP to .50 (kept), C .704 -> .70          => 2.2
    #   a2: B max .494 rounds to .49 (dropped), C .2 (dropped)         => 1.0
    #   b1: A max .496 -> .50, C .6                                    => 2.1
    #   b2: A max .1 (dropped), C .55                                  => 1.55
    #   c1: single item, ln(1/1) = 0 whatever R is.
    ln = math.log
    paper_a = (ln(2 / 1) * ln(3 / 2.2) + ln(2 / 1) * ln(3 / 1.0)) / 2
    paper_b = (ln(2 / 1.8) * ln(3 / 2.1) + ln(2 / 1.8) * ln(3 / 1.55)) / 2
    assert itf_idf(gram_papers()) == pytest.approx((paper_a + paper_b + 0.0) / 3, rel=1e-6)
    per_item = itf_idf_item_scores(gram_papers())
    assert per_item[0] == pytest.approx([ln(2) * ln(3 / 2.2), ln(2) * ln(3)], rel=1e-6)
    assert per_item[2] == pytest.approx([0.0], abs=1e-12)


def test_itf_idf_blocking_does_not_change_the_result() -> None:
    whole = itf_idf_item_scores(gram_papers())
    tiny_blocks = itf_idf_item_scores(gram_papers(), block_entries=1)
    for a, b in zip(whole, tiny_blocks, strict=True):
        np.testing.assert_array_equal(a, b)


def _loop_itf_idf(papers: list[np.ndarray], threshold: float = 0.5) -> float:
    """Straightforward loop version of the released code's cross_focus_diversity."""
    w = len(papers)
    max_to_other: dict[int, list[list[float]]] = {j: [] for j in range(w)}
    for j, pj in enumerate(papers):
        per_item: dict[int, list[float]] = defaultdict(list)
        for k, pk in enumerate(papers):
            if j == k:
                continue
            best = (pj @ pk.T).max(axis=1)
            for i, value in enumerate(best):
                per_item[i].append(round(float(value), 2))
        max_to_other[j] = [per_item[i] for i in range(len(pj))]
    paper_means = []
    for j, pj in enumerate(papers):
        own = pj @ pj.T
        item_scores = []
        for i in range(len(pj)):
            row = own[i].copy()
            row[row < threshold] = 0
            occurrence = float(row.sum())
            maxima = np.array(max_to_other[j][i])
            maxima[maxima < threshold] = 0
            spread = 1 + float(maxima.sum())
            item_scores.append(math.log(len(pj) / occurrence) * math.log(w / spread))
        paper_means.append(np.mean(item_scores))
    return float(np.mean(paper_means))


def test_itf_idf_matches_a_loop_implementation_on_random_data() -> None:
    rng = np.random.default_rng(7)
    base = rng.normal(size=(6, 16))  # shared topics make many similarities exceed 0.5
    papers = []
    for _ in range(25):
        n = int(rng.integers(1, 8))
        raw = base[rng.integers(0, 6, size=n)] + 0.6 * rng.normal(size=(n, 16))
        papers.append((raw / np.linalg.norm(raw, axis=1, keepdims=True)).astype(np.float32))
    assert itf_idf(papers) == pytest.approx(_loop_itf_idf(papers), rel=1e-6)


def test_itf_idf_empty_paper_needs_the_none_placeholder() -> None:
    assert with_placeholder([]) == [EMPTY_LIST_PLACEHOLDER] == ["None"]
    assert with_placeholder(["a", "b"]) == ["a", "b"]
    with pytest.raises(ValueError, match="with_placeholder"):
        itf_idf([rows(E1), np.zeros((0, 2), np.float32)])


def test_itf_idf_degenerate_inputs() -> None:
    assert math.isnan(itf_idf([]))
    assert itf_idf([rows(E1, E2)]) == 0.0  # one paper: ln(w / R) = ln(1 / 1) = 0


# --- S-Match and ROUGE (ExpDesign explanations) -------------------------------------------------


def test_s_match_truncates_the_longer_list() -> None:
    # Aligned pairs (E1, U) = .6 and (U, U) = 1; the third prediction has no partner.
    assert s_match(rows(E1, U, E2), rows(U, U)) == pytest.approx(0.8, abs=1e-6)
    assert s_match(rows(U), rows(E1, E2)) == pytest.approx(0.6, abs=1e-6)


def test_s_match_empty_lists() -> None:
    assert s_match(np.zeros((0, 2), np.float32), rows(U)) == 0.0
    assert math.isnan(s_match(rows(U), np.zeros((0, 2), np.float32)))


def test_rouge_scores_hand_worked() -> None:
    # "cats" stems to "cat": 3 of 6 reference unigrams, all 3 predicted -> F = 2/3 for both.
    # "sat cat the" vs "the cat sat": ROUGE-1 F = 1, LCS = 1 token -> ROUGE-L F = 1/3.
    # "a dog" vs "the cat": 0. The fourth prediction is truncated away.
    r1, rl = rouge_scores(
        ["the cats sat", "sat cat the", "a dog", "extra"],
        ["the cat sat on the mat", "the cat sat", "the cat"],
    )
    assert r1 == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert rl == pytest.approx((2 / 3 + 1 / 3 + 0) / 3)


def test_rouge_scores_empty_lists() -> None:
    assert rouge_scores([], ["x"]) == (0.0, 0.0)
    assert all(math.isnan(v) for v in rouge_scores(["x"], []))


def test_macro_average_counts_zeros_and_skips_nan() -> None:
    assert macro_average([0.5, math.nan, 0.0, 1.0]) == pytest.approx(0.5)
    assert math.isnan(macro_average([math.nan]))
    assert math.isnan(macro_average([]))
