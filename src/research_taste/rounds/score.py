"""``research-taste round score``: re-score every judgment log of a round with a labels version.

Each judgment log of the round in the log folder, as Inspect lists it
(``inspect_ai.log.list_eval_logs``: a local folder or a remote one such as ``s3://``; ``.eval``
and ``.json`` logs), is read, scored in-process by Inspect's own re-scoring
(``inspect_ai.score``, action ``overwrite``) with its task's round scorer and the labels file,
and written beside it as ``<judgment log stem>-scored-<labels version>.eval``. The judgment log
is never modified, ``eval.model`` is kept, and no model is called: the scorer reads the stored
picks, and the re-scoring context gets ``mockllm/model``, which needs no provider key. The
scored log names no key: a judgment run with ``-M api_key=...`` records it, and a provider may
echo the request's key in its error text; the copy is written through the one redaction every
writer uses (``core/redaction.redacted_log``). A log that cannot be read is skipped and named;
the others are still scored.

Which task can judge a round, and with which scorer, is its spec's ``rounds``
(``core.spec.RoundSupport``, collected by ``core.families.task_specs``): nothing here names a
family. A judgment log belongs to the round when its ``round_id`` is the round's; a log or a
round made before rounds had an id is matched by the items' sha256, and the command says so. A
judgment already scored with the labels version is skipped (one line says so): no scored log
is ever overwritten.
"""

from __future__ import annotations

import importlib
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_taste.rounds.checks import check_labels_file
from research_taste.rounds.log_check import read_log
from research_taste_evals.core.data import DataError
from research_taste_evals.core.rounds import LABELS_DIR, load_round, read_manifest
from research_taste_evals.core.spec import RoundSupport

SCORED_MARK = "-scored-"
NO_KEY_MODEL = "mockllm/model"


@dataclass(frozen=True)
class ScoredLog:
    """A judgment log and its scored copy: local paths, or the URIs of a remote log folder."""

    judgment: str
    scored: str
    task: str
    model: str


def round_support(task: str) -> tuple[str, RoundSupport] | None:
    """(the round task's name, its round support) for a log's task: the round task itself, or
    an older task whose round judgments it scores (``RoundSupport.judged_by``); None for a
    task that judges no round."""
    from research_taste_evals.core.families import task_specs

    name = task.rsplit("/", 1)[-1]
    for spec in task_specs().values():
        if spec.rounds is not None and name in (spec.task, *spec.rounds.judged_by):
            return spec.task, spec.rounds
    return None


def load_function(path: str) -> Callable[..., Any]:
    """The function a spec names as ``module:function``."""
    module, _, name = path.partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


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


@dataclass(frozen=True)
class RoundLogs:
    """The round's judgment logs under a log folder, every log location listed there, and the
    judgments matched by the items' sha256 alone (made before rounds had an id)."""

    judgments: list[str]
    listed: set[str]
    by_sha: list[str]


def round_logs(folder: Path, log_dir: str, unreadable: list[str] | None = None) -> RoundLogs:
    """The judgment logs of the round under ``log_dir``, in any folder and format Inspect lists
    (headers read only): its ``round_id``'s, and by the items' sha256 those with no id (or all,
    for a round opened before rounds had an id). A log that cannot be read is skipped, its
    sentence added to ``unreadable`` (the others are still scored)."""
    from inspect_ai.log import list_eval_logs

    manifest = load_round(folder).manifest
    sha, round_id = manifest["items_sha256"], manifest.get("round_id")
    found, listed, by_sha = [], set(), []
    for info in list_eval_logs(log_dir, recursive=True):
        location = _location(info.name)
        listed.add(location)
        if scored_parts(info.name.rpartition("/")[2]) is not None:
            continue
        try:
            header = read_log(info, header_only=True)
        except DataError as error:
            (unreadable if unreadable is not None else []).append(str(error))
            continue
        logged = (header.eval.metadata or {}).get("round") or {}
        if round_id is not None and logged.get("round_id") is not None:
            if logged["round_id"] == round_id:
                found.append(location)
        elif logged.get("items_sha256") == sha:
            found.append(location)
            by_sha.append(location)
    return RoundLogs(sorted(found), listed, sorted(by_sha))


