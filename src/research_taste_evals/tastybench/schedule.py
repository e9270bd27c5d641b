"""Which pairs the judge sees, in which order, and the samples that carry them.

Every sample is one ordered comparison: paper_1 is shown as "Project 1". Its sequence index
(``seq``) is stored in the sample metadata; sequential Elo replays the comparisons in ``seq``
order, so ratings never depend on the order in which concurrent samples finished. The pairs:
upstream's adjacent schedule (neighbours in a shuffled order, round after round), every pair, a
pairs file, or ``schedule=matched``; each seeded, so a run can be repeated.

``schedule=matched`` (the README's "Matched pairs" says why): disjoint pairs of papers close in
publication date, each judged in both orders, paired by ``core.pairing.match_papers`` (shared
with the rounds) within a paper's field; a tie is never paired, so it costs no judge call. Its
headline is ``ratings.pairwise_accuracy_summary``. A dataset cut by Inspect's
``--limit``/``--sample-id`` that keeps one order of a pair says so (:class:`MatchedDataset`;
such a pair is left out of ``pairwise_accuracy`` and counted in ``matched_incomplete_pairs``).
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, overload

from inspect_ai.dataset import Dataset, MemoryDataset, Sample

from research_taste_evals.core.data import DataError, read_csv
from research_taste_evals.core.dates import parse_item_date
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.leaks import title_names
from research_taste_evals.core.pairing import (
    MAX_PAIR_GAP_DAYS,
    Matching,
    MatchItem,
    match_papers,
    parse_day,
)
from research_taste_evals.core.recall_control import ShownItem
from research_taste_evals.core.recognition import RecallItem
from research_taste_evals.core.text import content_id, fill_template
from research_taste_evals.core.velocity import MIN_SLOPE_POINTS
from research_taste_evals.tastybench.dataset import MAX_SERIES_MONTHS, Paper, VelocityMode

logger = logging.getLogger(__name__)

Comparison = tuple[str, str]
# schedule=matched: each pair is judged once in each order; a pair with fewer decisions
# (``--limit``) is left out of pairwise_accuracy.
ORDERS_PER_PAIR = 2


def _check_ids(paper_ids: Sequence[str]) -> list[str]:
    ids = list(paper_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("paper ids must be unique")
    return ids


def adjacent_schedule(paper_ids: Sequence[str], rounds: int, seed: int) -> list[Comparison]:
    """Upstream's schedule: each round a seeded shuffle (upstream's was unseeded), neighbours
    i and i+1 compared, i shown first: N - 1 ordered pairs (first_shown, second_shown) a round."""
    import numpy as np

    ids = _check_ids(paper_ids)
    if rounds < 0:
        raise ValueError(f"rounds must be >= 0 (got {rounds})")
    rng = np.random.default_rng(seed)
    pairs: list[Comparison] = []
    for _ in range(rounds):
        order = [ids[i] for i in rng.permutation(len(ids))]
        pairs.extend(zip(order[:-1], order[1:], strict=True))
    return pairs


def all_pairs_schedule(paper_ids: Sequence[str], seed: int | None = None) -> list[Comparison]:
    """Every unordered pair in both presentation orders: N (N - 1) ordered pairs; for i < j,
    (i, j) then (j, i), or with a seed all shuffled (sequential Elo depends on the order)."""
    import numpy as np

    ids = _check_ids(paper_ids)
    pairs: list[Comparison] = []
    for i, first in enumerate(ids):
        for second in ids[i + 1 :]:
            pairs.extend([(first, second), (second, first)])
    if seed is not None:
        rng = np.random.default_rng(seed)
        pairs = [pairs[i] for i in rng.permutation(len(pairs))]
    return pairs


Schedule = Literal["adjacent", "all_pairs", "file", "matched"]
SCHEDULES: tuple[Schedule, ...] = ("adjacent", "all_pairs", "file", "matched")
# Upstream's curated runs used 20 epochs (rounds) of N - 1 neighbour comparisons.
DEFAULT_ROUNDS = 20
DEFAULT_SCHEDULE_SEED = 20251108
# Accepted pairs-file headers, in presentation order. Upstream's rankings.csv stores
# (better, worse) and not the order shown; replaying it shows the upstream winner first.
PAIR_COLUMNS: tuple[tuple[str, str], ...] = (
    ("paper_1", "paper_2"),
    ("better_paper_id", "worse_paper_id"),
)


@dataclass(frozen=True)
class ScheduledPair:
    """One ordered comparison: ``paper_1`` is shown first ("Project 1")."""

    seq: int
    paper_1: str
    paper_2: str
    round: int | None = None
    # schedule=matched: the pair (both orders share it), its date gap, one calendar month?
    pair_id: int | None = None
    gap_days: int | None = None
    same_month: bool | None = None


def read_pairs_file(path: str | Path, known_ids: set[str]) -> list[tuple[str, str]]:
    """Ordered pairs, in file order, from a CSV with columns ``PAIR_COLUMNS``; a DataError
    names the file, row and field of no accepted header, an unknown id or a self-pairing."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: pairs_file does not exist")
    rows = read_csv(path)
    header = set(rows[0]) if rows else set()
    columns = next((pair for pair in PAIR_COLUMNS if set(pair) <= header), None)
    if columns is None:
        raise DataError(f"{path}: expected columns {' or '.join(map(','.join, PAIR_COLUMNS))}")
    pairs = []
    for index, row in enumerate(rows):
        first, second = (row[column].strip() for column in columns)
        for column, paper_id in zip(columns, (first, second), strict=True):
            if paper_id not in known_ids:
                raise DataError(
                    f"{path}: row {index + 1}: field '{column}': unknown paper {paper_id!r}"
                )
        if first == second:
            raise DataError(f"{path}: row {index + 1}: paper {first!r} paired with itself")
        pairs.append((first, second))
    return pairs


