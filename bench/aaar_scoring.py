"""How fast is AAAR-1.0 PaperWeakness scoring at full scale? A synthetic workload, no model calls.

Builds 993 papers (the ICLR 2023 PaperWeakness set size) with about 10 predicted and about 18
reference weaknesses each (split over 3-5 reviewers), sentences of realistic length generated from
a seeded vocabulary, and scores S-Precision / S-Recall / S-F1 and ITF-IDF with the packaged
all-MiniLM-L6-v2 on CPU. Prints encode seconds, non-encode seconds, their ratio, peak memory, and
a second run served from the embedding cache (a temporary cache directory). Asserts nothing.

Targets (issue 5): whole run < 15 min; non-encode <= 10% of encode; peak < 4 GB; cached second
run >= 10x faster than the first.

Run: ``time python bench/aaar_scoring.py`` (``--papers 100`` for a quick look)
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np

from research_taste_evals.aaar.similarity import (
    itf_idf,
    macro_average,
    soft_precision_recall,
    with_placeholder,
)
from research_taste_evals.core.embeddings import OFFLINE_MODEL, Embedder, get_embedder

N_PAPERS = 993
MEAN_PREDICTED = 10
MEAN_REFERENCE = 18
REVIEWERS = (3, 3, 3, 4, 4, 5)  # drawn uniformly: mean 3.67 (paper: 3.8, min 3)
EMPTY_PREDICTION_RATE = 0.01  # a model that answered nothing: scored as ["None"] by ITF-IDF
LONG_ITEM_RATE = 0.05  # share of long items (the paper's longest weakness has 371 words)
SEED = 20241030
TOKEN = re.compile(r"\w+|[^\w\s]")
TARGET_MINUTES = 15
TARGET_NON_ENCODE_SHARE = 0.10
TARGET_PEAK_GB = 4.0
TARGET_CACHE_SPEEDUP = 10.0

SUBJECTS = [
    "The proposed method",
    "The experimental section",
    "The ablation study",
    "The paper",
    "The theoretical analysis",
    "The choice of baselines",
    "The evaluation protocol",
    "The writing",
    "The related work discussion",
    "The main claim",
    "The training setup",
    "The hyperparameter search",
    "The dataset construction",
    "The proof of the main theorem",
]
PROBLEMS = [
    "does not convincingly show",
    "fails to justify",
    "only weakly supports",
    "overstates",
    "leaves unclear",
    "does not compare against",
    "ignores",
    "relies on an unrealistic assumption about",
    "provides little evidence for",
    "is missing a discussion of",
    "does not quantify",
    "conflates",
]
OBJECTS = [
    "the contribution of the {topic} module",
    "the robustness of {topic} to distribution shift",
    "the computational cost of {topic}",
    "why {topic} improves over standard fine-tuning",
    "the sensitivity to the temperature hyperparameter",
    "the variance across random seeds",
    "recent strong baselines such as contrastive pretraining",
    "the scalability to larger models",
    "the gap between the bound and the empirical results",
    "failure cases of {topic}",
    "the statistical significance of the reported gains",
    "the effect of the {topic} regulariser",
]
DETAILS = [
    "the reported improvements are within one standard deviation",
    "only two small benchmarks are used and both are saturated",
    "Table 3 mixes results obtained with different backbones",
    "the appendix does not describe how the {topic} data were filtered",
    "it is unclear whether the gains hold when the compute budget is matched",
    "the notation in Section 4 changes between the lemma and the main theorem",
    "a comparison with a simple {topic} heuristic would make the claim more convincing",
    "the authors should report wall-clock time in addition to FLOPs",
    "several design choices are introduced without any motivation",
    "the qualitative examples appear cherry-picked",
]
TOPICS = [
    "graph attention",
    "diffusion sampling",
    "prompt tuning",
    "sparse mixture-of-experts",
    "contrastive retrieval",
    "federated averaging",
    "neural ODE",
    "offline reinforcement learning",
    "vision transformer",
    "label smoothing",
    "curriculum learning",
    "knowledge distillation",
    "normalising flow",
    "Bayesian optimisation",
    "self-supervised speech",
    "molecular generation",
]


def weakness(rng: random.Random, topic: str) -> str:
    """One weakness item: 1-4 clauses, now and then a long one (about 15-150 words)."""
    parts = [f"{rng.choice(SUBJECTS)} {rng.choice(PROBLEMS)} {rng.choice(OBJECTS)}"]
    extra = rng.randint(4, 9) if rng.random() < LONG_ITEM_RATE else rng.randint(0, 3)
    for _ in range(extra):
        parts.append(rng.choice(DETAILS))
    return "; ".join(parts).format(topic=topic) + f" (Section {rng.randint(1, 9)})."


@dataclass
class Workload:
    predicted: list[list[str]]
    references: list[list[list[str]]]


def build_workload(n_papers: int, seed: int = SEED) -> Workload:
    rng = random.Random(seed)
    predicted, references = [], []
    for paper in range(n_papers):
        topic = f"{rng.choice(TOPICS)}-{paper}"
        empty = rng.random() < EMPTY_PREDICTION_RATE
        n_pred = 0 if empty else max(1, round(rng.gauss(MEAN_PREDICTED, 3)))
        predicted.append([weakness(rng, topic) for _ in range(n_pred)])
        n_reviewers = rng.choice(REVIEWERS)
        n_ref = max(1, round(rng.gauss(MEAN_REFERENCE, 5)))
        cuts = sorted(rng.randint(0, n_ref) for _ in range(n_reviewers - 1))
        bounds = [0, *cuts, n_ref]
        items = [weakness(rng, topic) for _ in range(n_ref)]
        references.append([items[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)])
    return Workload(predicted, references)


@dataclass
class RunTimes:
    encode: float
    score: float
    scores: dict[str, float]

    @property
    def total(self) -> float:
        return self.encode + self.score


def score_run(embedder: Embedder, work: Workload) -> RunTimes:
    """Encode everything (S-metrics and ITF-IDF share the MiniLM here), then score."""
    started = time.perf_counter()
    flat_refs = [reviewer for paper in work.references for reviewer in paper]
    pred_embs = embedder.encode_lists(work.predicted)
    itf_embs = embedder.encode_lists([with_placeholder(items) for items in work.predicted])
    ref_embs_flat = embedder.encode_lists(flat_refs)
    encoded = time.perf_counter()

    per_paper = []
    cursor = 0
    for pred, paper_refs in zip(pred_embs, work.references, strict=True):
        reviewers = ref_embs_flat[cursor : cursor + len(paper_refs)]
        cursor += len(paper_refs)
        per_paper.append(soft_precision_recall(pred, reviewers))
    scores = {
        "S-P": macro_average(p for p, _, _ in per_paper),
        "S-R": macro_average(r for _, r, _ in per_paper),
        "S-F1": macro_average(f for _, _, f in per_paper),
        "ITF-IDF": itf_idf(itf_embs),
    }
    return RunTimes(encoded - started, time.perf_counter() - encoded, scores)


def peak_rss_gb() -> float:
    # ru_maxrss is in KiB on Linux, bytes on macOS.
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 1e9


def verdict(ok: bool) -> str:
    return "meets target" if ok else "MISSES target"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=N_PAPERS)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    wall = time.perf_counter()
    print(f"load average at start (1/5/15 min): {os.getloadavg()} on {os.cpu_count()} CPUs")
    work = build_workload(args.papers)
    n_pred = sum(len(p) for p in work.predicted)
    n_ref = sum(len(r) for paper in work.references for r in paper)
    words = [len(TOKEN.findall(t)) for p in work.predicted for t in p]
    print(f"workload: {args.papers} papers, {n_pred} predicted + {n_ref} reference weaknesses")
    print(
        f"  tokens per item (words and punctuation, as NLTK counts; paper: mean 39.1): "
        f"mean {np.mean(words):.1f}, min {min(words)}, max {max(words)}"
    )
    print(f"  empty predictions: {sum(not p for p in work.predicted)}")

    with tempfile.TemporaryDirectory(prefix="aaar-bench-cache-") as cache:
        load_started = time.perf_counter()
        first_embedder = get_embedder(
            OFFLINE_MODEL, device=args.device, cache_root=cache, batch_size=args.batch_size
        )
        print(
            f"model load: {time.perf_counter() - load_started:.1f} s  {first_embedder.describe()}"
        )
        first = score_run(first_embedder, work)
        second_embedder = get_embedder(
            OFFLINE_MODEL, device=args.device, cache_root=cache, batch_size=args.batch_size
        )
        second = score_run(second_embedder, work)

    share = first.score / first.encode
    speedup = first.total / second.total
    minutes = (time.perf_counter() - wall) / 60
    peak = peak_rss_gb()
    print("scores (first run): " + ", ".join(f"{k} {v:.4f}" for k, v in first.scores.items()))
    print(f"same scores from cache: {first.scores == second.scores}")
    print(
        f"first run:  encode {first.encode:.2f} s "
        f"(model forward {first_embedder.stats.model_seconds:.2f} s, "
        f"{first_embedder.stats.encoded} texts encoded), non-encode {first.score:.2f} s"
    )
    print(
        f"second run: encode {second.encode:.2f} s ({second_embedder.stats.encoded} texts encoded, "
        f"{second_embedder.stats.cache_hits} cache hits), non-encode {second.score:.2f} s"
    )
    print(
        f"non-encode / encode: {share:.4f} (target <= {TARGET_NON_ENCODE_SHARE}) "
        f"-> {verdict(share <= TARGET_NON_ENCODE_SHARE)}"
    )
    print(
        f"cached second run speed-up: {speedup:.1f}x ({first.total:.2f} s -> {second.total:.2f} s; "
        f"target >= {TARGET_CACHE_SPEEDUP}x) -> {verdict(speedup >= TARGET_CACHE_SPEEDUP)}"
    )
    print(
        f"peak memory (max RSS): {peak:.2f} GB (target < {TARGET_PEAK_GB}) "
        f"-> {verdict(peak < TARGET_PEAK_GB)}"
    )
    print(
        f"CPU time of this process: {time.process_time():.0f} s; "
        f"load average at end: {os.getloadavg()}"
    )
    print(
        f"wall time: {minutes:.2f} min (target < {TARGET_MINUTES}) "
        f"-> {verdict(minutes < TARGET_MINUTES)}"
    )


if __name__ == "__main__":
    main()
