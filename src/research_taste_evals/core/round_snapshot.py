"""A round task's ``round`` argument naming a published round on the Hugging Face Hub.

``research-taste round publish`` writes each round in the layout a round task reads (docs/rounds.md,
"Publishing a round"), so a local copy of a publication is given as its round's folder
(``-T round=<publication>/<round>``). A publication posted as a Hub dataset repository is named
``hf://<owner>/<repo>@<revision>/<round>``: the revision must be a full 40-hex commit, so a run
reads the same files whenever it runs (a branch name or none would follow whatever is pushed
next); only that round's files are downloaded, by ``huggingface_hub.snapshot_download``, and the
round is then checked against its ``round.json`` sha256s as any round is.
"""

from __future__ import annotations

import re
from pathlib import Path

from research_taste_evals.core.data import DataError
from research_taste_evals.core.errors import ConfigError

PUBLISHED_ITEMS = "items.jsonl"  # a published round's items, texts only where licensed
HUB_PREFIX = "hf://"
_HUB_ROUND = re.compile(r"^hf://(?P<repo>[^/@]+/[^/@]+)(?:@(?P<revision>[^/]*))?/(?P<round>.+)$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")


def is_hub_round(value: str | None) -> bool:
    return value is not None and value.startswith(HUB_PREFIX)


def hub_round_parts(value: str) -> tuple[str, str, str]:
    """(repository, revision, round folder) of ``hf://<owner>/<repo>@<40-hex commit>/<round>``.

    Raises:
        ConfigError: not of that shape, or a revision that is not a full commit (one sentence
            naming the argument).
    """
    found = _HUB_ROUND.match(value)
    if found is None:
        raise ConfigError(
            f"round={value!r}: a Hub round is hf://<owner>/<repo>@<40-hex commit>/<round folder>"
        )
    revision = found.group("revision") or ""
    if not _COMMIT.match(revision):
        shown = f"revision {revision!r}" if revision else "no revision"
        raise ConfigError(
            f"round={value!r}: {shown} is not pinned; name the publication's commit, "
            f"hf://{found.group('repo')}@<40-hex commit>/{found.group('round')}, so every run "
            "reads the same files"
        )
    return found.group("repo"), revision, found.group("round").strip("/")


def hub_round_folder(value: str) -> Path:
    """The local folder of a pinned Hub round (downloaded once into the Hub's cache).

    Raises:
        ConfigError: the value is unpinned or malformed, or ``huggingface_hub`` is missing.
    """
    repo, revision, round_folder = hub_round_parts(value)
    try:
        from huggingface_hub import snapshot_download
    except ImportError as error:
        raise ConfigError(
            f"round={value!r}: reading a Hub round needs huggingface_hub (pip install "
            "huggingface_hub)"
        ) from error
    root = snapshot_download(
        repo_id=repo,
        repo_type="dataset",
        revision=revision,
        allow_patterns=[f"{round_folder}/*", f"{round_folder}/**"],
    )
    return Path(root) / round_folder


def round_folder(value: str | Path) -> Path:
    """The local folder a round task's ``round`` names: the folder itself, or a pinned Hub
    round's download.

    Raises:
        ConfigError: an unpinned or malformed Hub round.
        DataError: a published round whose texts were withheld for their licence (no
            ``items.csv``): one sentence saying what to put there.
    """
    text = str(value)
    folder = hub_round_folder(text) if is_hub_round(text) else Path(text).expanduser()
    if not (folder / "items.csv").is_file() and (folder / PUBLISHED_ITEMS).is_file():
        raise DataError(
            f"round={value!r}: a published round whose texts were withheld for their licence "
            f"({PUBLISHED_ITEMS} holds each text's sha256 and link); put the round's items.csv "
            "there (its sha256 is round.json's items_sha256) to judge it"
        )
    return folder
