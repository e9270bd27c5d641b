"""Explanation quality: ROUGE-1/2/L and BERTScore of the model's explanation vs the human one.

AAAR-1.0 Section 5.4 (Table 8, from Du et al., 2024) scores explanations only on segments the
model correctly flags as deficient. Neither paper names the BERTScore model; we use the
``bert-score`` package's default for English (``roberta-large``, layer 17, no idf, no baseline
rescaling), loaded from the Hub by name at a revision that is recorded (pin it with
``bertscore_revision``). Table 8's BERTScores (55-57) lie far below the ~0.83 that unrescaled
roberta-large gives even unrelated English sentences, so Du et al. probably rescaled with
bert-score's baseline (``rescale_with_baseline=True``) or used another model: we report the raw
F1 (bert-score's default) and, from the same pairs, the rescaled one, (F1 - b) / (1 - b) with
bert-score's packaged baseline b for roberta-large layer 17. Offline, ``offline-minilm`` names
the packaged all-MiniLM-L6-v2 BERT weights (last of its 6 layers) explicitly; logs mark that as
not paper-faithful. ROUGE uses ``rouge-score`` with Porter stemming, as the AAAR-1.0 release
code does for its other tasks.

A BERTScore model that cannot be loaded never stops the run and is never replaced: the task
records why in its metadata and every BERTScore is NaN (counted as unscored).

Both scores are cached on disk like embeddings (``core/embedding_cache``), keyed by the pair's
texts: BERTScore per (model, resolved revision, layer, bert-score version), ROUGE per
(rouge-score version, types, stemming). The BERTScore weights are loaded on the first pair the
cache lacks, so a warm re-score loads and computes nothing.
"""

from __future__ import annotations

import csv
import importlib.metadata
import importlib.resources
import logging
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from research_taste_evals.core.data import cache_dir
from research_taste_evals.core.embedding_cache import EmbeddingCache, pair_hash
from research_taste_evals.core.embeddings import (
    OFFLINE_MODEL,
    quiet_weight_loading,
    resolve_model,
)
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.stats import NAN

if TYPE_CHECKING:
    import numpy as np  # imported where used: ~60 ms off the registry import

logger = logging.getLogger(__name__)

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
PAPER_BERTSCORE_MODEL = "roberta-large"  # bert_score.utils.lang2model["en"]
PAPER_BERTSCORE_HUB_REPO = "FacebookAI/roberta-large"
PAPER_BERTSCORE_LAYERS = 17  # bert_score.utils.model2layers["roberta-large"]
OFFLINE_BERTSCORE_LAYERS = 6  # all-MiniLM-L6-v2 has 6 layers; its sentence vectors use the last
BERTSCORE_BATCH_SIZE = 32
_HUB_FILES = ["*.json", "*.txt", "model.safetensors"]
BASELINE_LANGUAGE = "en"
CACHE_SUBDIR = "explanation_scores"


def rescale_baseline(model: str, layer: int) -> float | None:
    """bert-score's packaged F1 baseline for ``model`` at ``layer`` (None if it ships none)."""
    resource = importlib.resources.files("bert_score").joinpath(
        f"rescale_baseline/{BASELINE_LANGUAGE}/{model}.tsv"
    )
    if not resource.is_file():
        return None
    rows = list(csv.DictReader(resource.read_text(encoding="utf-8").splitlines()))
    # bert-score indexes the table by row position = layer (its ``iloc[num_layers]``).
    return float(rows[layer]["F"]) if layer < len(rows) else None


@lru_cache(maxsize=1)
def rouge_scorer_instance() -> Any:
    """The shared ROUGE scorer (built when the scorer is, so NLTK never loads mid-run)."""
    from rouge_score import rouge_scorer, tokenizers

    # The default tokenizer, given: left to pick it, rouge_score logs through absl, which calls
    # logging.basicConfig() and makes every later warning print twice (plain and Inspect's).
    tokenizer = tokenizers.DefaultTokenizer(use_stemmer=True)
    return rouge_scorer.RougeScorer(list(ROUGE_TYPES), use_stemmer=True, tokenizer=tokenizer)


