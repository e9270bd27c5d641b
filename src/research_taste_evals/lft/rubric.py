"""The Long-Form Task rubric format: a YAML file per task, validated by pydantic.

A rubric (AISI Long-Form Tasks report, "Scoring") holds the task prompt and ten
cumulative levels. Level k's requirement is every criterion of levels 1..k, so a solution
reaches level k only if it meets all of them; level 0 (a missing or irrelevant answer) is
implicit. Each criterion carries 1-4 partial-credit points by importance and difficulty; the
flattened list of all criteria is the partial-credit checklist.

File layout (YAML)::

    task_id: petunia-plastid          # lowercase slug; the sample id is derived from it
    title: ...
    domain: plant biotechnology
    prompt: |
      ...
    context_documents:                 # optional, used by access="context"
      - {title: ..., text: ...}        # exactly one of text / path
      - {title: ..., path: docs/x.txt} # path relative to the rubric file
    web_block_list: [example.org]      # optional, domains the web_search tool must not use
    sources: [...]                     # optional, public sources the rubric was written from
    levels:                            # exactly levels 1..10, in order
      - level: 1
        title: ...                     # optional
        criteria:
          - {id: target-enzyme, text: ..., points: 3}
          - {id: delivery, text: ..., points: 4,
             alternatives: [another route that works equally well]}  # optional

A malformed file raises :class:`~research_taste_evals.core.data.DataError` naming the file, the
path inside it (``levels[3].criteria[1].points``) and the reason. :func:`load_rubrics` reads
one YAML file or a folder of them (the shipped ``rubrics/`` by default), each problem one
sentence naming the file and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from research_taste_evals.core.data import DataError, describe_yaml_error, validation_location
from research_taste_evals.core.text import content_id

MIN_POINTS = 1
MAX_POINTS = 4
MIN_LEVEL = 1
MAX_LEVEL = 10  # the end-to-end score runs 0..10; 0 (missing or irrelevant) is implicit
TOP_LEVEL = "<top level>"  # where a problem that belongs to no field is reported
RUBRIC_SUFFIXES = (".yaml", ".yml")
RUBRIC_METADATA_KEY = "rubric"  # where dataset.py puts the rubric in each sample's metadata
SLUG_PATTERN = r"^[a-z0-9][a-z0-9_.-]*$"
CRITERION_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
DOMAIN_PATTERN = r"[a-z0-9-]+(\.[a-z0-9-]+)+"  # search providers take bare domains

# The shipped rubrics, packaged with the wheel (hatchling includes every file under the package).
DEFAULT_RUBRIC_DIR = Path(str(files("research_taste_evals.lft") / "rubrics"))


class RubricIssue(ValueError):
    """A structural problem found by a validator, with the path where it is."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class _Strict(BaseModel):
    # extra="forbid": a misspelt key (``criterias``) is an error, not a silently empty list.
    model_config = ConfigDict(extra="forbid", frozen=True)


class Criterion(_Strict):
    """One requirement of a level, worth 1-4 partial-credit points.

    ``alternatives`` name other ways of meeting it that the rubric accepts, so a valid route
    the author did not make the main text (AISI's "Limitations": "if a solution makes use of
    a valid approach which is not in the rubric, the grader will incorrectly assign the
    solution a low score") is not a hard gate.
    """

    id: str = Field(pattern=CRITERION_ID_PATTERN)
    text: str = Field(min_length=1)
    points: int = Field(ge=MIN_POINTS, le=MAX_POINTS)
    alternatives: list[str] = Field(default_factory=list)


class Level(_Strict):
    """One level of the end-to-end score; its criteria add to those of all lower levels."""

    level: int = Field(ge=MIN_LEVEL, le=MAX_LEVEL)
    title: str | None = None
    criteria: list[Criterion] = Field(min_length=1)


