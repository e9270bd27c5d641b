"""AAAR-1.0's recall control: dates of the dated tasks' papers, and their twins' statistic.

A model that read a paper (or its reviews) before its knowledge cutoff can answer from memory.
The mechanism is ``core/recall_control.py``; the tasks are declared in ``specs.py``
(``EXPDESIGN``, ``PAPER_WEAKNESS``, ``EQINFER``). Each sample shows one paper
(:func:`shown_paper`), dated as follows:

- ExpDesign: the paper's arXiv id (``2104.08821``: April 2021, its first version's month) is
  its folder name and record ``id``. A source whose every id is an arXiv id is dated; one
  record without one in it is a ``DataError`` naming it; a source with none (a local copy with
  other ids, the demo) is undated, said once in the log, and its twins are NaN;
- PaperWeakness: ICLR 2023 submissions, dated by the venue year (2023; compared by year, so
  post-cutoff only for a cutoff in 2022 or earlier). The submissions and their reviews were
  public on OpenReview from late 2022: the venue year is the source's only date;
- EqInfer (equations without their paper) and ReviewCritique carry no dates: no twins.

No recognition probe here (the texts are whole papers): :func:`recall_twins` logs
``<headline>_clean`` = ``<headline>_post_cutoff`` against the stated cutoff (the log says
nothing was probed), each the headline's mean with a seeded bootstrap CI (:func:`mean_with_ci`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from research_taste_evals.core.data import DataError
from research_taste_evals.core.dates import ItemDate, date_range, parse_item_date
from research_taste_evals.core.metrics import finite_values, nan_on_error
from research_taste_evals.core.recall_control import ShownItem
from research_taste_evals.core.recall_metrics import Statistic, recall_keys, recall_summary
from research_taste_evals.core.spec import TaskSpec
from research_taste_evals.core.stats import NAN, bootstrap_ci

ITEM_DATES_KEY = "item_dates"  # sample metadata: the dates (as written) of what it shows
_ARXIV_ID = re.compile(r"^(?:arxiv:)?\d{4}\.\d{4,5}(?:v\d+)?$", re.IGNORECASE)
_VENUE_YEAR = re.compile(r"_((?:19|20)\d\d)$")
EQINFER_UNDATED = (
    "EqInfer's records are equations in their LaTeX context, with no paper id, venue or date"
)


def arxiv_dates(
    ids: Sequence[str], root: Path | str, task: str = "expdesign"
) -> dict[str, ItemDate] | None:
    """Each paper's date from its arXiv id; None when no id is an arXiv id (undated source).

    Raises:
        DataError: some ids are arXiv ids and one is not, naming the record and the field.
    """
    dated = {paper: parse_item_date(paper) for paper in ids if _ARXIV_ID.match(paper.strip())}
    if not dated:
        return None
    undated = [paper for paper in ids if paper not in dated]
    if undated:
        raise DataError(
            f"{root}: record '{undated[0]}' ({undated[0]}/data_text.json): field 'id' is not an "
            f"arXiv id (YYMM.NNNNN), so the paper has no date, while {len(dated)} other records' "
            f"ids date them ({len(undated)} such records)"
        )
    return {paper: date for paper, date in dated.items() if date is not None}


def venue_year(folder: str) -> ItemDate:
    """The venue year a source folder names (``Paper_Weakness/ICLR_2023`` -> 2023)."""
    match = _VENUE_YEAR.search(folder.rstrip("/"))
    if not match:
        raise ValueError(f"{folder}: names no venue year (expected a suffix like _2023)")
    return ItemDate(int(match.group(1)))


def dates_metadata(dates: Sequence[ItemDate]) -> dict[str, str]:
    """The task metadata's ``item_dates``: the papers' date range, as precise as the source."""
    span = date_range(dates)
    return {ITEM_DATES_KEY: f"{span[0]} to {span[1]}" if span else "none"}


def shown_paper(metadata: Mapping[str, Any]) -> list[ShownItem]:
    """The one paper a sample shows, with its date (None for an undated source)."""
    dates = [parse_item_date(value) for value in metadata.get(ITEM_DATES_KEY) or []]
    return [ShownItem(str(metadata.get("paper_id", "")), dates[0] if dates else None)]


def mean_with_ci(headline: str) -> Statistic:
    """The headline's mean over the samples (as the task's own metric) with a seeded
    bootstrap CI over papers (``n``: the samples with a value)."""

    def statistic(scores: list[SampleScore]) -> dict[str, float]:
        values = finite_values(scores, headline)
        if not values:
            return {headline: NAN, "n": 0.0}
        low, high = bootstrap_ci(values, lambda picks: sum(picks) / len(picks))  # type: ignore[arg-type]
        mean = sum(values) / len(values)
        return {headline: mean, f"{headline}_ci_low": low, f"{headline}_ci_high": high} | {
            "n": float(len(values))
        }

    return statistic


@metric
def recall_twins(spec: TaskSpec) -> Metric:
    """The task's headline on clean and post-cutoff papers, and their counts.

    No probe here: the unrecognised twin is NaN and clean = after the stated cutoff.
    """
    summary = recall_summary(spec, mean_with_ci(spec.headline))
    keys = recall_keys(spec)

    def compute(scores: list[SampleScore]) -> Value:
        return nan_on_error(f"{spec.task} metric recall_twins", keys, lambda: summary(scores))

    return compute
