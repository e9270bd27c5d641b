"""The embedding models AAAR-1.0's metrics name, pinned, and when a run is paper-faithful.

The release names them (Lou et al. 2024, Section 4 "Metrics"; RenzeLou/AAAR-1.0
``scripts/subtask3_metric.py`` and ``subtask2_metric.py``: all-mpnet-base-v2 for S-Match and
S-P/S-R; ``scripts/subtask3_metric_cross_diversity.py``: all-MiniLM-L6-v2 for ITF-IDF) but pins
no revision; these are Hub commits of each repository. The packaged offline copies
(``offline-mpnet``, ``offline-minilm``) carry the same weights, checked by sha256.
"""

from __future__ import annotations

from research_taste_evals.core.embeddings import Embedder, get_embedder
from research_taste_evals.core.packaged_models import MINILM_WEIGHTS_SHA256, MPNET_WEIGHTS_SHA256

S_METRIC_MODEL = "sentence-transformers/all-mpnet-base-v2"
S_METRIC_REVISION = "e8c3b32edf5434bc2275fc9bab85f82640a19130"
ITF_IDF_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
ITF_IDF_REVISION = "c9745ed1d9f207416be6d2e6f8de32d1f16199bf"
PINNED_REVISIONS: dict[str, str] = {
    S_METRIC_MODEL: S_METRIC_REVISION,
    ITF_IDF_MODEL: ITF_IDF_REVISION,
}
# sha256 of each model's model.safetensors on the Hub (the packaged copies are checked against it).
PAPER_WEIGHTS_SHA256: dict[str, str] = {
    S_METRIC_MODEL: MPNET_WEIGHTS_SHA256,
    ITF_IDF_MODEL: MINILM_WEIGHTS_SHA256,
}


def aaar_embedder(
    model: str, revision: str | None, device: str, argument: str = "embedding_model"
) -> Embedder:
    """The embedder for ``model``, with the pinned revision when it is one of the paper's;
    ``argument`` is the task argument that names it (what an offline hint tells to set)."""
    pinned = revision or PINNED_REVISIONS.get(model)
    return get_embedder(model, pinned, device, argument=f"-T {argument}")


def is_paper_model(embedder: Embedder, paper_model: str) -> bool:
    """True when ``embedder`` computes with the paper's model's weights.

    That is the weights' sha256 equals the Hub file's (packaged and local copies), or the Hub
    model itself at its pinned revision.
    """
    spec = embedder.spec
    if spec.weights_sha256 is not None:
        return spec.weights_sha256 == PAPER_WEIGHTS_SHA256[paper_model]
    return spec.source == "hub" and (spec.model_id, spec.revision) == (
        paper_model,
        PINNED_REVISIONS[paper_model],
    )
