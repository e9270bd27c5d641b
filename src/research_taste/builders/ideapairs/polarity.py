"""Metric polarity: whether a higher value of a leaderboard metric is better, from its name.

Appendix A.1 of Mule et al. decides a metric's direction from its correlation with the
leaderboard rank. That reads the table's row order, and rows are not always listed best-first:
on the NLP-progress export the Word Sense Disambiguation tables are sorted ascending, and on
sota-extractor ``snli.json`` every table is (issue #18). Section 4 states what the check is for:
handle "lower-is-better" metrics (e.g. perplexity) by inversion. So the direction comes from
the metric's meaning where its name says it, and from the row order only where it does not.

Names are matched on lower-cased words (``"Top-1 Error (%)"`` -> ``top 1 error``). A
lower-is-better word wins over a higher-is-better one (``"F1 error"`` is an error).
"""

from __future__ import annotations

import re
from typing import Literal

Polarity = Literal["higher", "lower"]

# Words (or word sequences) naming a metric where higher is better.
HIGHER_IS_BETTER: tuple[str, ...] = (
    "accuracy",
    "acc",
    "f1",
    "f 1",
    "f score",
    "fscore",
    "f measure",
    "macro f1",
    "micro f1",
    "em",
    "exact match",
    "bleu",
    "sacrebleu",
    "chrf",
    "rouge",
    "rouge 1",
    "rouge 2",
    "rouge l",
    "meteor",
    "cider",
    "spice",
    "bertscore",
    "mrr",
    "map",
    "ndcg",
    "precision",
    "recall",
    "auc",
    "roc auc",
    "las",
    "uas",
    "pearson",
    "spearman",
    "correlation",
    "kappa",
    "hits",
    "hit",
    "score",
    "gleu",
    "sari",
    "smatch",
    "mcc",
    "r2",
    "correct",  # EFF's "Percentage correct" (its rows are listed oldest first)
)

# Words naming a metric where lower is better.
LOWER_IS_BETTER: tuple[str, ...] = (
    "error",
    "errors",
    "err",
    "error rate",
    "wer",
    "cer",
    "ter",
    "perplexity",
    "ppl",
    "loss",
    "mae",
    "mse",
    "rmse",
    "bpc",
    "bpb",
    "bits per character",
    "bits per byte",
    "bits per dim",
    "cross entropy",
    "nll",
    "edit distance",
    "distance",
    "eer",
    "fid",
    "mean rank",
)

_WORD_SPLIT = re.compile(r"[^a-z0-9]+")
# Columns that describe the model's size or cost, not its result (OGB's "Number of params"):
# they are left out of the unified score, whose columns must each measure performance.
_RESOURCE = re.compile(
    r"\b(params?|parameters|#\s*params?|model size|flops|macs|gpu hours?|training time)\b",
    re.IGNORECASE,
)


def is_resource(name: str) -> bool:
    """The column counts the model's size or cost (parameters, FLOPs), not a result."""
    return bool(_RESOURCE.search(name))


def _words(name: str) -> str:
    return " " + " ".join(w for w in _WORD_SPLIT.split(name.lower()) if w) + " "


def _mentions(words: str, terms: tuple[str, ...]) -> bool:
    return any(f" {term} " in words for term in terms)


def metric_polarity(name: str) -> Polarity | None:
    """``"higher"`` or ``"lower"`` when the metric's name says which is better, else None."""
    words = _words(name)
    if _mentions(words, LOWER_IS_BETTER):
        return "lower"
    if _mentions(words, HIGHER_IS_BETTER):
        return "higher"
    return None


_SENTENCE = re.compile(r"(?<=[.!?\n])\s+")
_ABOUT_METRICS = re.compile(r"metric|measure|evaluat", re.IGNORECASE)
# Rows whose name marks them as a reference point: a baseline is beaten by the methods on the
# board, human performance beats them (e.g. "MFS baseline", "Human Performance").
_BASELINE_ROW = re.compile(r"\b(baseline|random|majority|most frequent)\b", re.IGNORECASE)
_HUMAN_ROW = re.compile(r"\bhuman\b", re.IGNORECASE)


def described_polarity(description: str) -> Polarity | None:
    """The polarity of the metric a board's description names in a sentence about metrics.

    "The main evaluation measure is F1-score." -> higher. None when no such sentence names a
    known metric, or the sentences name metrics of both polarities.
    """
    found: set[Polarity] = set()
    for sentence in _SENTENCE.split(description):
        if _ABOUT_METRICS.search(sentence):
            words = _words(sentence)
            found |= {"lower"} if _mentions(words, LOWER_IS_BETTER) else set()
            found |= {"higher"} if _mentions(words, HIGHER_IS_BETTER) else set()
    return found.pop() if len(found) == 1 else None


REFERENCE_END = 0.2  # a reference row lies in the lowest or highest fifth of the value range


def anchored_polarity(methods: list[str], values: list[float]) -> Polarity | None:
    """The polarity the board's named reference rows imply: baselines low, humans high.

    None when the board has no such row at an end of the value range (lowest or highest
    fifth), or the anchors disagree or sit level with the rest.
    """

    def mean(indices: list[int]) -> float | None:
        return sum(values[i] for i in indices) / len(indices) if indices else None

    low, high = min(values), max(values)

    def extreme(i: int) -> bool:
        # A reference point sits at an end of the board: a row named "... Baseline" in the
        # middle (CoQA's "BERT Large Finetuned Baseline") is a method, not a floor.
        share = (values[i] - low) / (high - low) if high > low else 0.5
        return share <= REFERENCE_END or share >= 1 - REFERENCE_END

    human = [i for i, m in enumerate(methods) if _HUMAN_ROW.search(m) and extreme(i)]
    baseline = [
        i
        for i, m in enumerate(methods)
        if _BASELINE_ROW.search(m) and i not in human and extreme(i)
    ]
    others = mean([i for i in range(len(methods)) if i not in human and i not in baseline])
    if others is None:
        return None
    votes = 0
    for anchor, sign in ((mean(baseline), -1), (mean(human), 1)):
        if anchor is not None and anchor != others:
            votes += sign if anchor > others else -sign
    return "higher" if votes > 0 else "lower" if votes < 0 else None
