"""Reading LFT rubric files: one YAML file or a folder of them (the shipped ``rubrics/`` by
default) into rubrics (lft/rubric.py), each problem one sentence naming the file and the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    ValidationError,
)

from research_taste_evals.core.data import DataError, describe_yaml_error, validation_location
from research_taste_evals.lft.rubric import (
    DEFAULT_RUBRIC_DIR,
    RUBRIC_SUFFIXES,
    TOP_LEVEL,
    Rubric,
    RubricIssue,
)


def _describe(error: ValidationError) -> str:
    problem = error.errors()[0]
    cause = (problem.get("ctx") or {}).get("error")
    location = validation_location(problem["loc"], TOP_LEVEL)
    if isinstance(cause, RubricIssue):
        # A model validator reports from the root, a field validator from its field; the
        # issue's own path is already complete in both cases unless nested below the field.
        path = cause.path
        if problem["loc"] and not path.startswith(location):
            path = f"{location}.{path}"
        return f"{path}: {cause.reason}"
    message = problem["msg"].removeprefix("Value error, ")
    given = problem.get("input")
    if problem["type"] != "value_error" and isinstance(given, int | float | str | bool):
        message += f" (got {given!r})"
    return f"{location}: {message}"


def parse_rubric(raw: Any, source: Path | str) -> Rubric:
    """Validate already-parsed YAML/JSON data as a rubric; errors name ``source`` and the path."""
    if not isinstance(raw, dict):
        raise DataError(f"{source}: expected a mapping at the top level, got {type(raw).__name__}")
    try:
        return Rubric.model_validate(raw)
    except ValidationError as error:
        raise DataError(f"{source}: {_describe(error)}") from error


def load_rubric(path: str | Path) -> Rubric:
    """Load and validate one rubric file; context-document paths are resolved and checked.

    Raises:
        DataError: ``<file>: <path inside it>: <reason>``.
    """
    file = Path(path).expanduser().resolve()
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"{file}: cannot read rubric: {error}") from error
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise DataError(f"{file}: invalid YAML {describe_yaml_error(error)}") from error
    rubric = parse_rubric(raw, file)
    documents = []
    for index, document in enumerate(rubric.context_documents):
        if document.path is not None:
            resolved = (file.parent / document.path).resolve()
            if not resolved.is_file():
                raise DataError(f"{file}: context_documents[{index}].path: no such file {resolved}")
            document = document.model_copy(update={"path": str(resolved)})
            where = f"{file}: context_documents[{index}].path"
            try:  # read now, so a bad document stops the load, not a sample mid-run
                if not document.content().strip():
                    raise DataError(f"{resolved}: the document is empty")
            except DataError as error:
                raise DataError(f"{where}: {error}") from error
        documents.append(document)
    return rubric.model_copy(update={"context_documents": documents})


def load_rubrics(
    directory: str | Path | None = None, task_ids: Iterable[str] | None = None
) -> list[Rubric]:
    """Load every ``*.yaml``/``*.yml`` rubric in ``directory`` (default: the shipped ones).

    Args:
        directory: A folder of rubric files, or a single rubric file.
        task_ids: Keep only these task ids (in the directory's sorted order); an unknown id is
            an error that lists the known ones.

    Raises:
        DataError: a missing/empty directory, a malformed file, a task id used twice, or an
            unknown requested task id.
    """
    root = Path(directory).expanduser() if directory is not None else DEFAULT_RUBRIC_DIR
    if root.is_file():
        paths = [root]
    elif root.is_dir():
        # Suffixes match case-insensitively: a rubric saved as task.YAML is still a rubric.
        paths = sorted(
            p for p in root.iterdir() if p.suffix.lower() in RUBRIC_SUFFIXES and p.is_file()
        )
    else:
        raise DataError(f"{root}: rubric directory does not exist")
    if not paths:
        raise DataError(f"{root}: no rubric files (*.yaml, *.yml)")
    rubrics: list[Rubric] = []
    origin: dict[str, Path] = {}
    for path in paths:
        rubric = load_rubric(path)
        if rubric.task_id in origin:
            raise DataError(
                f"{path}: task_id: '{rubric.task_id}' is already used by {origin[rubric.task_id]}"
            )
        origin[rubric.task_id] = path
        rubrics.append(rubric)
    if task_ids is None:
        return rubrics
    wanted = list(task_ids)
    unknown = [task_id for task_id in wanted if task_id not in origin]
    if unknown:
        raise DataError(f"{root}: unknown task id(s) {unknown}; known: {sorted(origin)}")
    return [rubric for rubric in rubrics if rubric.task_id in set(wanted)]
