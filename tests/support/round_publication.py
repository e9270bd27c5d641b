"""The published round of the publication tests: the clocked OpenReview venue's round
(``tests/support/openreview_round.py``) opened at t0, judged by two offline baselines, resolved
the next day (every item pending) and after the reviews (every item labelled), scored, and
published with its picks and leaderboard."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from fake_openreview import serving
from fake_openreview_clock import clocked_venue
from inspect_ai import eval as inspect_eval
from openreview_round import JUDGE_DAYS, T0, T1, papers

from research_taste.reporting.round_publish import PublishSummary, publish_rounds
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.tastybench.tastybench import tastybench_round

MODELS = ("baseline/tastybench-longer", "baseline/random")


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


@dataclass(frozen=True)
class Published:
    root: Path  # the test's temporary folder: no published file may name it
    round: Path
    logs: Path
    out: Path
    summary: PublishSummary


def judge(folder: str, logs: Path) -> None:
    for model in MODELS:
        inspect_eval(tastybench_round(round=folder), model=model, log_dir=str(logs), display="none")


def published_round(root: Path, licence: str) -> Published:
    """Open, judge, resolve twice, score and publish under ``root`` (every note under
    ``licence``; "" states none)."""
    clock = Clock(T0)
    venue = clocked_venue(clock)
    venue.papers = papers()
    for k, paper in enumerate(venue.papers):  # distinct lengths: the floor picks on every pair
        paper.abstract += " More detail." * k
        paper.license = licence
    folder, logs, out = root / "rounds" / "iclr-pub", root / "logs", root / "published"
    with serving(venue):
        open_openreview(
            venue.venue,
            folder,
            base_url=venue.base_url,
            now=clock,
            judge_days=JUDGE_DAYS,
            pdfs=False,
        )
        judge(str(folder), logs)
        clock.now = T0 + dt.timedelta(days=1)
        resolve_openreview(folder, now=clock)  # no review yet: every item pending
        clock.now = T1 + dt.timedelta(days=1)
        resolve_openreview(folder, now=clock)
    score_round(folder, logs, say=lambda _: None)
    summary = publish_rounds([folder], str(logs), out, min_pairs=1)
    return Published(root, folder, logs, out, summary)
