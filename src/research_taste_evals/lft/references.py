"""Reference solutions with known levels, for the grader meta-evaluation ``lft_grader_check``.

A reference file (YAML, one per rubric, in ``lft/grader_references/``) holds one passage per
rubric criterion, each written to meet that criterion and nothing of a higher level. A
constructed reference is an ordered selection of passages, so its true end-to-end level is the
highest k whose criteria (and all below) are all included, and its true partial credit is the
included points over the rubric's points. Every file yields ``exact-<k>`` for k = 1..10, plus
its listed references: ``include``/``omit`` selections (with an optional ``extra`` sentence in
place of the first omitted passage, and ``replace`` for passages written another way that
still meet their criterion) or free ``text`` whose level the author states. Passages are
written in other words than their criteria, so a grader that matches words cannot pass. For a
constructed reference the stated ``known_level`` must equal the computed one.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import yaml
from inspect_ai.dataset import MemoryDataset, Sample
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_taste_evals.core.data import DataError, validation_location
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.provenance import provenance
from research_taste_evals.lft.grader import LFT_GRADER_REPEATS
from research_taste_evals.lft.rubric import (
    MAX_LEVEL,
    MIN_LEVEL,
    RUBRIC_METADATA_KEY,
    RUBRIC_SUFFIXES,
    TOP_LEVEL,
    Rubric,
)

ReferenceKind = Literal[
    "exact", "gap", "generic_vector", "confident_wrong", "keyword_stuffing", "alternative"
]
DEFAULT_REFERENCE_DIR = Path(str(files("research_taste_evals.lft") / "grader_references"))
DATASET_NAME = "lft_grader_check"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ReferenceSpec(_Strict):
    """One listed reference: a selection of passages, or a free text with a stated level."""

    id: str = Field(min_length=1)
    kind: ReferenceKind
    known_level: int = Field(ge=0, le=MAX_LEVEL)
    include: list[str] | None = None
    omit: list[str] | None = None
    extra: str | None = None
    text: str | None = None
    # Passages written another way that still meets the criterion (e.g. a rubric alternative).
    replace: dict[str, str] = Field(default_factory=dict)


class ReferenceFile(_Strict):
    task_id: str
    intro: str = ""
    passages: dict[str, str]
    references: list[ReferenceSpec] = Field(default_factory=list)


class Reference(_Strict):
    """A reference solution ready to grade."""

    task_id: str
    id: str
    kind: ReferenceKind
    known_level: int
    known_partial_credit: float | None
    text: str


def known_level(rubric: Rubric, included: set[str]) -> int:
    """The highest level whose criteria, and all criteria below it, are all in ``included``."""
    reached = 0
    for level in rubric.levels:
        if not all(c.id in included for c in level.criteria):
            break
        reached = level.level
    return reached


def _compose(intro: str, passages: list[str]) -> str:
    steps = [f"Step {i}. {p.strip()}" for i, p in enumerate(passages, start=1)]
    return "\n\n".join([intro.strip(), *steps] if intro.strip() else steps)


def build_references(spec_file: ReferenceFile, rubric: Rubric, source: Path) -> list[Reference]:
    """Every reference of one file, with levels checked against the rubric."""
    order = [c.id for c in rubric.flattened_criteria()]
    points = {c.id: c.points for c in rubric.flattened_criteria()}
    missing = [cid for cid in order if cid not in spec_file.passages]
    unknown = [cid for cid in spec_file.passages if cid not in points]
    if missing or unknown:
        raise DataError(
            f"{source}: passages: must cover exactly the rubric's criteria "
            f"(missing {missing}, not in the rubric {unknown})"
        )

    def constructed(
        ref_id: str,
        kind: ReferenceKind,
        included: set[str],
        extra: str | None,
        first_omitted: str | None,
        replaced: dict[str, str] | None = None,
    ) -> Reference:
        texts = []
        for cid in order:
            if cid in included:
                texts.append((replaced or {}).get(cid, spec_file.passages[cid]))
            elif cid == first_omitted and extra:
                texts.append(extra)
        credit = sum(points[c] for c in included) / rubric.total_points()
        return Reference(
            task_id=rubric.task_id,
            id=ref_id,
            kind=kind,
            known_level=known_level(rubric, included),
            known_partial_credit=credit,
            text=_compose(spec_file.intro, texts),
        )

    references = [
        constructed(f"exact-{k}", "exact", {c.id for c in rubric.criteria_up_to(k)}, None, None)
        for k in range(MIN_LEVEL, MAX_LEVEL + 1)
    ]
    for index, spec in enumerate(spec_file.references):
        where = f"{source}: references[{index}] ({spec.id})"
        selections = [spec.include is not None, spec.omit is not None, spec.text is not None]
        if sum(selections) != 1:
            raise DataError(f"{where}: give exactly one of 'include', 'omit' and 'text'")
        if spec.text is not None:
            references.append(
                Reference(
                    task_id=rubric.task_id,
                    id=spec.id,
                    kind=spec.kind,
                    known_level=spec.known_level,
                    known_partial_credit=None,
                    text=spec.text,
                )
            )
            continue
        listed = spec.include if spec.include is not None else spec.omit
        assert listed is not None
        bad = [cid for cid in [*listed, *spec.replace] if cid not in points]
        if bad:
            raise DataError(f"{where}: unknown criterion id(s) {bad}")
        included = set(listed) if spec.include is not None else set(order) - set(listed)
        first_omitted = next((cid for cid in order if cid not in included), None)
        reference = constructed(
            spec.id, spec.kind, included, spec.extra, first_omitted, spec.replace
        )
        if reference.known_level != spec.known_level:
            raise DataError(
                f"{where}: known_level {spec.known_level} but its passages reach level "
                f"{reference.known_level}"
            )
        references.append(reference)
    ids = [r.id for r in references]
    if len(set(ids)) != len(ids):
        raise DataError(f"{source}: references: duplicate id in {ids}")
    return references


def load_reference_file(path: Path, rubrics: dict[str, Rubric]) -> list[Reference]:
    """Load and check one reference file against its rubric (matched by ``task_id``)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        spec = ReferenceFile.model_validate(raw)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise DataError(f"{path}: cannot read reference file: {error}") from error
    except ValidationError as error:
        problem = error.errors()[0]
        raise DataError(
            f"{path}: {validation_location(problem['loc'], TOP_LEVEL)}: {problem['msg']}"
        ) from error
    if spec.task_id not in rubrics:
        raise DataError(f"{path}: task_id: no rubric '{spec.task_id}'; known: {sorted(rubrics)}")
    return build_references(spec, rubrics[spec.task_id], path)


