"""``research-taste register --out DIR``: each family's inspect_evals register entry
(``research_taste/register.py``), from its ``eval.yaml`` and the checked-out commit."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from research_taste.register import checked_out_commit, write_entries
from research_taste_evals.core.data import DataError
from research_taste_evals.core.families import PACKAGE_DIR

HELP = "write each family's inspect_evals register entry (register/<name>/eval.yaml)"


def origin_url(where: Path) -> str | None:
    """The checkout's ``origin`` remote as an https URL, or None."""
    found = subprocess.run(
        ["git", "-C", str(where), "remote", "get-url", "origin"], capture_output=True, text=True
    )
    url = found.stdout.strip()
    if found.returncode != 0 or not url:
        return None
    if url.startswith("git@"):  # git@github.com:owner/repo.git
        host, _, path = url[len("git@") :].partition(":")
        url = f"https://{host}/{path}"
    return url.removesuffix(".git")


def _cmd_register(args: argparse.Namespace) -> int:
    repository = args.repository or origin_url(PACKAGE_DIR)
    if repository is None:
        raise DataError(
            "--repository: the checkout has no origin remote; give the repository's URL "
            "(e.g. --repository https://github.com/<owner>/<repo>)"
        )
    commit = args.commit or checked_out_commit(PACKAGE_DIR)
    for path in write_entries(Path(args.out), repository, commit, args.family):
        print(path)
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("register", help=HELP)
    parser.add_argument("--out", required=True, help="folder to write <family>/eval.yaml into")
    parser.add_argument(
        "--commit",
        help="the 40-character commit the entries name (default: the checked-out one, "
        "which must have no uncommitted change)",
    )
    parser.add_argument(
        "--repository", help="the repository's URL (default: the checkout's origin remote)"
    )
    parser.add_argument(
        "--family", action="append", help="write only this family's entry (repeatable)"
    )
    parser.set_defaults(func=_cmd_register)