def rouge_triplet(prediction: str, reference: str) -> dict[str, float]:
    """ROUGE-1/2/L F-measure of one explanation pair."""
    result = rouge_scorer_instance().score(target=reference, prediction=prediction)
    return {name: float(result[name].fmeasure) for name in ROUGE_TYPES}


def _score_cache(label: str, identity: str) -> EmbeddingCache:
    return _opened_score_cache(cache_dir() / CACHE_SUBDIR, label, identity)


@lru_cache(maxsize=8)
def _opened_score_cache(root: Path, label: str, identity: str) -> EmbeddingCache:
    import numpy as np

    return EmbeddingCache(root, label, identity, dtype=np.float64)


def cached_pair_scores(
    cache: EmbeddingCache | None,
    pairs: list[tuple[str, str]],
    compute: Any,
) -> list[np.ndarray | None]:
    """One score row per (candidate, reference) pair: from ``cache``, else ``compute(missing)``.

    ``compute`` takes the distinct uncached pairs and returns one row each, or None when the
    scores cannot be computed (then those pairs are None and nothing is cached).
    """
    import numpy as np

    keys = [pair_hash(candidate, reference) for candidate, reference in pairs]
    unique = dict(zip(keys, pairs, strict=True))
    found: dict[bytes, np.ndarray | None] = dict(cache.get(list(unique))) if cache else {}
    missing = [key for key in unique if key not in found]
    if missing:
        rows = compute([unique[key] for key in missing])
        if rows is None:
            found.update(dict.fromkeys(missing))
        else:
            fresh = np.asarray(rows, dtype=np.float64).reshape(len(missing), -1)
            if cache:
                cache.put(missing, fresh)
            found.update(zip(missing, fresh, strict=True))
    return [found[key] for key in keys]


def rouge_cache() -> EmbeddingCache:
    """ROUGE rows (rouge1, rouge2, rougeL F-measures) by pair, per rouge-score version."""
    version = importlib.metadata.version("rouge-score")
    return _score_cache("rouge", f"rouge-score=={version} {','.join(ROUGE_TYPES)} stemmer")


def rouge_triplets(predictions: list[str], references: list[str]) -> list[dict[str, float]]:
    """:func:`rouge_triplet` for many pairs, served from the disk cache where present."""

    def compute(pairs: list[tuple[str, str]]) -> list[list[float]]:
        return [list(rouge_triplet(*pair).values()) for pair in pairs]

    rows = cached_pair_scores(
        rouge_cache(), list(zip(predictions, references, strict=True)), compute
    )
    return [dict(zip(ROUGE_TYPES, map(float, row), strict=True)) for row in rows if row is not None]


@dataclass
class BertScore:
    """A resolved BERTScore model (weights loaded on first need), or why it is unavailable."""

    model: str
    revision: str | None
    num_layers: int
    paper_faithful: bool
    scorer: Any = None
    error: str | None = None
    baseline_f1: float | None = None
    load_from: str | None = None  # the resolved weights folder; loaded when a pair needs it
    device: str = "cpu"
    cache: EmbeddingCache | None = None
    # One torch model is not safe to share across concurrent scoring threads.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _loaded_scorer(self) -> Any:
        """The BERTScorer, loading it on first use (call with ``lock`` held); None if it fails."""
        if self.scorer is None and self.error is None and self.load_from is not None:
            try:
                from bert_score import BERTScorer

                with quiet_weight_loading():
                    self.scorer = BERTScorer(
                        model_type=self.load_from, num_layers=self.num_layers, device=self.device
                    )
            except Exception as error:  # noqa: BLE001 - torch raises many types for one cause
                self.error = f"{type(error).__name__}: {error}"[:500]
                logger.warning("BERTScore model %s could not be loaded (%s); BERTScore will be "
                               "NaN.", self.model, self.error)  # fmt: skip
        return self.scorer

    def _compute(self, pairs: list[tuple[str, str]]) -> list[float] | None:
        with self.lock:
            scorer = self._loaded_scorer()
            if scorer is None:
                return None
            _, _, f1 = scorer.score(
                [candidate for candidate, _ in pairs],
                [reference for _, reference in pairs],
                batch_size=BERTSCORE_BATCH_SIZE,
            )
        return [float(value) for value in f1.tolist()]

    def describe(self) -> dict[str, Any]:
        return {
            "bertscore_model": self.model,
            "bertscore_revision": self.revision,
            "bertscore_num_layers": self.num_layers,
            "bertscore_paper_faithful": self.paper_faithful,
            "bertscore_rescale_baseline_f1": self.baseline_f1,
            "bertscore_error": self.error,
        }

    def f1(self, candidates: list[str], references: list[str]) -> list[float]:
        """BERTScore F1 per pair (cached pairs from disk); NaN when the model is unavailable."""
        if not candidates:
            return []
        if self.scorer is None and self.load_from is None:
            return [NAN] * len(candidates)
        # bert-score scores an empty sentence 0 by design, but its empty-sentence path calls a
        # tokenizer method transformers 5 removed; give those pairs the 0 here instead.
        scores = [0.0] * len(candidates)
        keep = [
            i
            for i, (c, r) in enumerate(zip(candidates, references, strict=True))
            if c.strip() and r.strip()
        ]
        rows = cached_pair_scores(
            self.cache, [(candidates[i], references[i]) for i in keep], self._compute
        )
        for i, row in zip(keep, rows, strict=True):
            scores[i] = NAN if row is None else float(row[0])
        return scores


