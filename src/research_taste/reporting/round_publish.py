"""``research-taste round publish ROUND... --out DIR [--log-dir LOGS]``: rounds as a dataset a
lab can post (a Hub dataset repository or a git repository; docs/rounds.md, "Publishing a
round"), as ForecastBench publishes its question sets, resolution sets and leaderboards.

``DIR`` holds, per round, a folder named as the round, in the layout the round tasks read
(``round.json``, ``pairs.csv``, ``labels/<version>.csv`` as resolve wrote them, and ``items.csv``
when every item's texts may be published: ``publish_rows.text_shareable``), so
``-T round=DIR/<round>`` judges it, checked against its sha256s; beside them the dataset's JSONL
tables (``items.jsonl``, ``pairs.jsonl``, ``resolutions/<version>.jsonl``, ``picks.jsonl``);
at the top ``rounds.jsonl``, ``leaderboard/<task>.csv`` (``publish_board.py``), the dataset card
``README.md`` (``publish_card.py``) and :data:`MARKER`, which lists every file written with its
sha256 and counts the publication's versions.

Nothing it did not write is overwritten or deleted: ``DIR`` must be new, empty (a repository's
``.git`` and ``.gitattributes`` aside, never touched) or a previous publication of its own,
whose files it replaces (and removes those no longer published). No local path of the machine
is written: a file holding a round's, the log folder's or ``DIR``'s path is refused before
anything is written. Files are 0644, folders 0755.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from research_taste.reporting.paths import scrub_value
from research_taste.reporting.round_board import DEFAULT_MIN_PAIRS
from research_taste.reporting.round_publish_board import (
    LEADERBOARD_COLUMNS,
    leaderboard_rows,
    published_boards,
)
from research_taste.reporting.round_publish_card import card
from research_taste.reporting.round_publish_rows import (
    all_texts_shareable,
    item_rows,
    pair_rows,
    pick_rows,
    resolution_rows,
    text_shareable,
    when,
)
from research_taste.rounds.manifest import csv_text, utc_iso, utc_now
from research_taste_evals.core.data import DataError
from research_taste_evals.core.round_files import RECORDS_FILE
from research_taste_evals.core.rounds import (
    ITEMS_FILE,
    PAIRS_FILE,
    ROUND_FILE,
    Round,
    load_round,
)

MARKER = "publication.json"
TOOL = "research-taste round publish"
REPOSITORY_FILES = (".git", ".gitattributes")  # a repository's own: never counted or touched


@dataclass(frozen=True)
class PublishSummary:
    """What a publication wrote: its folder, version, rounds, file count, the texts withheld per
    round, the picks and leaderboards, and the logs it could not read (named)."""

    out: Path
    version: int
    rounds: list[str]
    files: int
    withheld: dict[str, int]
    picks: int
    leaderboards: list[str]
    unreadable: list[str] = field(default_factory=list)


def _jsonl(rows: Sequence[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(row, allow_nan=False) + "\n" for row in rows).encode("utf-8")


def _round_row(round_: Round) -> dict[str, Any]:
    manifest = round_.manifest
    query = {k: str(v) for k, v in (manifest.get("query") or {}).items() if k != "api_base"}
    return {
        "name": round_.name,
        "round_id": str(manifest.get("round_id") or round_.name),
        "source": str(manifest.get("source") or ""),
        "query": json.dumps(query, sort_keys=True),
        "opened_at": when(manifest["opened_at"]),
        "judge_by": when(manifest.get("judge_by")),
        "items": len(round_.items),
        "pairs": len(round_.pairs),
        "items_sha256": manifest["items_sha256"],
        "pairs_sha256": manifest["pairs_sha256"],
        "texts_published": sum(text_shareable(round_, i.item_id) for i in round_.items),
        "label_versions": [
            {
                "file": str(entry["file"]),
                "resolved_at": when(entry.get("resolved_at")),
                "labels_sha256": str(entry.get("labels_sha256") or ""),
                "resolved": bool(entry.get("resolved", False)),
            }
            for entry in manifest.get("label_versions") or []
        ],
    }


def round_files(
    round_: Round, log_dir: str | None, unreadable: list[str]
) -> tuple[dict[str, bytes], int]:
    """(relative path -> bytes, picks) of one round's folder in the publication."""
    name, folder = round_.name, round_.folder
    if "/" in name or "\\" in name or name.startswith("."):
        raise DataError(f"{folder / ROUND_FILE}: field 'name' {name!r} is not a folder name")
    manifest = scrub_value(round_.manifest)  # no local path, no key
    files = {
        f"{name}/{ROUND_FILE}": (json.dumps(manifest, indent=2) + "\n").encode("utf-8"),
        f"{name}/{PAIRS_FILE}": (folder / PAIRS_FILE).read_bytes(),
        f"{name}/items.jsonl": _jsonl(item_rows(round_)),
        f"{name}/pairs.jsonl": _jsonl(pair_rows(round_)),
    }
    if all_texts_shareable(round_):
        files[f"{name}/{ITEMS_FILE}"] = (folder / ITEMS_FILE).read_bytes()
        if (folder / RECORDS_FILE).is_file():  # the papers' texts, under the same licences
            files[f"{name}/{RECORDS_FILE}"] = (folder / RECORDS_FILE).read_bytes()
    for entry in round_.manifest.get("label_versions") or []:
        files[f"{name}/{entry['file']}"] = (folder / str(entry["file"])).read_bytes()
        rows = resolution_rows(round_, entry)
        files[f"{name}/resolutions/{entry['version']}.jsonl"] = _jsonl(rows)
    picks = pick_rows(round_, log_dir, unreadable) if log_dir else []
    if picks:
        files[f"{name}/picks.jsonl"] = _jsonl(picks)
    return files, len(picks)


