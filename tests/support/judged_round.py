"""A round on the clocked OpenReview venue (``openreview_round``), judged by baselines and, when
asked, resolved and scored: what the user's-path tests build their report or scored logs on."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from fake_openreview import serving
from inspect_ai import eval as inspect_eval
from openreview_round import JUDGE_DAYS, T0, T1, venue_with_pdfs

from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste_evals.tastybench.tastybench import tastybench_round

FULL = None  # a judgment of every sample


def judged_round(
    tmp_path: Path,
    judges: Sequence[tuple[str, int | None]] = (("baseline/random", FULL),),
    resolve: bool = True,
    resolve_at: dt.datetime = T1 + dt.timedelta(days=1),
) -> tuple[Path, Path]:
    """(round folder, log folder): opened at T0, judged by each (model, --limit), resolved at
    ``resolve_at`` (default: a day after the reviews appear) when ``resolve``."""
    now = [T0]
    venue = venue_with_pdfs(lambda: now[0])
    folder, logs = tmp_path / "rounds" / "r1", tmp_path / "logs"
    with serving(venue):
        open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        for model, limit in judges:
            inspect_eval(
                tastybench_round(round=str(folder)),
                model=model,
                log_dir=str(logs),
                limit=limit,
                display="none",
            )
        if resolve:
            now[0] = resolve_at
            resolve_openreview(folder, now=lambda: now[0])
    return folder, logs