def _hub_snapshot(repo_id: str, revision: str | None) -> tuple[str, str]:
    from huggingface_hub import snapshot_download

    local = Path(
        snapshot_download(
            repo_id=repo_id,
            revision=revision,
            allow_patterns=_HUB_FILES,
            cache_dir=cache_dir() / "hf",
        )
    )
    return str(local), local.name  # the snapshot folder is named by the resolved commit


@lru_cache(maxsize=4)
def load_bertscore(
    model: str, revision: str | None, num_layers: int | None, device: str
) -> BertScore:
    """Resolve BERTScore once per process: the paper's default, ``offline-minilm`` or a local dir.

    The weights are found (and the revision resolved) now; they are loaded on the first pair
    the disk cache lacks.
    """
    paper_faithful = model in (PAPER_BERTSCORE_MODEL, PAPER_BERTSCORE_HUB_REPO)
    folder = Path(model).expanduser()
    if model.startswith((".", "/", "~")) and not folder.is_dir():  # a typo, not a Hub outage
        raise ConfigError(
            f"-T bertscore_model={model}: no such folder; give a local model folder, or "
            f"-T bertscore_model={OFFLINE_MODEL} for the packaged MiniLM"
        )
    if paper_faithful:
        layers = num_layers or PAPER_BERTSCORE_LAYERS
    elif model == OFFLINE_MODEL:
        layers = num_layers or OFFLINE_BERTSCORE_LAYERS
    elif num_layers is None:
        raise ConfigError(
            f"-T bertscore_model={model}: give -T bertscore_layers=<n> too (the hidden layer "
            "whose embeddings BERTScore compares)"
        )
    else:
        layers = num_layers
    result = BertScore(
        model=model,
        revision=revision,
        num_layers=layers,
        paper_faithful=paper_faithful,
        baseline_f1=rescale_baseline(PAPER_BERTSCORE_MODEL, layers) if paper_faithful else None,
    )
    try:
        if paper_faithful:
            path, result.revision = _hub_snapshot(PAPER_BERTSCORE_HUB_REPO, revision)
        else:
            spec = resolve_model(model, revision)
            path, result.revision = spec.load_from, spec.revision
        result.load_from, result.device = path, device
        bert_score_version = importlib.metadata.version("bert-score")
        result.cache = _score_cache(
            f"bertscore-{model}-L{layers}", f"{result.revision} bert-score=={bert_score_version}"
        )
    except Exception as error:  # noqa: BLE001 - the Hub raises many types for one cause
        result.error = f"{type(error).__name__}: {error}"[:500]
        logger.warning(
            "BERTScore model %s could not be loaded (%s); BERTScore will be NaN. Offline, pass "
            "-T bertscore_model=%s explicitly (not paper-faithful).",
            model,
            result.error,
            OFFLINE_MODEL,
        )
    return result