def load_references(directory: str | Path | None, rubrics: list[Rubric]) -> list[Reference]:
    """Every reference in ``directory`` (default: the shipped ones) whose rubric is loaded."""
    root = Path(directory).expanduser() if directory is not None else DEFAULT_REFERENCE_DIR
    paths = (
        [root]
        if root.is_file()
        else sorted(p for p in root.glob("*") if p.suffix.lower() in RUBRIC_SUFFIXES)
    )
    if not paths:
        raise DataError(f"{root}: no reference files (*.yaml, *.yml)")
    by_id = {r.task_id: r for r in rubrics}
    references: list[Reference] = []
    for path in paths:
        references.extend(load_reference_file(path, by_id))
    return references


def reference_to_sample(reference: Reference, rubric: Rubric) -> Sample:
    """One sample per reference (pure): id ``<task_id>/<reference id>``, target the known level."""
    return Sample(
        id=f"{reference.task_id}/{reference.id}",
        input=rubric.prompt,
        target=str(reference.known_level),
        metadata={
            "task_id": reference.task_id,
            "reference_id": reference.id,
            "reference_kind": reference.kind,
            "known_level": reference.known_level,
            "known_partial_credit": reference.known_partial_credit,
            "reference_text": reference.text,
            RUBRIC_METADATA_KEY: rubric.model_dump(mode="json"),
        },
    )


def grader_check_dataset(references: list[Reference], rubrics: list[Rubric]) -> MemoryDataset:
    by_id = {r.task_id: r for r in rubrics}
    samples = [reference_to_sample(ref, by_id[ref.task_id]) for ref in references]
    return MemoryDataset(samples=samples, name=DATASET_NAME)


def select_references(references: list[Reference], task_ids: list[str] | None) -> list[Reference]:
    """The references of ``task_ids`` (all when None); an unknown id is a config error."""
    if task_ids is None:
        return references
    known_ids = sorted({r.task_id for r in references})
    unknown = [t for t in task_ids if t not in known_ids]
    if unknown:
        raise ConfigError(f"no references for task id(s) {unknown}; known: {known_ids}")
    return [r for r in references if r.task_id in task_ids]


@dataclass(frozen=True)
class GraderCheckSettings:
    """The ``lft_grader_check`` arguments its metadata records."""

    references_dir: str | None
    grader_repeats: int
    quorum: int | None
    partial_credit: bool


def grader_check_metadata(
    settings: GraderCheckSettings, references: list[Reference], rubrics: list[Rubric]
) -> dict[str, Any]:
    """The ``lft_grader_check`` task's metadata: the provenance block and the run's settings."""
    references_dir = settings.references_dir
    return {
        **provenance(
            benchmark="AISI Long-Form Tasks: grader meta-evaluation",
            source="package:grader_references" if references_dir is None else references_dir,
            prompt_variant="lft-ours",
            paper_faithful={"grader_repeats": settings.grader_repeats == LFT_GRADER_REPEATS},
            rubric_hashes={r.task_id: r.content_hash() for r in rubrics},
        ),
        "task_ids": sorted({r.task_id for r in references}),
        "references": len(references),
        "grader_repeats": settings.grader_repeats,
        "quorum": settings.quorum,
        "partial_credit": settings.partial_credit,
    }
