"""Checks of ``research-taste ideapairs build``'s inputs, before anything is read or written.

A build that cannot produce pairs must say why and exit non-zero, never write a 0-pair file:
each check raises one :class:`DataError` naming the argument or file at fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.model import Model, get_model

from research_taste.builders.ideapairs.boards import Leaderboard
from research_taste_evals.core.data import DataError
from research_taste_evals.core.errors import is_inspect_prerequisite_error
from research_taste_evals.core.failure_text import plain_message

LEADERBOARD_SUFFIXES = (".json", ".md")
NO_TABLE = (
    "no leaderboard in it (a PapersWithCode task list with rows, or a markdown pipe table "
    "whose header has a Paper / Source / Reference column)"
)


def check_outputs(out: str | Path, report_path: str | Path | None) -> None:
    """``--out`` and ``--report`` must be files to write, not folders."""
    for flag, value in (("--out", out), ("--report", report_path)):
        if value is not None and Path(value).is_dir():
            raise DataError(f"{flag} {value}: is a folder; give the file to write")


def check_extractor(extract: bool, extractor: str | Model | None) -> None:
    """The extractor must name a usable model (checked without a call)."""
    if not extract:
        return
    if not extractor:
        raise DataError(
            "--extractor: extraction needs an extractor model (--extractor MODEL), "
            "or use --no-extract"
        )
    if isinstance(extractor, Model):
        return
    try:
        get_model(extractor)
    except Exception as error:
        if is_inspect_prerequisite_error(error):  # a missing key or client package
            raise DataError(f"--extractor {extractor}: {plain_message(error)}") from error
        if isinstance(error, ValueError):  # Inspect's "Model API nosuch ... not recognized"
            raise DataError(f"--extractor {extractor}: {error}") from error
        raise


def check_leaderboard_paths(paths: Sequence[Path]) -> None:
    """Each path exists, and a folder holds at least one ``.json`` or ``.md`` file."""
    if not paths:
        raise DataError("give at least one leaderboard file or folder")
    for path in paths:
        if not path.exists():
            raise DataError(f"{path}: leaderboard file does not exist")
        if path.is_dir() and not any(
            p.suffix in LEADERBOARD_SUFFIXES for p in path.rglob("*") if p.is_file()
        ):
            raise DataError(f"{path}: the folder holds no .json or .md leaderboard file")


def check_boards_found(paths: Sequence[Path], boards: Sequence[Leaderboard]) -> None:
    """Every file named on the command line, and every folder, yields a leaderboard.

    (Inside a folder a file without one, e.g. a README, is fine.)
    """
    for path in paths:
        found = [b for b in boards if _under(Path(b.source), path)]
        if not found:
            what = "file" if path.is_file() else "folder (none of its files)"
            raise DataError(f"{path}: {what} has {NO_TABLE}")


def _under(source: Path, path: Path) -> bool:
    source, path = source.resolve(), path.resolve()
    return source == path or path in source.parents


def check_pairs_made(
    pairs: int, boards: int, entries: int, dropped: dict[str, int], sources: Sequence[Path] = ()
) -> None:
    """A build that made no pair fails (and writes nothing), naming the inputs and saying what
    was read and dropped (and, when entries had no year, where a year is read from)."""
    if pairs:
        return
    reasons = ", ".join(f"{reason}: {n}" for reason, n in dropped.items() if n) or "none"
    named = ", ".join(str(s) for s in sources)
    year_hint = (
        "; an entry's year comes from its paper_date, a '(Author et al., YEAR)' citation in "
        "its model name, or an arXiv / ACL Anthology paper URL"
        if dropped.get("no_year")
        else ""
    )
    raise DataError(
        f"{named + ': ' if named else ''}no idea pairs: read {entries} entries on {boards} "
        f"leaderboards, dropped by reason ({reasons}){year_hint}; a pair needs two kept entries "
        "of one leaderboard whose scores differ within a tier's range. Nothing was written"
    )
