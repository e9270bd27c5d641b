"""The round cycle's configuration file (``research-taste round cycle CONFIG``, docs/rounds.md
"The cycle"): the sources a round opens on, how often, the sweep whose models judge every round,
and where the rounds, logs, report and publication live.

Read and checked in full before any request: a bad field is one sentence naming the file and
the field (pydantic's first error, ``core.records.describe_validation_error``), and so is a
sweep file that cannot judge rounds (``rounds/cycle_sweep.py``). Paths are relative to the
working directory, as a sweep file's ``log_dir`` is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from research_taste.cli.sweep_schema import read_sweep_yaml
from research_taste.rounds import JUDGE_DAYS, SAMPLE_SEED
from research_taste.rounds.arxiv import DEFAULT_WINDOW_MONTHS
from research_taste.rounds.checks import MAX_JUDGE_DAYS
from research_taste_evals.core.data import DataError, describe_validation_error

# ForecastBench opens a question round every two weeks (Karger et al., ICLR 2025); issue 59.
CADENCE_DAYS = 14
# A round is resolved nightly until every item is labelled and past its horizon (decided), or
# until this many days after it opened: a venue's decisions (TMLR's within a quarter, ICLR's
# about four months after its deadline, docs/rounds.md "Cadence") are in by then.
RESOLVE_DAYS = 180
# A source's name starts the names of its round folders, ``<name>-<YYYY-MM-DD>``.
SOURCE_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,39}")


class _Source(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    judge_days: int = Field(default=JUDGE_DAYS, ge=1, le=MAX_JUDGE_DAYS)
    api_base: str | None = None  # default: the source's environment variable or its real API

    @field_validator("name")
    @classmethod
    def _slug(cls, name: str) -> str:
        if not SOURCE_NAME.fullmatch(name):
            raise ValueError(
                f"{name!r} is not a round folder's prefix: lower-case letters, digits, '.', '_' "
                "and '-', at most 40, starting with a letter or digit"
            )
        return name


class OpenReviewSource(_Source):
    """``round open --source openreview``'s arguments."""

    kind: Literal["openreview"]
    venue: str
    max_items: int | None = Field(default=None, ge=2)
    seed: int = SAMPLE_SEED
    pdfs: bool = True


class ArxivSource(_Source):
    """``round open --source arxiv``'s arguments."""

    kind: Literal["arxiv"]
    category: str
    days: int = Field(default=CADENCE_DAYS, ge=1, le=3660)  # the papers of one cadence
    window_months: int = Field(default=DEFAULT_WINDOW_MONTHS, ge=1, le=120)


Source = Annotated[OpenReviewSource | ArxivSource, Field(discriminator="kind")]


class CycleConfig(BaseModel):
    """A cycle file: what opens, how often, who judges, where everything is kept."""

    model_config = ConfigDict(extra="forbid")

    sources: list[Source] = Field(min_length=1)
    cadence_days: int = Field(default=CADENCE_DAYS, ge=1, le=366)
    resolve_days: int = Field(default=RESOLVE_DAYS, ge=1, le=36600)
    sweep: str  # a sweep file whose task entries name a round glob (sweeps/rounds.yaml)
    rounds_dir: str = "rounds"
    log_dir: str = "logs/rounds"
    report_dir: str = "reports/rounds"
    publish_dir: str = "published/rounds"
    report_viewer: bool = True  # the report's bundled log viewer (`report --no-viewer`: false)

    @field_validator("sources")
    @classmethod
    def _distinct_names(cls, sources: list[Source]) -> list[Source]:
        names = [source.name for source in sources]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"source name {repeated[0]!r} given twice (it names round folders)")
        return sources


def load_cycle_config(path: str | Path) -> CycleConfig:
    """Read and check a cycle file, and the sweep file it names.

    Raises:
        DataError: one sentence naming the file and the field.
    """
    from research_taste.rounds.cycle_sweep import check_cycle_sweep

    source = Path(path)
    raw = read_sweep_yaml(source)  # its loader: repeated keys refused, dates kept as text
    if raw is None:
        raise DataError(f"{source}: the cycle file is empty (needs sources and sweep)")
    try:
        config = CycleConfig.model_validate(raw)
    except ValidationError as error:
        raise DataError(f"{source}: {describe_validation_error(error)}") from error
    sweep = Path(config.sweep)
    if not sweep.is_file():
        raise DataError(f"{source}: field 'sweep': {config.sweep}: no such file")
    for name in ("rounds_dir", "log_dir", "report_dir", "publish_dir"):
        if "://" in getattr(config, name):
            raise DataError(
                f"{source}: field '{name}': {getattr(config, name)} is remote; the cycle keeps "
                "its state in local folders (sync them with the remote copy before and after "
                "a run: docs/nightly-sweep.yml)"
            )
        folder = Path(getattr(config, name))
        if folder.exists() and not folder.is_dir():
            raise DataError(f"{source}: field '{name}': {folder} is a file, not a folder")
    check_cycle_sweep(sweep)
    return config
