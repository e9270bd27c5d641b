"""Which embedding model a choice names, without loading it: packaged (hash-checked PyPI copies),
a local directory or a pinned Hub model (:func:`resolve_model`), the one-sentence hint for a Hub
model that cannot be loaded offline, and quiet weight loading. core/embeddings.py loads and
shares the models and caches their encodings.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from research_taste_evals.core.data import sha256_of
from research_taste_evals.core.errors import UserError
from research_taste_evals.core.packaged_models import (
    MINILM_PACKAGE,
    MINILM_WEIGHTS_SHA256,
    OFFLINE_MINILM,
    OFFLINE_MPNET,
    PACKAGED_MODELS,
    PackagedModelError,
    packaged_model_folder,
)

# Packaged models by name (no Hub access): see core/packaged_models.py.
OFFLINE_MODEL = OFFLINE_MINILM
OFFLINE_MPNET_MODEL = OFFLINE_MPNET
OFFLINE_WEIGHTS_SHA256 = MINILM_WEIGHTS_SHA256
_WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")

ModelSource = Literal["hub", "packaged", "local"]


class EmbeddingError(UserError, RuntimeError):
    """The requested embedding model cannot be resolved or loaded (never silently replaced)."""


@dataclass(frozen=True)
class ModelSpec:
    """Where a model comes from and how it is identified in caches and logs."""

    model_id: str
    revision: str
    source: ModelSource
    load_from: str
    weights_sha256: str | None = None
    weights_of: str | None = None


def _weights_sha256(directory: Path) -> str | None:
    for name in _WEIGHT_FILES:
        if (directory / name).is_file():
            return sha256_of(directory / name)
    return None


def _packaged_spec(name: str) -> ModelSpec:
    try:
        folder, sha = packaged_model_folder(name)
    except PackagedModelError as error:
        raise EmbeddingError(str(error)) from error
    packaged = PACKAGED_MODELS[name]
    return ModelSpec(
        model_id=name,
        revision=packaged.version(),
        source="packaged",
        load_from=str(folder),
        weights_sha256=sha,
        weights_of=packaged.weights_of,
    )


def resolve_model(model: str, revision: str | None = None) -> ModelSpec:
    """Resolve a model choice to a :class:`ModelSpec` without loading it.

    Args:
        model: a packaged model name (``"offline-minilm"``, ``"offline-mpnet"``), an existing
            local directory, or a Hub name.
        revision: Hub commit, required for a Hub model (a benchmark passes the revision it pins).
            For a local directory it is a label; when omitted the weights' sha256 identifies it.

    Raises:
        EmbeddingError: missing packaged model, unpinned Hub model, or missing local weights.
    """
    if model == MINILM_PACKAGE:
        model = OFFLINE_MODEL
    if model in PACKAGED_MODELS:
        if revision is not None:
            raise EmbeddingError(f"model={model!r} takes no revision (got {revision!r})")
        return _packaged_spec(model)
    path = Path(model).expanduser()
    if path.is_dir():
        directory = path.resolve()
        sha = _weights_sha256(directory)
        if sha is None and revision is None:
            raise EmbeddingError(
                f"local model {directory} has none of {_WEIGHT_FILES}; pass revision= to label it"
            )
        return ModelSpec(
            model_id=str(directory),
            revision=revision or f"sha256:{sha}",
            source="local",
            load_from=str(directory),
            weights_sha256=sha,
        )
    if model.startswith((".", "/", "~")):
        raise EmbeddingError(f"local model directory {path} does not exist")
    if revision is None:
        raise EmbeddingError(
            f"model {model!r} has no pinned revision: pass revision=<commit sha>, or use a "
            f"packaged model ({', '.join(sorted(PACKAGED_MODELS))})"
        )
    return ModelSpec(model_id=model, revision=revision, source="hub", load_from=model)


# Set (to anything but "" or "0") to show the libraries' "Loading weights" progress bars.
SHOW_PROGRESS_ENV = "RESEARCH_TASTE_PROGRESS_BARS"


@contextlib.contextmanager
def quiet_weight_loading() -> Iterator[None]:
    """Load model weights without transformers' progress bars (one per model load, e.g.
    "Loading weights: 100%|...|"), unless :data:`SHOW_PROGRESS_ENV` is set. Uses transformers'
    public switch and puts it back as it was."""
    if os.environ.get(SHOW_PROGRESS_ENV, "") not in ("", "0"):
        yield
        return
    from transformers.utils import logging as transformers_logging

    was_enabled = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            transformers_logging.enable_progress_bar()


def _first_line(error: BaseException) -> str:
    """The first line of an error's message, without its final period (loaders add advice)."""
    return (str(error).strip().splitlines() or [""])[0].rstrip(".")


def offline_hint(model_id: str, argument: str = "model") -> str:
    """What to pass instead of Hub model ``model_id`` with no network: its packaged copy (the
    same weights, so still paper-faithful) when there is one, and the packaged MiniLM (which
    the ``offline`` extra installs) when that is a different model. A task argument
    (``-T ...``) also gets the demo data, which the tasks score with the packaged MiniLM."""
    same = next((p for p in PACKAGED_MODELS.values() if p.weights_of == model_id), None)
    minilm = (
        f"{argument}={OFFLINE_MODEL} (the packaged MiniLM: a different model, so the numbers "
        "are then not paper-faithful)"
    )
    if same is None:
        hint = f"Offline? pass {minilm}"
    elif same.name == OFFLINE_MODEL:
        hint = f"Offline? pass {argument}={same.name}: the packaged copy of the same weights"
    else:
        hint = (
            f"Offline? pass {argument}={same.name}: the packaged copy of the same weights "
            f"({same.install_hint}), or {minilm}"
        )
    if argument.startswith("-T "):
        hint += "; -T data_path=demo runs the demo data with the packaged MiniLM"
    return hint
