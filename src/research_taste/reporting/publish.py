"""Putting a built report in place without deleting anything the report did not write.

A report is built in a scratch folder beside ``--out`` and then moved into place. The target may
be: missing or empty (the scratch folder becomes it); a previous report of ours, recognised by
the marker file :data:`MARKER` that lists the files that report wrote (only those are removed,
anything a user added stays); or, with ``force``, any other folder (our files are added, others
stay). The current folder, a folder holding a ``.git`` and a folder holding the log folder are
always refused: replacing them could destroy a checkout or the logs themselves. The published
tree is made readable by others as the umask allows (files 0644, folders 0755 under umask 022):
a scratch folder is created 0700, which a web server running as another user cannot serve.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from research_taste_evals.core.data import DataError

MARKER = ".research-taste-report.json"
MARKER_TOOL = "research-taste report"


def _is_within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def _marker_files(folder: Path) -> list[str] | None:
    """The files a previous report listed in its marker, or None when it is not one of ours."""
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("tool") != MARKER_TOOL:
        return None
    files = data.get("files")
    return [str(name) for name in files] if isinstance(files, list) else None


def check_target(out: Path, log_dir: str, force: bool = False) -> None:
    """Raise, in one sentence naming the folder, when ``out`` must not receive a report."""
    target = out.expanduser().resolve()
    if _is_within(Path.cwd().resolve(), target):
        raise DataError(
            f"--out {out}: refusing to write a report over the current folder (or one holding "
            "it); name a new folder such as --out reports/demo"
        )
    if target.is_file():
        raise DataError(f"--out {out}: is a file, not a folder; name a new folder")
    if (target / ".git").exists():
        raise DataError(f"--out {out}: holds a .git (a repository); name a new folder")
    if "://" not in log_dir:
        logs = Path(log_dir).expanduser().resolve()
        if _is_within(logs, target) or _is_within(target, logs):
            raise DataError(
                f"--out {out}: holds or lies inside the log folder {log_dir}; name a folder "
                "outside it"
            )
    if not target.is_dir() or not any(target.iterdir()) or force:
        return
    if _marker_files(target) is None:
        raise DataError(
            f"--out {out}: is not empty and is not a previous report (no {MARKER}); name a new "
            "folder, or pass --force to add the report's files to it (nothing there is deleted)"
        )


def _published_files(folder: Path) -> list[str]:
    return sorted(
        path.relative_to(folder).as_posix() for path in folder.rglob("*") if not path.is_dir()
    )


def make_readable(folder: Path) -> None:
    """Folders ``0777`` and files ``0666``, less the umask (0755 / 0644 under umask 022)."""
    mask = os.umask(0)
    os.umask(mask)
    folder.chmod(0o777 & ~mask)
    for path in folder.rglob("*"):
        path.chmod((0o777 if path.is_dir() else 0o666) & ~mask)


def _remove_previous(target: Path) -> None:
    """Delete only the files the previous report listed, then the folders left empty."""
    for name in _marker_files(target) or []:
        path = (target / name).resolve()
        if _is_within(path, target) and path != target and (path.is_file() or path.is_symlink()):
            path.unlink()
    for folder in sorted(target.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    (target / MARKER).unlink(missing_ok=True)


def publish(scratch: Path, out: Path) -> None:
    """Move the finished report in ``scratch`` to ``out`` (checked by :func:`check_target`)."""
    files = _published_files(scratch)
    marker = {"tool": MARKER_TOOL, "files": [*files, MARKER]}
    (scratch / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")
    make_readable(scratch)
    target = out.expanduser().resolve()
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
    if not target.exists():
        scratch.rename(target)
        return
    _remove_previous(target)
    for entry in sorted(scratch.iterdir()):
        destination = target / entry.name
        if destination.is_dir() and entry.is_dir():
            shutil.copytree(entry, destination, dirs_exist_ok=True)  # --force into a user folder
            continue
        if destination.is_dir():
            raise DataError(f"--out {out}: {entry.name} is a folder there; remove it or rename")
        entry.replace(destination)
    shutil.rmtree(scratch)
