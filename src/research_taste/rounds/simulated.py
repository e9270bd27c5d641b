"""Rounds on the simulated venue (``research_taste_evals.core.simulated_venue``): open with no
network and no key; resolve at the venue's clock, which only the user moves.

Resolve goes the conference path's way (``rounds/openreview.py``): the same labels columns
(the mean rating of the reviews posted by the clock's time, ``label_time`` the earliest one's
posting, the decision once public), the same review checks (``checks.ReviewCheck``: a review
dated after the resolve is left out, a rating off the 1-10 scale too), the same labels versions
(``rounds/resolve.py``: a new ``labels/<clock's day>.csv`` each time, listed in ``round.json``)
and the same PaperWeakness references file beside it. The version's ``resolved_at`` is the
venue's clock, not the wall clock.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from research_taste.rounds import JUDGE_DAYS, SAMPLE_SEED
from research_taste.rounds.checks import MAX_JUDGE_DAYS, ReviewCheck, check_range, prepare_out
from research_taste.rounds.manifest import utc_iso, utc_now, write_atomic
from research_taste.rounds.openreview import LABEL_COLUMNS
from research_taste.rounds.resolve import new_labels_version, record_labels_version
from research_taste_evals.aaar.dataset.weakness_round import references_path
from research_taste_evals.core.data import DataError
from research_taste_evals.core.round_manifest import parse_time
from research_taste_evals.core.simulated_venue import (
    RATING_SCALE,
    SIMULATED_SOURCE,
    advance_clock,
    generate,
    read_venue,
    venue_clock,
    write_simulated_round,
)

__all__ = ["advance_clock", "open_simulated_round", "resolve_simulated", "venue_clock"]

# 120 submissions over four areas give about 60 disjoint pairs: above the ranking's default
# --min-pairs (50), so a round judged by two models is used by the leaderboard's fit.
DEFAULT_ITEMS = 120
MAX_ITEMS = 10_000


def open_simulated_round(
    out: str | Path,
    *,
    max_items: int = DEFAULT_ITEMS,
    seed: int = SAMPLE_SEED,
    judge_days: int = JUDGE_DAYS,
    now: Callable[[], dt.datetime] = utc_now,
) -> dict[str, Any]:
    """Open a round on a simulated venue of ``max_items`` submissions drawn from ``seed``
    (opened at ``now()``: the venue's clock starts there); its manifest."""
    folder = Path(out)
    check_range("--judge-days", judge_days, 1, MAX_JUDGE_DAYS)
    check_range("--max-items", max_items, 2, MAX_ITEMS)
    prepare_out(folder, {"source": SIMULATED_SOURCE, "seed": seed, "items": max_items})
    opened = now().replace(microsecond=0)
    query = {"seed": seed, "items": max_items}
    return write_simulated_round(
        folder, generate(seed, max_items, opened), opened, judge_days, query
    )


def _before(stamp: object, clock: dt.datetime) -> bool:
    """Whether a review or decision is public at ``clock`` (not posted yet: not public; an
    undated one is public, and ``ReviewCheck`` leaves it out as undated)."""
    moment = parse_time(stamp)
    return moment is None or moment <= clock


def _label_row(
    item_id: str, future: dict[str, Any] | None, clock: dt.datetime, check: ReviewCheck
) -> tuple[dict[str, Any], list[list[str]]]:
    """The item's labels row (the conference columns) and its public reviewers' weaknesses."""
    row: dict[str, Any] = dict.fromkeys(LABEL_COLUMNS, "")
    row["item_id"] = item_id
    if future is None:
        return {**row, "status": "not_found"}, []
    posted = [r for r in future.get("reviews") or [] if _before(r.get("posted_at"), clock)]
    reviews = [r for r in posted if check.dated(parse_time(r.get("posted_at")))]
    ratings = [x for x in (check.rating(r.get("rating")) for r in reviews) if x is not None]
    times = [parse_time(r["posted_at"]) for r in reviews]
    decided = _before(future.get("decided_at"), clock)
    decision = str(future.get("decision") or "") if decided else ""
    row.update(
        reviews=len(reviews),
        ratings=" ".join(f"{rating:g}" for rating in ratings),
        rating_source="first_posted" if ratings else "",  # the venue never edits a review
        decision=decision,
        status="decided" if decision else "reviewed" if reviews else "pending",
        label_time=utc_iso(min(t for t in times if t)) if reviews else "",
    )
    if ratings:
        row["label"] = f"{statistics.fmean(ratings):.6g}"
    return row, [list(r.get("weaknesses") or []) for r in reviews]


def resolve_simulated(
    out: str | Path, *, advance_days: float = 0.0, progress: bool = False
) -> dict[str, Any]:
    """Move the venue's clock ``advance_days`` forward, then write the labels as they stand at
    its time into a new labels version; its entry. ``progress`` is accepted for the shared
    resolve signature (nothing is fetched)."""
    folder = Path(out)
    read_venue(folder)  # a missing or broken state is said before the clock moves
    if advance_days:
        advance_clock(folder, advance_days)
    clock = venue_clock(folder)
    version = new_labels_version(folder, lambda: clock)
    futures = read_venue(folder)["submissions"]
    check = ReviewCheck(clock, (float(RATING_SCALE[0]), float(RATING_SCALE[1])))
    resolved = {
        item.item_id: _label_row(item.item_id, futures.get(item.item_id), clock, check)
        for item in version.round_.items
    }
    references = {item_id: weaknesses for item_id, (_, weaknesses) in resolved.items()}
    write_atomic(references_path(version.path), json.dumps(references, indent=1) + "\n")
    return record_labels_version(
        version,
        LABEL_COLUMNS,
        [row for row, _ in resolved.values()],
        horizon_reached=lambda row: row["decision"] != "",
        reviews_left_out=check.left_out,
        clock=utc_iso(clock),
        ratings="as posted (the simulated venue never edits a review)",
        weaknesses="as posted",
    )


def refuse_advance(source: object, folder: str | Path) -> None:
    """``--advance-days`` moves the simulated venue's clock; a real venue's is the world's.

    Raises:
        DataError: the round is not a simulated one.
    """
    if source != SIMULATED_SOURCE:
        raise DataError(
            f"--advance-days: the clock of a --source simulated round; {folder}'s source is "
            f"{source!r}, whose labels come as the world's clock moves"
        )
