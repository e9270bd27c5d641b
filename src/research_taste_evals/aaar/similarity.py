"""AAAR-1.0 embedding and ROUGE measures, as the released code computes them (paper Section 4).

Pure numpy functions on L2-normalised embeddings (so cosine similarity is a dot product), written
from RenzeLou/AAAR-1.0 ``scripts/calculate_metrics_src.py`` (MIT): ``soft_accumulate`` (S-P/S-R/
S-F1, PaperWeakness), ``soft_score`` (S-Match, ExpDesign explanations), ``rouge_score`` and
``cross_focus_diversity`` (ITF-IDF). Upstream computes in float32 torch; we compute similarities in
float32 and aggregate in float64, so numbers agree to ~1e-6 (a rounded max lying exactly on a
0.005 boundary could in principle round the other way).

Degenerate inputs upstream would crash on (no non-empty reviewer list, an empty reference list)
return NaN here; an empty prediction scores 0, as upstream.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from research_taste_evals.core.stats import NAN

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

SIMILARITY_THRESHOLD = 0.5  # cross_focus_diversity(threshold=0.5)
MAX_SIM_DECIMALS = 2  # round(max_similarity, 2) in cross_focus_diversity
F1_EPSILON = 1e-10  # 2PR / (P + R + 1e-10) in soft_accumulate
EMPTY_LIST_PLACEHOLDER = "None"  # subtask3_metric_cross_diversity.py: [] -> ["None"]
ROUGE_TYPES = ("rouge1", "rougeL")
# Bound the cross-paper similarity block to this many float32 entries (64 MiB).
SIMILARITY_BLOCK_ENTRIES = 1 << 24


def _as_matrix(embeddings: Any, name: str) -> np.ndarray:
    import numpy as np

    matrix = np.asarray(embeddings, dtype=np.float32)
    if matrix.ndim == 1 and matrix.size == 0:
        return matrix.reshape(0, 0)
    if matrix.ndim != 2:
        raise ValueError(f"{name}: expected an (n, d) array, got shape {matrix.shape}")
    return matrix


def soft_precision_recall(
    pred_emb: np.ndarray, reviewer_embs: Sequence[np.ndarray]
) -> tuple[float, float, float]:
    """S-Precision, S-Recall and S-F1 of one paper's predicted weaknesses.

    S-P = mean over predictions i of (mean over reviewers k of max_j cos(p_i, g_jk));
    S-R = mean over reviewers k of (mean over their items j of max_i cos(g_jk, p_i));
    F1 = 2PR / (P + R + 1e-10). Raw cosine, no threshold (upstream ``soft_accumulate``).

    Args:
        pred_emb: (m, d) L2-normalised prediction embeddings.
        reviewer_embs: one (n_k, d) array per reviewer; reviewers with no items are skipped.

    Returns:
        ``(precision, recall, f1)``; ``(0, 0, 0)`` for an empty prediction; NaNs when no reviewer
        has any item (upstream crashes there).
    """
    import numpy as np

    preds = _as_matrix(pred_emb, "pred_emb")
    if preds.shape[0] == 0:
        return 0.0, 0.0, 0.0
    reviewers = [_as_matrix(r, f"reviewer_embs[{k}]") for k, r in enumerate(reviewer_embs)]
    reviewers = [r for r in reviewers if r.shape[0] > 0]
    if not reviewers:
        return NAN, NAN, NAN
    sizes = np.array([r.shape[0] for r in reviewers])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    sims = preds @ np.concatenate(reviewers).T  # (m, sum n_k), float32 like upstream
    best_per_reviewer = np.maximum.reduceat(sims, starts, axis=1).astype(np.float64)  # (m, r)
    precision = float(best_per_reviewer.mean(axis=1).mean())
    best_per_item = sims.max(axis=0).astype(np.float64)  # (sum n_k,)
    recall = float((np.add.reduceat(best_per_item, starts) / sizes).mean())
    f1 = 2 * precision * recall / (precision + recall + F1_EPSILON)
    return precision, recall, f1


def with_placeholder(items: Sequence[str]) -> list[str]:
    """The list ITF-IDF scores: ``["None"]`` for an empty prediction, as upstream does."""
    return list(items) if items else [EMPTY_LIST_PLACEHOLDER]


def _round_like_python(values: np.ndarray, decimals: int) -> np.ndarray:
    # Python's round(float(x), 2) on a float32 x: x * 100 is exact in float64 (24 + 7 bits), so
    # rint (half to even) on it is the correctly rounded result, as Python's round gives.
    import numpy as np

    return np.round(values.astype(np.float64), decimals)


def itf_idf_item_scores(
    per_paper_embs: Sequence[np.ndarray],
    threshold: float = SIMILARITY_THRESHOLD,
    block_entries: int = SIMILARITY_BLOCK_ENTRIES,
) -> list[np.ndarray]:
    """Per-item ITF-IDF scores, one float64 array per paper (upstream ``cross_focus_diversity``).

    For item i of paper j (m_j items, w papers), with similarities below ``threshold`` set to 0:
    O_ij = sum_k sim(p_ji, p_jk) over the same paper, self included;
    R_ij = 1 + sum_{l != j} round(max_s sim(p_ji, p_ls), 2), a rounded max below the threshold
    counting 0; score_ij = ln(m_j / O_ij) * ln(w / R_ij).

    Raises:
        ValueError: a paper has no items (pass ``with_placeholder`` lists, as upstream does), or
            the embedding dimensions differ.
    """
    import numpy as np

    papers = [_as_matrix(e, f"per_paper_embs[{j}]") for j, e in enumerate(per_paper_embs)]
    for j, paper in enumerate(papers):
        if paper.shape[0] == 0:
            raise ValueError(
                f"per_paper_embs[{j}] is empty: embed with_placeholder(items) (upstream scores "
                f"an empty list as [{EMPTY_LIST_PLACEHOLDER!r}])"
            )
    if not papers:
        return []
    if len({p.shape[1] for p in papers}) != 1:
        raise ValueError("per_paper_embs: all papers must have the same embedding dimension")
    n_papers = len(papers)
    sizes = np.array([p.shape[0] for p in papers])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    everything = np.ascontiguousarray(np.concatenate(papers))
    owner = np.repeat(np.arange(n_papers), sizes)
    total = everything.shape[0]

    others = np.empty(total, dtype=np.float64)  # sum over other papers of the rounded max
    rows_per_block = max(1, block_entries // total)
    for lo in range(0, total, rows_per_block):
        hi = min(total, lo + rows_per_block)
        sims = everything[lo:hi] @ everything.T  # (rows, total) float32
        best = _round_like_python(np.maximum.reduceat(sims, starts, axis=1), MAX_SIM_DECIMALS)
        best[best < threshold] = 0.0
        best[np.arange(hi - lo), owner[lo:hi]] = 0.0  # the paper itself is not "another paper"
        others[lo:hi] = best.sum(axis=1)
    in_other_papers = 1.0 + others

    scores: list[np.ndarray] = []
    for j, paper in enumerate(papers):
        own = paper @ paper.T  # self-similarity, float32, diagonal included
        occurrence = np.where(own < threshold, 0.0, own.astype(np.float64)).sum(axis=1)
        start = starts[j]
        spread = in_other_papers[start : start + sizes[j]]
        with np.errstate(divide="ignore", invalid="ignore"):
            scores.append(np.log(sizes[j] / occurrence) * np.log(n_papers / spread))
    return scores


def itf_idf(per_paper_embs: Sequence[np.ndarray], threshold: float = SIMILARITY_THRESHOLD) -> float:
    """Dataset ITF-IDF: mean over papers of the mean item score (see :func:`itf_idf_item_scores`).

    Args:
        per_paper_embs: one (m_j, d) L2-normalised array per paper, every m_j >= 1 (embed
            ``with_placeholder(items)`` for each paper's predicted list).
        threshold: similarity threshold (0.5 upstream).

    Returns:
        The score, NaN for no papers.
    """
    import numpy as np

    per_item = itf_idf_item_scores(per_paper_embs, threshold)
    if not per_item:
        return NAN
    return float(np.mean([scores.mean() for scores in per_item]))


def s_match(pred_embs: np.ndarray, ref_embs: np.ndarray) -> float:
    """S-Match: mean cosine of aligned (prediction k, reference k) pairs (upstream ``soft_score``).

    The longer list is truncated to the shorter one. 0 for an empty prediction; NaN for an empty
    reference with a non-empty prediction (upstream crashes there).
    """
    import numpy as np

    preds = _as_matrix(pred_embs, "pred_embs")
    refs = _as_matrix(ref_embs, "ref_embs")
    if refs.shape[0] == 0:
        return NAN
    if preds.shape[0] == 0:
        return 0.0
    n = min(preds.shape[0], refs.shape[0])
    return float(np.einsum("ij,ij->i", preds[:n], refs[:n]).astype(np.float64).mean())


@lru_cache(maxsize=1)
def rouge_scorer_instance() -> Any:
    """The shared ROUGE scorer; importing rouge_score pulls in NLTK (about a second).

    Scorers call this when they are built, so the import never runs mid-evaluation in a worker
    thread beside the event loop.
    """
    from rouge_score import rouge_scorer, tokenizers

    # The default tokenizer, given: left to pick it, rouge_score logs through absl, which calls
    # logging.basicConfig() and makes every later warning print twice (plain and Inspect's).
    tokenizer = tokenizers.DefaultTokenizer(use_stemmer=True)
    return rouge_scorer.RougeScorer(list(ROUGE_TYPES), use_stemmer=True, tokenizer=tokenizer)


def rouge_pair(prediction: str, reference: str) -> tuple[float, float]:
    """ROUGE-1 and ROUGE-L F-measure of one pair (rouge_score, Porter stemming)."""
    result = rouge_scorer_instance().score(target=reference, prediction=prediction)
    return float(result["rouge1"].fmeasure), float(result["rougeL"].fmeasure)


def rouge_scores(predictions: Sequence[str], references: Sequence[str]) -> tuple[float, float]:
    """Mean ROUGE-1 and ROUGE-L F-measure over aligned pairs (upstream ``rouge_score``).

    The longer list is truncated. ``(0, 0)`` for an empty prediction; NaNs for an empty reference
    with a non-empty prediction.
    """
    import numpy as np

    if not predictions:
        return 0.0, 0.0
    if not references:
        return NAN, NAN
    pairs = [rouge_pair(p, r) for p, r in zip(predictions, references, strict=False)]
    return float(np.mean([p[0] for p in pairs])), float(np.mean([p[1] for p in pairs]))


def macro_average(values: Iterable[float]) -> float:
    """Mean over papers, skipping NaN (papers that could not be scored); NaN if none remain.

    Papers with an empty prediction carry 0 (not NaN), so they count, as upstream.
    """
    import numpy as np

    finite = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    return float(np.mean(finite)) if finite else NAN
