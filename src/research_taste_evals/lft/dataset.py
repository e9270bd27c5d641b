"""Long-Form Task data: rubric files -> Inspect samples (one sample per task and run).

Each rubric file (see :mod:`research_taste_evals.lft.rubric`) is one task; the sample's input
is the task prompt and its metadata carries the whole rubric, so the solver chain (context
documents, web block list, nudges) and the grader panel read everything from the sample.

AISI's report averages "over ten runs" per task with a standard error. A run is a sample of
its own (``runs`` > 1: ids ``<task_id>/run-<k>``), so its score reaches the metrics as one
value per run (Inspect would average epochs before any metric sees them) and its grader calls
get their own cache scope.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import CachePolicy

from research_taste_evals.core.access import DEFAULT_WEB_PROVIDERS, Access, web_search_providers
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.provenance import provenance
from research_taste_evals.lft.grader import LFT_GRADER_REPEATS, MedianRule
from research_taste_evals.lft.metrics import TASK_ID_KEY  # the metrics group by it
from research_taste_evals.lft.rubric import (
    DEFAULT_RUBRIC_DIR,
    RUBRIC_METADATA_KEY,
    Rubric,
    load_rubrics,
)

DATASET_NAME = "lft"
RUN_KEY = "run"  # sample metadata: which repeated run (1..runs) the sample is
DEFAULT_RUNS = 1
RUN_CACHE_SCOPE = "lft_run"  # each run's grader calls are cached apart from the other runs'

# The follow-up modes (``solvers.py`` runs them; here so the settings can name the type).
FollowUp = Literal["none", "static", "critique", "nudge"]


def run_cache(cache: bool | CachePolicy, run: object) -> bool | CachePolicy:
    """``cache`` scoped to one run, so run k never reuses run j's cached grades."""
    if cache is False or run is None:
        return cache
    policy = CachePolicy() if cache is True else cache
    return policy.model_copy(update={"scopes": {**policy.scopes, RUN_CACHE_SCOPE: str(run)}})


def run_sample_id(task_id: str, run: int, runs: int) -> str:
    """``task_id`` for a single run, else ``<task_id>/run-<k>`` (zero-padded to sort)."""
    return task_id if runs == 1 else f"{task_id}/run-{run:0{len(str(runs))}d}"


def rubric_to_sample(rubric: Rubric, run: int = 1, runs: int = DEFAULT_RUNS) -> Sample:
    """One sample for one rubric and run (pure).

    Reads ``task_id`` (the sample id with the run, see :func:`run_sample_id`: stable across
    runs of the eval and load order), ``prompt`` (the input), ``title`` and ``domain``; the
    whole rubric goes into ``metadata["rubric"]`` and its content hash into
    ``metadata["rubric_hash"]``; ``metadata["run"]`` is ``run``. There is no target: the
    rubric is the reference.
    """
    return Sample(
        id=run_sample_id(rubric.task_id, run, runs),
        input=rubric.prompt,
        target="",
        metadata={
            TASK_ID_KEY: rubric.task_id,
            RUN_KEY: run,
            "title": rubric.title,
            "domain": rubric.domain,
            "rubric_hash": rubric.content_hash(),
            RUBRIC_METADATA_KEY: rubric.model_dump(mode="json"),
        },
    )


def lft_dataset(rubrics: Iterable[Rubric], runs: int = DEFAULT_RUNS) -> MemoryDataset:
    """``runs`` samples per rubric, in the given order (a task's runs together)."""
    if runs < 1:
        raise ValueError(f"runs must be >= 1, got {runs}")
    samples = [
        rubric_to_sample(rubric, run, runs) for rubric in rubrics for run in range(1, runs + 1)
    ]
    return MemoryDataset(samples=samples, name=DATASET_NAME)


def split_names(value: str | Iterable[str] | None, what: str) -> list[str] | None:
    """``-T name=a,b`` arrives as one string: split it on commas; a list passes through."""
    if value is None:
        return None
    listed = value.split(",") if isinstance(value, str) else list(value)
    cleaned = [name.strip() for name in listed if name.strip()]
    if not cleaned:
        raise ValueError(f"{what} is empty: give at least one name, or leave it unset")
    return cleaned


def parse_task_ids(task_ids: str | Iterable[str] | None) -> list[str] | None:
    """The requested task ids (``None``: all of them)."""
    return split_names(task_ids, "task_ids")


def load_lft_rubrics(
    rubric_dir: str | Path | None, task_ids: str | Iterable[str] | None
) -> tuple[list[Rubric], str]:
    """The selected rubrics and where they came from (``package`` or ``local:<path>``)."""
    rubrics = load_rubrics(rubric_dir, parse_task_ids(task_ids))
    if rubric_dir is None:
        return rubrics, f"package:{DEFAULT_RUBRIC_DIR.name}"
    return rubrics, f"local:{Path(rubric_dir).expanduser().resolve()}"


def web_provider_names(web_providers: str | Sequence[str] | None) -> tuple[str, ...]:
    """The search providers of ``access="web"`` (default: anthropic, grok, tavily)."""
    if web_providers is None:
        return DEFAULT_WEB_PROVIDERS
    return tuple(split_names(web_providers, "web_providers") or ())


def check_access(access: str, rubrics: Sequence[Rubric], providers: Sequence[str]) -> None:
    """Fail now (not mid-run) when the rubrics cannot support ``access``."""
    if access == "context":
        bare = [r.task_id for r in rubrics if not r.context_documents]
        if bare:
            raise ConfigError(f"access='context' but these tasks have no context_documents: {bare}")
    if access == "web":
        for rubric in rubrics:  # a provider that would ignore a block list fails now
            web_search_providers(rubric.web_block_list, providers)


@dataclass(frozen=True)
class LftSettings:
    """The ``lft`` arguments its solver chain and metadata use (checked by the task)."""

    followup: FollowUp
    followup_rounds: int
    access: Access
    max_nudges: int
    grader_repeats: int
    quorum: int | None
    partial_credit: bool
    grader_cache: bool
    runs: int
    allow_self_grading: bool
    median: MedianRule


def lft_metadata(
    settings: LftSettings, rubrics: Sequence[Rubric], source: str, providers: Sequence[str]
) -> dict[str, Any]:
    """The ``lft`` task's metadata: the provenance block and the run's settings."""
    followup, access = settings.followup, settings.access
    return {
        **provenance(
            benchmark="AISI Long-Form Tasks",
            source=source,
            revision=None,
            prompt_variant="lft-ours",  # AISI did not publish its prompts (see prompts.py)
            paper_faithful={
                "grader_repeats": settings.grader_repeats == LFT_GRADER_REPEATS,
                "independent_grader": not settings.allow_self_grading,
                "integer_median": settings.median == "lower",
            },
            rubric_hashes={r.task_id: r.content_hash() for r in rubrics},
            allow_self_grading=settings.allow_self_grading,
        ),
        "task_ids": [r.task_id for r in rubrics],
        "runs": settings.runs,
        "followup": followup,
        "followup_rounds": (
            settings.followup_rounds if followup in ("static", "critique") else None
        ),
        "max_nudges": settings.max_nudges if followup == "nudge" else None,
        "access": access,
        "web_providers": list(providers) if access == "web" else None,
        "grader_repeats": settings.grader_repeats,
        "quorum": settings.quorum,
        "partial_credit": settings.partial_credit,
        "median": settings.median,
    }
