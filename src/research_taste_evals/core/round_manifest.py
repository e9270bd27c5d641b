"""``round.json``'s fields every reader of a round shares (the round tasks, ``round resolve``,
``round score``, the report, a sweep's round glob): checked once, where the file is read, so a
hand-edited or truncated manifest is one sentence naming the file and the field instead of a
crash in whichever reader meets it first. ``rounds/checks.check_manifest`` adds what resolve
needs of each source (``query``, the label plan's window) on top.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from research_taste_evals.core.data import DataError, sha256_of

TEXT = "a non-empty text"
WHEN = "an ISO time such as 2027-01-05T00:00:00Z"


def parse_time(text: object) -> dt.datetime | None:
    """An ISO timestamp (UTC when it names no zone), or None for an empty field."""
    if text in (None, ""):
        return None
    stamp = dt.datetime.fromisoformat(str(text))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)


def check_round_manifest(path: Path, manifest: object) -> dict[str, Any]:
    """``manifest`` (``round.json`` at ``path``) if its shared fields hold what the readers
    read, else one sentence naming the file and the first wrong field.

    Raises:
        DataError: not an object, or a field missing or of the wrong type.
    """
    if not isinstance(manifest, dict):
        raise DataError(f"{path}: not a JSON object")

    def refuse(field: str, want: str, got: object) -> DataError:
        return DataError(f"{path}: field '{field}' must be {want} (got {got!r})")

    for field in ("name", "round_id"):  # optional: a round made before ids has no round_id
        if field in manifest and not _text(manifest[field]):
            raise refuse(field, TEXT, manifest[field])
    for field in ("items_sha256", "pairs_sha256"):
        if not _text(manifest.get(field)):
            raise refuse(field, "the sha256 written at open", manifest.get(field))
    opened = _time(manifest.get("opened_at"))
    if opened is None:
        raise refuse("opened_at", WHEN, manifest.get("opened_at"))
    if "judge_by" in manifest:
        judge_by = _time(manifest["judge_by"])
        if judge_by is None:
            raise refuse("judge_by", WHEN, manifest["judge_by"])
        if judge_by <= opened:  # an empty judging window: no decision could be prospective
            raise refuse("judge_by", f"after opened_at ({manifest['opened_at']})", judge_by)
    plan = manifest.get("label_plan")
    if not isinstance(plan, dict):
        raise refuse("label_plan", "an object", plan)
    if "prompt" in plan and not _text(plan["prompt"]):
        raise refuse("label_plan.prompt", TEXT, plan["prompt"])
    for field in ("items", "pairs"):
        value = manifest.get(field, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise refuse(field, "a whole number", value)
    for field in ("pairing", "counts", "query"):
        if field in manifest and not isinstance(manifest[field], dict):
            raise refuse(field, "an object", manifest[field])
    versions = manifest.get("label_versions", [])
    if not isinstance(versions, list):
        raise refuse("label_versions", "a list", versions)
    for index, entry in enumerate(versions):
        for key in ("version", "file"):
            if not isinstance(entry, dict) or not _text(entry.get(key)):
                got = entry.get(key) if isinstance(entry, dict) else entry
                raise refuse(f"label_versions.{index}.{key}", TEXT, got)
    return manifest


def check_labels_version(path: Path, manifest: dict[str, Any]) -> None:
    """Refuse a round's labels file (``<round>/labels/<version>.csv``, ``manifest`` its
    ``round.json``) unless ``label_versions`` lists it with the ``labels_sha256`` resolve wrote
    and the file still has that sha256: every reader of a labels file (the scorer, ``round
    score``, the report) goes through this, so an edited label is never scored silently, nor one
    whose sha256 was deleted.

    Raises:
        DataError: one sentence naming the file and what to do.
    """
    listing = path.parent.parent / "round.json"
    entries = [
        entry
        for entry in manifest.get("label_versions", [])
        if (path.parent.parent / str(entry["file"])).resolve() == path.resolve()
    ]
    if not entries:
        raise DataError(
            f"{path}: not a labels version of the round ({listing} lists no label_versions entry "
            "for it); `research-taste round resolve` writes one"
        )
    recorded = entries[-1].get("labels_sha256")
    if not _text(recorded):
        raise DataError(
            f"{path}: its entry in {listing} has no 'labels_sha256', so the file cannot be checked "
            "against what `round resolve` wrote; resolve again for a new labels version"
        )
    if sha256_of(path) != recorded:
        raise DataError(
            f"{path}: changed since `round resolve` wrote it (its sha256 is not the one "
            f"{listing}'s label_versions records); resolve again for a new labels version"
        )


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _time(value: object) -> dt.datetime | None:
    if not _text(value):
        return None
    try:
        return parse_time(value)
    except ValueError:
        return None


# The simulated venue's source name and how far a printed resolve moves its clock: by then every
# review is posted (core/simulated_venue.py: REVIEW_DAYS).
SIMULATED_SOURCE = "simulated"
RESOLVE_HINT_DAYS = 28


def resolve_command(manifest: dict[str, Any], data_path: str) -> str:
    """The command that resolves the round: on the simulated venue it moves the venue's clock
    until every review is out (``core/simulated_venue.py``), else the world's clock does."""
    command = f"research-taste round resolve {data_path}"
    if manifest.get("source") == SIMULATED_SOURCE:
        command += f" --advance-days {RESOLVE_HINT_DAYS}"
    return command