def matched_schedule(
    papers: Sequence[Paper], velocity: VelocityMode, seed: int
) -> list[ScheduledPair]:
    """Each matched pair in both orders: samples ``2k`` and ``2k + 1`` share ``pair_id`` k.
    Raises ConfigError when no two papers can be paired."""
    matched = matching(papers, velocity, seed)
    pairs = matched.pairs
    if matched.unpaired:
        logger.warning(
            "schedule=matched: %d pairs; %d papers left unpaired (log metadata 'matching')",
            len(pairs),
            len(matched.unpaired),
        )
    if not pairs:
        raise ConfigError(no_pairs_reason(len(papers), matched))
    return [
        ScheduledPair(
            2 * pair.pair_id + k, *order, None, pair.pair_id, pair.gap_days, pair.same_month
        )
        for pair in pairs
        for k, order in enumerate(((pair.first, pair.second), (pair.second, pair.first)))
    ]


def matching(papers: Sequence[Paper], velocity: VelocityMode, seed: int) -> Matching:
    """The ``schedule=matched`` pairing of ``papers`` on the run's labels (module docstring).

    A paper's ``field`` (an OpenReview set's primary area) groups it; without one, one group.
    """
    items = [
        MatchItem(p.paper_id, parse_day(p.pub_date), p.velocity(velocity), p.field) for p in papers
    ]
    return match_papers(items, seed)


def no_pairs_reason(count: int, matched: Matching) -> str:
    """Why no pair was made, in one sentence (the reasons of the papers left out)."""
    reasons = Counter(matched.unpaired.values())
    if set(reasons) == {"alone_in_area"}:
        return (
            f"schedule=matched: no two of the {count} papers share a primary area, and pairs are "
            "made within an area only, so there is no pair to judge (use schedule=all_pairs or "
            "adjacent for this set)"
        )
    by_reason = ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items()))
    return (
        f"schedule=matched: no two of the {count} papers have different velocities and "
        f"publication dates at most {MAX_PAIR_GAP_DAYS} days apart (papers by reason: "
        f"{by_reason})"
    )