def _previous(target: Path, out: Path) -> dict[str, Any] | None:
    """The marker of a previous publication in ``target`` (None: new or empty).

    Raises:
        DataError: ``target`` is a file, or not empty and not a publication of ours.
    """
    if target.is_file():
        raise DataError(f"--out {out}: is a file, not a folder; name a new folder")
    if not target.is_dir() or not [p for p in target.iterdir() if p.name not in REPOSITORY_FILES]:
        return None
    try:
        marker = json.loads((target / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        marker = None
    if not isinstance(marker, dict) or marker.get("tool") != TOOL:
        raise DataError(
            f"--out {out}: is not empty and is not a previous publication (no {MARKER} written "
            f"by `{TOOL}`); name a new or empty folder (nothing there is touched)"
        )
    return marker


def _check_no_local_path(files: dict[str, bytes], paths: set[str]) -> None:
    for name, data in files.items():
        text = data.decode("utf-8", errors="replace")
        for path in sorted(paths, key=len, reverse=True):
            if path in text:
                raise DataError(f"{name}: would publish a local path ({path}); nothing was written")


def _write(target: Path, files: dict[str, bytes], previous: dict[str, Any] | None) -> None:
    """Write ``files`` into ``target`` (0644 files, 0755 folders), replacing only files the
    previous publication wrote, and remove its files no longer published."""
    own = set((previous or {}).get("files") or {}) | ({MARKER} if previous else set())
    for name in files:
        if (target / name).exists() and name not in own:
            raise DataError(
                f"--out {target.name}: {name} is there and the previous publication did not "
                "write it; move it away (nothing was written)"
            )
    target.mkdir(parents=True, exist_ok=True)
    target.chmod(0o755)
    for name, data in files.items():
        path = target / name
        for parent in reversed(path.relative_to(target).parents[:-1]):
            (target / parent).mkdir(exist_ok=True)
            (target / parent).chmod(0o755)
        partial = path.with_name(path.name + ".part")
        partial.write_bytes(data)
        partial.chmod(0o644)
        os.replace(partial, path)
    for name in sorted(own - set(files) - {MARKER}):
        stale = target / name
        if stale.is_file():
            stale.unlink()
            for parent in stale.relative_to(target).parents[:-1]:
                folder = target / parent
                if folder.is_dir() and not any(folder.iterdir()):
                    folder.rmdir()


def publish_rounds(
    round_dirs: list[Path],
    log_dir: str | None,
    out: Path,
    *,
    min_pairs: int = DEFAULT_MIN_PAIRS,
    now: Callable[[], dt.datetime] = utc_now,
) -> PublishSummary:
    """Publish the rounds in ``round_dirs`` (with their picks and leaderboards from the logs
    in ``log_dir``, when given) into ``out`` (module docstring).

    Raises:
        DataError: a round cannot be read, two rounds share a name, ``out`` is not new, empty
            or a previous publication, or a file would hold a local path (nothing is written).
    """
    rounds = [load_round(folder) for folder in round_dirs]
    names = [round_.name for round_ in rounds]
    if len(set(names)) < len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise DataError(f"round {twice}: given twice (or two rounds share the name)")
    target = Path(out).expanduser().resolve()
    for round_ in rounds:
        if target == round_.folder or round_.folder in target.parents:
            raise DataError(f"--out {out}: inside the round folder {round_.name}; name another")
    previous = _previous(target, Path(out))
    files: dict[str, bytes] = {}
    unreadable: list[str] = []
    withheld, picks = {}, 0
    for round_ in rounds:
        found, count = round_files(round_, log_dir, unreadable)
        files.update(found)
        picks += count
        withheld[round_.name] = sum(not text_shareable(round_, i.item_id) for i in round_.items)
    round_rows = [_round_row(round_) for round_ in rounds]
    files["rounds.jsonl"] = _jsonl(round_rows)
    ids = {r["round_id"] for r in round_rows}
    boards = published_boards(log_dir, ids, min_pairs) if log_dir else {}
    for task, board in sorted(boards.items()):
        rows = leaderboard_rows(board)
        files[f"leaderboard/{task}.csv"] = csv_text(LEADERBOARD_COLUMNS, rows).encode("utf-8")
    configs = ["rounds", "items", "pairs"]
    configs += ["resolutions"] if any("/resolutions/" in name for name in files) else []
    configs += ["picks"] if picks else []
    configs += ["leaderboard"] if boards else []
    text = card(round_rows, {n: k for n, k in withheld.items() if k}, configs)
    files["README.md"] = text.encode("utf-8")
    local = {str(round_.folder) for round_ in rounds} | {str(target)}
    if log_dir and "://" not in log_dir:
        local.add(str(Path(log_dir).expanduser().resolve()))
    _check_no_local_path(files, local)
    version = int((previous or {}).get("version") or 0) + 1
    marker = {
        "tool": TOOL,
        "version": version,
        "published_at": utc_iso(now()),
        "rounds": [r["round_id"] for r in round_rows],
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())},
    }
    files[MARKER] = (json.dumps(marker, indent=1) + "\n").encode("utf-8")
    _write(target, files, previous)
    return PublishSummary(
        out=target,
        version=version,
        rounds=names,
        files=len(files),
        withheld={n: k for n, k in withheld.items() if k},
        picks=picks,
        leaderboards=[f"leaderboard/{task}.csv" for task in sorted(boards)],
        unreadable=unreadable,
    )
