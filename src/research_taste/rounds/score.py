"""``research-taste round score``: re-score every judgment log of a round with a labels version.

Each judgment log (a log whose task metadata names the round's item-file sha256 and that is not
itself a scored log) in the log folder, as Inspect lists it (``inspect_ai.log.list_eval_logs``:
a local folder or a remote one such as ``s3://``; ``.eval`` and ``.json`` logs), is read,
scored in-process by Inspect's own re-scoring (``inspect_ai.score``, action ``overwrite``) with
the round's scorer and the labels file, and written beside it as
``<judgment log stem>-scored-<labels version>.eval``. The judgment log is never modified,
``eval.model`` is kept, and no model is called: the scorer reads the stored picks, and the
re-scoring context gets ``mockllm/model``, which needs no provider key. The scored log names
no key: a judgment run with ``-M api_key=...`` records it, and the copy has it redacted.
"""

from __future__ import annotations

import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_taste.rounds.checks import check_labels_file
from research_taste.rounds.log_check import read_log
from research_taste_evals.core.data import DataError
from research_taste_evals.core.rounds import LABELS_DIR, load_round

SCORED_MARK = "-scored-"
# The scorer of each task that can judge a round (for `inspect score --scorer`).
ROUND_SCORERS = {
    "tastybench": "research_taste_evals/round_pairwise_scorer",
    "paper_weakness": "research_taste_evals/round_weakness_scorer",
}
NO_KEY_MODEL = "mockllm/model"


@dataclass(frozen=True)
class ScoredLog:
    """A judgment log and its scored copy: local paths, or the URIs of a remote log folder."""

    judgment: str
    scored: str
    task: str
    model: str


def _location(name: str) -> str:
    """A log's location as Inspect lists it, a ``file://`` URI made a plain local path."""
    parsed = urllib.parse.urlparse(name)
    return urllib.request.url2pathname(parsed.path) if parsed.scheme == "file" else name


def scored_location(judgment: str, version: str) -> str:
    """``<judgment log stem>-scored-<labels version>.eval`` beside the judgment log."""
    folder, _, name = judgment.rpartition("/")
    stem = name.rsplit(".", 1)[0]
    return f"{folder}/{stem}{SCORED_MARK}{version}.eval"


def scored_parts(name: str) -> tuple[str, str] | None:
    """(judgment log stem, labels version) of a scored log's file name (:func:`scored_location`);
    None for any other log."""
    if SCORED_MARK not in name:
        return None
    stem, version = name.removesuffix(".eval").split(SCORED_MARK, 1)
    return stem, version


def labels_file(folder: Path, version: str | None) -> Path:
    """The labels file of ``version`` (default: the newest resolved).

    Raises:
        DataError: no labels yet, or no such version.
    """
    from research_taste_evals.core.rounds import read_manifest

    versions = [entry["version"] for entry in read_manifest(folder).get("label_versions", [])]
    if not versions:
        raise DataError(
            f"{folder}: no labels yet; run `research-taste round resolve {folder}` first"
        )
    chosen = version or versions[-1]
    if chosen not in versions:
        raise DataError(f"{folder}: labels version {chosen!r} not among {versions}")
    entry = read_manifest(folder)["label_versions"][versions.index(chosen)]
    return check_labels_file(folder / LABELS_DIR / f"{chosen}.csv", entry)


def round_logs(folder: Path, log_dir: str, unreadable: list[str] | None = None) -> list[str]:
    """The judgment logs of the round under ``log_dir``, in any folder and format Inspect lists
    (headers read only); a log that cannot be read is skipped, its sentence added to
    ``unreadable`` (the others are still scored)."""
    from inspect_ai.log import list_eval_logs

    sha = load_round(folder).manifest["items_sha256"]
    found = []
    for info in list_eval_logs(log_dir, recursive=True):
        if scored_parts(info.name.rpartition("/")[2]) is not None:
            continue
        try:
            header = read_log(info, header_only=True)
        except DataError as error:
            (unreadable if unreadable is not None else []).append(str(error))
            continue
        round_info = (header.eval.metadata or {}).get("round") or {}
        if round_info.get("items_sha256") == sha:
            found.append(_location(info.name))
    return sorted(found)


def score_round(
    folder: str | Path,
    log_dir: str | Path,
    version: str | None = None,
    unreadable: list[str] | None = None,
) -> list[ScoredLog]:
    """Score every judgment log of the round in ``log_dir`` with a labels version; a log that
    cannot be read is skipped and named in ``unreadable``."""
    from inspect_ai import score
    from inspect_ai.log import write_eval_log
    from inspect_ai.model import get_model

    from research_taste_evals.aaar.scorer.weakness_round import round_weakness_scorer
    from research_taste_evals.core.redaction import keyless_log
    from research_taste_evals.tastybench.rounds import round_pairwise_scorer

    factories: dict[str, Any] = {
        "tastybench": round_pairwise_scorer,
        "paper_weakness": round_weakness_scorer,
    }

    root = load_round(folder).folder
    labels = labels_file(root, version)
    done = []
    skipped = unreadable if unreadable is not None else []
    for path in round_logs(root, str(log_dir), skipped):
        try:
            log = read_log(path)
        except DataError as error:  # its header read, its samples cut off
            skipped.append(str(error))
            continue
        task = log.eval.task.rsplit("/", 1)[-1]
        if task not in factories:
            continue
        # the judgment's own scorer options (e.g. the embedding model), with the labels
        options = dict((log.eval.scorers or [])[0].options or {}) if log.eval.scorers else {}
        scorer = factories[task](**{**options, "labels": str(labels)})
        scored = score(
            log, scorer, action="overwrite", model=get_model(NO_KEY_MODEL), display="none"
        )
        metadata = dict(scored.eval.metadata or {})
        metadata["round"] = {
            **metadata.get("round", {}),
            "state": "scored",
            "labels_version": labels.stem,
            "labels_file": str(labels),
        }
        scored.eval.metadata = metadata
        out = scored_location(path, labels.stem)
        write_eval_log(keyless_log(scored), out)  # a judgment run with -M api_key=... logs it
        done.append(ScoredLog(path, out, task, log.eval.model))
    return done