class MatchedDataset(MemoryDataset):
    """A matched run's samples, each pair in two consecutive samples; a slice or filter that
    keeps one order of a pair says so once (Inspect may cut the dataset more than once)."""

    _said = False

    def _warn_halved(self, part: MemoryDataset) -> None:
        orders = Counter((sample.metadata or {}).get("pair_id") for sample in part.samples)
        halved = sum(n < ORDERS_PER_PAIR for key, n in orders.items() if key is not None)
        if halved and len(part) < len(self) and not self._said:
            self._said = True
            logger.warning(
                "schedule=matched: the samples kept (--limit or --sample-id) hold %d pairs in one "
                "order only; they are left out of pairwise_accuracy and counted in "
                "matched_incomplete_pairs",
                halved,
            )

    @overload
    def __getitem__(self, index: int) -> Sample: ...

    @overload
    def __getitem__(self, index: slice) -> Dataset: ...

    def __getitem__(self, index: int | slice) -> Sample | Dataset:
        part = super().__getitem__(index)
        if isinstance(part, MemoryDataset):
            self._warn_halved(part)
        return part

    def filter(self, predicate: Callable[[Sample], bool], name: str | None = None) -> MemoryDataset:
        part = super().filter(predicate, name)
        self._warn_halved(part)
        return part