class ContextDocument(_Strict):
    """A document for ``access="context"``: inline ``text`` or a ``path`` relative to the rubric."""

    title: str = Field(min_length=1)
    text: str | None = None
    path: str | None = None

    @model_validator(mode="after")
    def _exactly_one_source(self) -> ContextDocument:
        if (self.text is None) == (self.path is None):
            raise ValueError("give exactly one of 'text' and 'path'")
        return self

    def content(self) -> str:
        """The document's plain text (reads ``path``, which the loader made absolute)."""
        if self.text is not None:
            return self.text
        assert self.path is not None
        try:
            return Path(self.path).read_text(encoding="utf-8")
        except OSError as error:
            raise DataError(f"{self.path}: cannot read context document: {error}") from error
        except UnicodeDecodeError as error:
            raise DataError(
                f"{self.path}: context document is not UTF-8 text: byte {error.start}"
            ) from error


class Rubric(_Strict):
    """A Long-Form Task: the prompt, optional information-access material and ten levels."""

    task_id: str = Field(pattern=SLUG_PATTERN)
    title: str = Field(min_length=1)
    domain: str = Field(min_length=1)
    prompt: str = Field(min_length=1)
    context_documents: list[ContextDocument] = Field(default_factory=list)
    web_block_list: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    levels: list[Level]

    @field_validator("web_block_list")
    @classmethod
    def _bare_domains(cls, domains: list[str]) -> list[str]:
        for index, domain in enumerate(domains):
            if not re.fullmatch(DOMAIN_PATTERN, domain):
                raise RubricIssue(
                    f"web_block_list[{index}]",
                    f"'{domain}' is not a bare domain (write 'example.org', no scheme or path)",
                )
        return domains

    @model_validator(mode="after")
    def _levels_one_to_ten_in_order(self) -> Rubric:
        numbers = [level.level for level in self.levels]
        seen: dict[int, int] = {}
        for index, number in enumerate(numbers):
            if number in seen:
                raise RubricIssue(
                    f"levels[{index}].level",
                    f"duplicate level {number} (already given at levels[{seen[number]}])",
                )
            seen[number] = index
        missing = [n for n in range(MIN_LEVEL, MAX_LEVEL + 1) if n not in seen]
        if missing:
            raise RubricIssue(
                "levels",
                f"missing level(s) {', '.join(map(str, missing))}: a rubric needs every level "
                f"{MIN_LEVEL}..{MAX_LEVEL}",
            )
        for index, number in enumerate(numbers):
            expected = MIN_LEVEL + index
            if number != expected:
                raise RubricIssue(
                    f"levels[{index}].level",
                    f"levels out of order: expected level {expected} here, got {number} "
                    f"(levels must be listed {MIN_LEVEL}..{MAX_LEVEL} in order)",
                )
        first_use: dict[str, str] = {}
        for li, level in enumerate(self.levels):
            for ci, criterion in enumerate(level.criteria):
                where = f"levels[{li}].criteria[{ci}].id"
                if criterion.id in first_use:
                    raise RubricIssue(
                        where,
                        f"duplicate criterion id '{criterion.id}' "
                        f"(first used at {first_use[criterion.id]})",
                    )
                first_use[criterion.id] = where
        return self

    def flattened_criteria(self) -> list[Criterion]:
        """All criteria of all levels in level order: the partial-credit checklist."""
        return [criterion for level in self.levels for criterion in level.criteria]

    def total_points(self) -> int:
        """Partial-credit points available (the denominator of the partial credit)."""
        return sum(criterion.points for criterion in self.flattened_criteria())

    def criteria_up_to(self, level: int) -> list[Criterion]:
        """Level ``level``'s full requirement: every criterion of levels 1..``level``.

        ``level`` 0 gives an empty list; anything outside 0..10 raises ValueError.
        """
        if not 0 <= level <= MAX_LEVEL:
            raise ValueError(f"level must be in 0..{MAX_LEVEL}, got {level}")
        return [c for lvl in self.levels if lvl.level <= level for c in lvl.criteria]

    def content_hash(self) -> str:
        """A stable hash of the rubric's content (recorded per sample: which rubric graded it)."""
        return content_id(json.dumps(self.model_dump(mode="json"), sort_keys=True))


def rubric_from_metadata(metadata: Mapping[str, Any]) -> Rubric:
    """Rebuild the rubric a sample carries in its metadata (see ``lft/dataset.py``)."""
    if RUBRIC_METADATA_KEY not in metadata:
        raise DataError(f"sample metadata has no '{RUBRIC_METADATA_KEY}': not an LFT sample")
    return Rubric.model_validate(metadata[RUBRIC_METADATA_KEY])


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