def errored_judgment(path: str, log: Any, say: Callable[[str], None]) -> str:
    """Why a judgment log is not scored ("" when it is): one that did not end as ``success``
    (an error, a cancel) is never scored, as its samples are no decisions. A successful one
    whose samples partly errored (``fail_on_error`` let them) has those samples taken out of
    ``log`` in place, named by ``say``: an errored sample is neither right, wrong nor unclear,
    its pair an order not judged (a coin in the headline with missing pairs at 0.5)."""
    samples = log.samples or []
    errored = [sample for sample in samples if sample.error is not None]
    if log.status != "success":
        return (
            f"{path}: the judgment ended as {log.status!r} ({len(errored)} of {len(samples)} "
            "samples errored): not scored, none of its samples is a decision; finish it with "
            f"`inspect eval-retry {path}`, then score again"
        )
    if errored:
        log.samples = [sample for sample in samples if sample.error is None]
        say(
            f"{path}: {len(errored)} of {len(samples)} samples errored: left out of its scored "
            "log (no decision: neither right, wrong nor unclear)"
        )
    return ""


def score_round(
    folder: str | Path,
    log_dir: str | Path,
    version: str | None = None,
    unreadable: list[str] | None = None,
    say: Callable[[str], None] = print,
) -> list[ScoredLog]:
    """Score every judgment log of the round in ``log_dir`` with a labels version; ``say``
    gets one line for the judgments matched by sha256, one per judgment already scored and one
    per judgment whose errored samples are left out; a log that cannot be read, or a judgment
    that did not end as ``success`` (:func:`errored_judgment`), is skipped and named in
    ``unreadable``."""
    from inspect_ai import score
    from inspect_ai.log import write_eval_log
    from inspect_ai.model import get_model

    from research_taste_evals.core.redaction import redacted_log

    root = load_round(folder).folder
    round_id = read_manifest(root).get("round_id")
    labels = labels_file(root, version)
    skipped = unreadable if unreadable is not None else []
    logs = round_logs(root, str(log_dir), skipped)
    if logs.by_sha:
        whose = "the round has" if round_id is None else f"{len(logs.by_sha)} judgment log(s) have"
        say(f"{whose} no round id (made before rounds had one): matched by the items' sha256")
    done = []
    for path in logs.judgments:
        out = scored_location(path, labels.stem)
        if out in logs.listed:
            say(f"{path}: already scored with labels version {labels.stem} ({out}); skipped")
            continue
        try:
            log = read_log(path)
        except DataError as error:  # its header read, its samples cut off
            skipped.append(str(error))
            continue
        support = round_support(log.eval.task)
        if support is None:
            continue
        refused = errored_judgment(path, log, say)
        if refused:  # named with what to do; the other judgments are still scored
            skipped.append(refused)
            continue
        # the judgment's own scorer options (e.g. the embedding model), with the labels
        options = dict((log.eval.scorers or [])[0].options or {}) if log.eval.scorers else {}
        scorer = load_function(support[1].scorer)(**{**options, "labels": str(labels)})
        scored = score(
            log, scorer, action="overwrite", model=get_model(NO_KEY_MODEL), display="none"
        )
        metadata = dict(scored.eval.metadata or {})
        metadata["round"] = {
            **metadata.get("round", {}),
            "round_id": (metadata.get("round") or {}).get("round_id") or round_id,
            "state": "scored",
            "labels_version": labels.stem,
            "labels_file": str(labels),
        }
        scored.eval.metadata = metadata
        # a judgment run with -M api_key=... logs it; a provider may echo a key in its errors
        write_eval_log(redacted_log(scored), out)
        done.append(ScoredLog(path, out, log.eval.task.rsplit("/", 1)[-1], log.eval.model))
    return done
