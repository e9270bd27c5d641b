"""Search every file below a folder, inside zip archives (``.eval`` logs) too, for byte strings:
what the no-leak tests (keys, local paths) use to prove a folder holds none."""

from __future__ import annotations

import zipfile
from pathlib import Path


def file_contents(path: Path) -> list[tuple[str, bytes]]:
    """A file's bytes, or each member's bytes for a zip archive such as an ``.eval`` log."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            return [(f"{path}!{name}", archive.read(name)) for name in archive.namelist()]
    return [(str(path), path.read_bytes())]


def files_containing(folder: Path, needles: list[bytes]) -> list[str]:
    """Every file (or archive member, as ``archive!member``) below ``folder`` holding a needle."""
    return [
        name
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        for name, data in file_contents(path)
        if any(needle in data for needle in needles)
    ]
