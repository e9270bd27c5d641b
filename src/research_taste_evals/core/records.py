"""Reading a local data file into records: JSON, JSONL, YAML and CSV readers and the schema check
(:func:`validate_records`), each failure one :class:`DataError` sentence naming the file, the
record index and the field. Where the file comes from (pinned download, Hub file, local path) is
core/data.py, which re-exports these names.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from research_taste_evals.core.errors import UserError

ModelT = TypeVar("ModelT", bound=BaseModel)


class DataError(UserError, ValueError):
    """Input data that cannot be used: the message names the source, record and field."""


def read_json(path: Path) -> Any:
    """Parse a JSON file; errors name the file and the position."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 text: byte {error.start}: {error.reason}") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DataError(
            f"{path}: invalid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from error


def read_yaml(path: Path) -> Any:
    """Parse a YAML file (``yaml.safe_load``); errors name the file, line and column."""
    import yaml  # imported on use: most runs read no YAML

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: cannot read: not UTF-8 text: byte {error.start}") from error
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise DataError(f"{path}: invalid YAML {describe_yaml_error(error)}") from error


def read_jsonl(path: Path) -> list[Any]:
    """Parse a JSON-lines file (Python's json, which accepts bare NaN); errors name the line."""
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from error
    records = []
    for line_number, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataError(
                f"{path}: line {line_number}: not UTF-8 text: byte {error.start}: {error.reason}"
            ) from error
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise DataError(
                f"{path}: line {line_number}: invalid JSON at column {error.colno}: {error.msg}"
            ) from error
    return records


def validate_records(records: Any, model: type[ModelT], source: Path | str) -> list[ModelT]:
    """Validate a list of raw records against a pydantic model.

    Raises:
        DataError: no records at all, or naming the source, the index of the first bad record
            and the field at fault.
    """
    if not isinstance(records, Sequence) or isinstance(records, str | bytes):
        raise DataError(f"{source}: expected a JSON list of records, got {type(records).__name__}")
    if not records:
        # Every caller builds a dataset from these; Inspect's own "dataset is empty" names no file.
        raise DataError(f"{source}: no records (the file holds an empty list or only a header)")
    validated = []
    for index, record in enumerate(records):
        try:
            validated.append(model.model_validate(record))
        except ValidationError as error:
            raise DataError(
                f"{source}: record {index}: {describe_validation_error(error)}"
            ) from error
    return validated


def validation_location(loc: Iterable[int | str], root: str = "<record>") -> str:
    """``('levels', 3, 'criteria', 1, 'points')`` -> ``levels[3].criteria[1].points``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or root


def describe_validation_error(error: ValidationError) -> str:
    """The first problem of a pydantic error as ``field '<path>': <message>``.

    The one formatter for validation errors: every loader and config reader names the field
    the same way.
    """
    problem = error.errors()[0]
    message = problem["msg"].removeprefix("Value error, ")
    return f"field '{validation_location(problem['loc'])}': {message}"


def _first_line(error: BaseException) -> str:
    """The first line of an error message (Hub errors run to a dozen lines of advice)."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def describe_yaml_error(error: Exception) -> str:
    """A YAML parse error in one line: ``at line L column C: <problem>`` (PyYAML's own text
    spans several lines and quotes the file as ``<unicode string>``)."""
    mark = getattr(error, "problem_mark", None)
    where = f"at line {mark.line + 1} column {mark.column + 1}: " if mark else ""
    problem = getattr(error, "problem", None) or _first_line(error)
    return f"{where}{problem}"


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows of a CSV file (header row first) as dicts; errors name the file and the line."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DataError(f"{path}: cannot read CSV: {error.strerror or error}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_number = data.count(b"\n", 0, error.start) + 1
        raise DataError(
            f"{path}: cannot read CSV: line {line_number}: not UTF-8 text: byte {error.start}: "
            f"{error.reason}"
        ) from error
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        return list(reader)
    except csv.Error as error:
        raise DataError(f"{path}: cannot read CSV: line {reader.line_num}: {error}") from error