def build_schedule(
    papers: Sequence[Paper] | Sequence[str],
    schedule: Schedule,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SCHEDULE_SEED,
    pairs_file: str | Path | None = None,
    velocity: VelocityMode = "windowed",
) -> list[ScheduledPair]:
    """The comparisons of a run, in order, over ``papers`` (or bare ids, except for
    ``matched``, which needs the papers' dates and ``velocity`` labels): module docstring."""
    paper_ids = [paper if isinstance(paper, str) else paper.paper_id for paper in papers]
    if schedule == "matched":
        if pairs_file is not None:
            raise ConfigError("pairs_file is only used with schedule='file' (got 'matched')")
        full = [paper for paper in papers if not isinstance(paper, str)]
        if len(full) != len(paper_ids):
            raise ValueError("schedule='matched' needs the papers (dates and labels), not ids")
        return matched_schedule(full, velocity, seed)
    if schedule == "file":
        if pairs_file is None:
            raise ValueError("schedule='file' needs -T pairs_file=<csv>")
        pairs = read_pairs_file(pairs_file, set(paper_ids))
    elif pairs_file is not None:
        raise ValueError(f"pairs_file is only used with schedule='file' (got {schedule!r})")
    elif schedule == "adjacent":
        per_round = len(paper_ids) - 1
        pairs = adjacent_schedule(paper_ids, rounds, seed)
        return [
            ScheduledPair(seq, first, second, round=seq // per_round)
            for seq, (first, second) in enumerate(pairs)
        ]
    elif schedule == "all_pairs":
        pairs = all_pairs_schedule(paper_ids, seed=seed)
    else:
        raise ValueError(f"schedule must be one of {SCHEDULES}, got {schedule!r}")
    return [ScheduledPair(seq, first, second) for seq, (first, second) in enumerate(pairs)]


def _finite_or_none(value: float) -> float | None:
    # Logs serialise NaN as null anyway; None says "no velocity" explicitly.
    return value if math.isfinite(value) else None


def better_position(velocity_1: float | None, velocity_2: float | None) -> str:
    """ "1" or "2": which project has the higher velocity; "none" on a tie or a missing value."""
    if velocity_1 is None or velocity_2 is None or velocity_1 == velocity_2:
        return "none"
    return "1" if velocity_1 > velocity_2 else "2"


def pair_to_sample(
    pair: ScheduledPair, papers: dict[str, Paper], template: str, velocity: VelocityMode
) -> Sample:
    """One comparison as a sample: the judge prompt with both papers' texts.

    Target: "1"/"2", the project with the higher citation velocity ("none" on a tie).
    Metadata: ``seq`` (rating order), ``round``, ``paper_1``/``paper_2`` (ids, shown order),
    ``pair_id``, ``pair_gap_days`` and ``pair_same_month`` (``schedule=matched``, else None),
    their titles (for the viewer; never shown to the judge), publication dates (for the
    correlation controlling for publication month and the post-cutoff metrics), whether each
    text names its paper (``identity_leak_1``/``_2``) and velocities.
    """
    first, second = papers[pair.paper_1], papers[pair.paper_2]
    velocity_1 = _finite_or_none(first.velocity(velocity))
    velocity_2 = _finite_or_none(second.velocity(velocity))
    metadata: dict[str, Any] = {
        "seq": pair.seq,
        "round": pair.round,
        "paper_1": first.paper_id,
        "paper_2": second.paper_id,
        "title_1": first.title,
        "title_2": second.title,
        "pub_date_1": first.pub_date,
        "pub_date_2": second.pub_date,
        "identity_leak_1": bool(first.identity_leak),
        "identity_leak_2": bool(second.identity_leak),
        "velocity_1": velocity_1,
        "velocity_2": velocity_2,
        "pair_id": pair.pair_id,
        "pair_gap_days": pair.gap_days,
        "pair_same_month": pair.same_month,
    }
    return Sample(
        id=f"{pair.seq:05d}-{content_id(first.paper_id, second.paper_id, length=8)}",
        input=fill_template(template, project_1=first.text, project_2=second.text),
        target=better_position(velocity_1, velocity_2),
        metadata=metadata,
    )


def comparison_dataset(
    pairs: list[ScheduledPair],
    papers: list[Paper],
    template: str,
    velocity: VelocityMode,
    name: str = "tastybench",
) -> MemoryDataset:
    """The samples of a run, in schedule order."""
    by_id = {paper.paper_id: paper for paper in papers}
    samples = [pair_to_sample(pair, by_id, template, velocity) for pair in pairs]
    if any(pair.pair_id is not None for pair in pairs):  # a cut that halves a pair says so
        return MatchedDataset(samples=samples, name=name, shuffled=False)
    return MemoryDataset(samples=samples, name=name, shuffled=False)


# The short windows documented for live sets (README, "Short windows for live sets").
SHORT_WINDOWS = (3, 6)


def longest_common_window(months_observed: Sequence[int], min_papers: int = 2) -> int | None:
    """The longest ``window_months`` that at least ``min_papers`` papers have (at most
    ``MAX_SERIES_MONTHS``) among the month starts each paper had by the fetch date; None when
    no window of ``MIN_SLOPE_POINTS`` months is that common."""
    ranked = sorted(months_observed, reverse=True)
    if len(ranked) < min_papers:
        return None
    longest = min(ranked[min_papers - 1], MAX_SERIES_MONTHS)
    return longest if longest >= MIN_SLOPE_POINTS else None


def judged_papers(papers: list[Paper], velocity: VelocityMode, window_months: int) -> list[Paper]:
    """The papers a run judges: with ``velocity="common_window"`` a paper without the window
    has no ground truth, so it is not judged at all (no calls spent on it) and is counted."""
    if velocity != "common_window":
        return papers
    kept = [paper for paper in papers if not math.isnan(paper.velocity_common)]
    if len(kept) < 2:
        longest = longest_common_window([paper.months_observed for paper in papers])
        hint = (
            f"window_months={longest} is the longest that two papers have"
            if longest is not None
            else "no two papers have two month starts yet; build the set later"
        )
        raise ConfigError(
            f"velocity=common_window: only {len(kept)} papers have {window_months} months of "
            f"citations by the fetch date ({hint}; short windows {SHORT_WINDOWS} label papers "
            "sooner, with noisier velocities)"
        )
    return kept


# The recall control's view of a comparison (specs.py declares it; core/recall_control.py is
# the mechanism): the two papers a sample shows, and each paper as the probe sees it.
def shown_papers(metadata: Mapping[str, Any]) -> list[ShownItem]:
    """The two papers a comparison shows, with their dates (texts: :func:`recall_catalogue`)."""
    return [
        ShownItem(
            item_id=str(metadata[f"paper_{i}"]),
            date=parse_item_date(metadata.get(f"pub_date_{i}")),
            title=str(metadata.get(f"title_{i}", "")),
        )
        for i in (1, 2)
    ]


def recall_catalogue(papers: Sequence[Paper]) -> dict[str, RecallItem]:
    """Each paper as the probe sees it: exactly the judge's text, its title and method names."""
    return {
        paper.paper_id: RecallItem(
            item_id=paper.paper_id,
            text=paper.text,
            title=paper.title,
            method_names=title_names(paper.title)[1:],
        )
        for paper in papers
    }
