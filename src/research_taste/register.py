"""Each family's inspect_evals register entry, written from its ``eval.yaml`` and a commit.

inspect_evals lists an eval kept in another repository through a ``register/<name>/eval.yaml``
entry, validated as ``inspect_evals.metadata.ExternalEvalMetadata`` (its ``metadata.py``): the
titles, a one-line description, the paper's arXiv URL, the contributors, the tasks each with
the path of its ``@task`` file (``task_path``), and the source (``repository_url`` and
``repository_commit``). The model has no field for external assets, so the entry carries the
family's under ``metadata.extras.external_assets`` (each an ``ExternalAsset``), beside the
family's group and each task's version.

An entry is ready to submit (:func:`problems` finds nothing) when the family names its paper's
arXiv URL and every asset it fetches is pinned at a revision (``state: pinned`` or
``controlled``); the commit is a full 40-character git sha. Nothing here is listed by hand:
the families and their tasks are the folders' (``core/families.py``), everything else their
``eval.yaml``.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path
from typing import Any

import yaml

from research_taste.reporting.families import EVAL_YAML, family_eval_yamls
from research_taste_evals.core.data import DataError
from research_taste_evals.core.families import PACKAGE, Family, families

FULL_COMMIT = re.compile(r"^[0-9a-f]{40}$")
PINNED_STATES = ("pinned", "controlled")  # inspect_evals' AssetState: not "floating"
SOURCE_ROOT = "src"  # the package's folder in the repository (pyproject: src layout)


def task_paths(family: Family) -> dict[str, str]:
    """Each exported task -> its ``@task`` file, relative to the repository root, read from
    the family's ``__init__.py`` imports (``from research_taste_evals.<family>.<m> import t``).

    Raises:
        DataError: a task the ``__init__.py`` does not import from a module of the package.
    """
    init = family.folder / "__init__.py"
    origin = {
        alias.asname or alias.name: node.module
        for node in ast.parse(init.read_text(encoding="utf-8")).body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }
    paths = {}
    for task in family.tasks:
        module = origin.get(task, "")
        if not module.startswith(f"{family.package}."):
            raise DataError(
                f"{init}: task {task!r} is not imported from a module of {family.package} "
                f"(from {family.package}.<module> import {task}), so its task_path is unknown"
            )
        paths[task] = "/".join([SOURCE_ROOT, *module.split(".")]) + ".py"
    return paths


def problems(family: str, data: dict[str, Any]) -> list[str]:
    """Why the family's entry is not ready to submit, one sentence each ([] when ready)."""
    where = f"{PACKAGE}/{family}/{EVAL_YAML}"
    found = []
    if not data.get("arxiv"):
        found.append(f"{where}: field 'arxiv' is missing (an entry names its paper's arXiv URL)")
    for index, asset in enumerate(data.get("external_assets") or []):
        if asset.get("state") not in PINNED_STATES:
            found.append(
                f"{where}: field 'external_assets.{index}' ({asset.get('source')}) is "
                f"{asset.get('state')!r} (pin it at a revision: state pinned)"
            )
    return found


def _one_line(text: object) -> str:
    return " ".join(str(text or "").split())


def register_entry(family: Family, data: dict[str, Any], repository: str, commit: str) -> dict:
    """The family's ``register/<name>/eval.yaml`` content (without ``id``, which inspect_evals
    takes from the folder name)."""
    extras = (data.get("metadata") or {}).get("extras") or {}
    versions = {
        task: str((extras.get("tasks") or {}).get(task, {}).get("version", data.get("version")))
        for task in family.tasks
    }
    paths = task_paths(family)
    tasks = []
    for task in data.get("tasks") or []:
        entry = {key: task[key] for key in ("name", "dataset_samples", "comment") if key in task}
        if task.get("kind"):
            entry["kind"] = task["kind"]
        entry["task_path"] = paths[task["name"]]
        tasks.append(entry)
    title = str(data["title"])
    entry_data: dict[str, Any] = {
        "full_title": title,
        "common_title": title.split(":", 1)[0].strip(),
        "description": _one_line(data.get("description")),
        **({"arxiv": str(data["arxiv"])} if data.get("arxiv") else {}),
        "contributors": list(data.get("contributors") or []),
        "tasks": tasks,
        "source": {"repository_url": repository, "repository_commit": commit},
        "metadata": {
            "extras": {
                "group": data.get("group"),
                "version": str(data.get("version")),
                "task_versions": versions,
                "external_assets": list(data.get("external_assets") or []),
            }
        },
    }
    return entry_data


def validated(name: str, entry: dict[str, Any]) -> Any:
    """``entry`` validated as inspect_evals' ``ExternalEvalMetadata`` (id: ``name``), its
    assets as ``ExternalAsset``s.

    Raises:
        DataError: inspect_evals is not installed, or the entry does not validate.
    """
    try:
        from inspect_evals.metadata import ExternalAsset, ExternalEvalMetadata
    except ImportError as error:
        raise DataError(
            "the register entries are validated with inspect_evals.metadata: "
            "pip install inspect-evals (it is in the dev extra)"
        ) from error
    from pydantic import ValidationError

    assets = entry["metadata"]["extras"]["external_assets"]
    where: tuple[str | int, ...] = ()
    try:
        for index, asset in enumerate(assets):
            where = ("metadata", "extras", "external_assets", index)
            ExternalAsset.model_validate(asset)
        where = ()
        return ExternalEvalMetadata.model_validate({**entry, "id": name})
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in (*where, *first["loc"]))
        raise DataError(f"register entry {name}: field '{field}': {first['msg']}") from error


def checked_out_commit(where: Path) -> str:
    """The commit checked out at ``where``, when its git tree has no uncommitted change.

    Raises:
        DataError: not a git tree, or one with changes (one sentence; ``--commit`` instead).
    """

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True)

    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        raise DataError(
            f"{where} is not in a git checkout, so no commit is known; give --commit <sha>"
        )
    changed = git("status", "--porcelain").stdout.splitlines()
    if changed:
        raise DataError(
            f"{where}: the git tree has {len(changed)} uncommitted change(s) (first: "
            f"{changed[0].strip()}), which the commit does not hold; commit them or give --commit"
        )
    return head.stdout.strip()


def write_entries(
    out: Path, repository: str, commit: str, only: list[str] | None = None
) -> list[Path]:
    """Write ``<out>/<family>/eval.yaml`` for each family (``only``: these), after checking
    every one: nothing is written unless all are ready and valid.

    Raises:
        DataError: the commit is not a full sha, an unknown family, or a family not ready
            (every reason, one sentence each) or not valid.
    """
    if not FULL_COMMIT.match(commit):
        raise DataError(f"--commit {commit}: expected the full 40-character hexadecimal sha")
    known = {family.name: family for family in families()}
    unknown = sorted(set(only or []) - set(known))
    if unknown:
        raise DataError(
            f"--family {', '.join(unknown)}: no such family; give one of {sorted(known)}"
        )
    yamls = family_eval_yamls()
    chosen = [known[name] for name in known if not only or name in only]
    reasons = [reason for family in chosen for reason in problems(family.name, yamls[family.name])]
    if reasons:
        raise DataError(f"not ready to register ({len(reasons)}): " + "; ".join(reasons))
    entries = {}
    for family in chosen:
        entry = register_entry(family, yamls[family.name], repository, commit)
        validated(family.name, entry)
        entries[family.name] = entry
    written = []
    for name, entry in entries.items():
        target = out / name / EVAL_YAML
        target.parent.mkdir(parents=True, exist_ok=True)
        text = yaml.safe_dump(entry, sort_keys=False, allow_unicode=True, width=100)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
