"""Which pairs the judge sees, in which order, and the samples that carry them.

Every sample is one ordered comparison: paper_1 is shown as "Project 1". Its sequence index
(``seq``) is stored in the sample metadata; sequential Elo replays the comparisons in ``seq``
order, so ratings never depend on the order in which concurrent samples finished.

The pairs: upstream's adjacent schedule (neighbours in a shuffled order, round after round),
every pair, random pairs, a pairs file, or ``schedule=matched`` (``matched.py``); each seeded,
so a run can be repeated.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import MemoryDataset, Sample

from research_taste_evals.core.data import DataError, read_csv
from research_taste_evals.core.dates import parse_item_date
from research_taste_evals.core.errors import ConfigError
from research_taste_evals.core.leaks import title_names
from research_taste_evals.core.recall_control import ShownItem
from research_taste_evals.core.recognition import RecallItem
from research_taste_evals.core.text import content_id, fill_template
from research_taste_evals.core.velocity import MIN_SLOPE_POINTS
from research_taste_evals.tastybench.dataset import MAX_SERIES_MONTHS, Paper, VelocityMode
from research_taste_evals.tastybench.matched import MatchedDataset, matching, no_pairs_reason

Comparison = tuple[str, str]


def _check_ids(paper_ids: Sequence[str]) -> list[str]:
    ids = list(paper_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("paper ids must be unique")
    return ids


def adjacent_schedule(paper_ids: Sequence[str], rounds: int, seed: int) -> list[Comparison]:
    """Upstream's schedule: each round a seeded shuffle, neighbours i and i+1 compared.

    N - 1 ordered pairs (first_shown, second_shown) per round, in presentation order; the
    shuffled position decides which paper is shown first. Upstream shuffled unseeded.
    """
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
    """Every unordered pair in both presentation orders: N (N - 1) ordered pairs.

    Without a seed the order is fixed: for i < j, (i, j) immediately followed by (j, i). With a
    seed the whole list is shuffled (useful for sequential Elo, which depends on order).
    """
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


def random_pairs_schedule(paper_ids: Sequence[str], count: int, seed: int) -> list[Comparison]:
    """``count`` ordered pairs of two distinct papers drawn uniformly at random (seeded)."""
    import numpy as np

    ids = _check_ids(paper_ids)
    if len(ids) < 2 or count < 0:
        raise ValueError(f"need >= 2 papers and count >= 0 (got {len(ids)}, {count})")
    rng = np.random.default_rng(seed)
    pairs: list[Comparison] = []
    for _ in range(count):
        first, second = rng.choice(len(ids), size=2, replace=False)
        pairs.append((ids[first], ids[second]))
    return pairs


logger = logging.getLogger(__name__)

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
    """Ordered pairs from a CSV with columns ``paper_1,paper_2`` (or upstream's
    ``better_paper_id,worse_paper_id``), in file order.

    Raises:
        DataError: no accepted header, an unknown paper id, or a paper paired with itself
            (naming the file, the data row and the field).
    """
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

    Raises:
        ConfigError: no two papers can be paired.
    """
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


def build_schedule(
    papers: Sequence[Paper] | Sequence[str],
    schedule: Schedule,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SCHEDULE_SEED,
    pairs_file: str | Path | None = None,
    velocity: VelocityMode = "windowed",
) -> list[ScheduledPair]:
    """The comparisons of a run, in order, over ``papers`` (or bare ids, except for matched).

    ``adjacent``: upstream's schedule (each round a seeded shuffle, neighbours compared,
    N - 1 per round). ``all_pairs``: every unordered pair in both presentation orders, shuffled
    with ``seed``. ``file``: the pairs of ``pairs_file`` in file order. ``matched``: disjoint
    pairs of papers close in date, each in both orders (``matched.py``; needs the papers' dates
    and ``velocity`` labels).
    """
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
        return [ScheduledPair(seq, first, second) for seq, (first, second) in enumerate(pairs)]
    if pairs_file is not None:
        raise ValueError(f"pairs_file is only used with schedule='file' (got {schedule!r})")
    if schedule == "adjacent":
        per_round = len(paper_ids) - 1
        pairs = adjacent_schedule(paper_ids, rounds, seed)
        return [
            ScheduledPair(seq, first, second, round=seq // per_round)
            for seq, (first, second) in enumerate(pairs)
        ]
    if schedule == "all_pairs":
        pairs = all_pairs_schedule(paper_ids, seed=seed)
        return [ScheduledPair(seq, first, second) for seq, (first, second) in enumerate(pairs)]
    raise ValueError(f"schedule must be one of {SCHEDULES}, got {schedule!r}")


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
    """The two papers a comparison shows, with their dates (texts: :func:`recall_item`)."""
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
