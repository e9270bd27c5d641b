"""The ``--out`` folder of a builder, checked before any request and left as it was found when
the build fails (``tastybench build``, ``openreview build``).

``--out`` may be new, empty, or an earlier build's folder (to resume or redo it), and must be
writable: ``--out /proc/x`` or ``--out <a file>/sub`` is refused in one sentence before any
request. A build that fails removes the folders it created while they hold nothing (it never
deletes a file, and never a folder it did not create); a cache it fetched stays, so the next
run resumes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from research_taste_evals.core.data import DataError


def check_out_dir(out: Path, written: frozenset[str]) -> list[Path]:
    """Check ``out`` and create it; returns the folders created (outermost first).

    Raises:
        DataError: it is a file, holds anything but the names in ``written``, or cannot be
            written (naming ``--out``).
    """
    if out.exists() and not out.is_dir():
        raise DataError(f"--out {out} is a file; give a folder (new, empty or an earlier build)")
    foreign = sorted(p.name for p in out.iterdir() if p.name not in written) if out.exists() else []
    if foreign:
        raise DataError(
            f"--out {out} holds files this builder did not write ({', '.join(foreign[:5])}); "
            "give a new or empty folder"
        )
    missing = [folder for folder in (out, *out.parents) if not folder.exists()][::-1]
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        remove_created(missing)
        raise DataError(
            f"--out {out} cannot be written ({error.strerror or error}); give a folder you "
            "can write"
        ) from None
    return missing


def remove_created(created: list[Path]) -> None:
    """Remove the folders in ``created`` (and the empty folders inside them), innermost first,
    each only while it is empty."""
    for folder in reversed(created):
        if not folder.is_dir():
            continue
        for root, _, _ in sorted(os.walk(folder), key=lambda entry: -len(entry[0])):
            with contextlib.suppress(OSError):  # not empty: something was written, keep it
                os.rmdir(root)


@contextlib.contextmanager
def out_folder(out: Path, written: frozenset[str]) -> Iterator[Path]:
    """``with out_folder(out, names):`` checks and creates ``out`` before the build; if the
    build fails, the folders it created are removed while empty (see the module docstring)."""
    created = check_out_dir(out, written)
    try:
        yield out
    except BaseException:
        remove_created(created)
        raise
