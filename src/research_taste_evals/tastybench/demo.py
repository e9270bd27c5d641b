"""A TastyBench demo set written by the project: ten invented papers (not upstream data).

Titles, ideas, abstracts and citation series are made up. Each series is built like upstream's:
cumulative citations at the month starts from publication to publication + 60 weeks, with the
months after the fetch date (2025-11-08) flat-filled, so the recent papers show the gap between
``velocity=upstream`` and ``velocity=windowed``. The files are written in the upstream layout
(``model-elicitation/data/llm_rl_yix_curate.csv`` and ``..._with_ideas.csv``), so the demo goes
through the same loader as real runs.

The papers live in ``demo_papers.json`` beside this module. The idea texts were written without
looking at velocity, yet on these ten the length-prior baseline (``baseline/tastybench-longer``)
happens to agree with velocity (Spearman about 0.5): the demo shows that the metrics respond,
nothing more. Its figures on the real curated set are in the family README's baseline table.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
from pathlib import Path

from research_taste_evals.core.demo import DemoRun
from research_taste_evals.core.rounds import RoundItem, is_round
from research_taste_evals.core.simulated_venue import (
    Submission,
    future_of,
    ranked_qualities,
    write_simulated_round,
)
from research_taste_evals.core.velocity import ols_slope
from research_taste_evals.tastybench.dataset import (
    IDEA_FILES,
    PAPER_FILES,
    UPSTREAM_DATA_DIR,
    UPSTREAM_FETCH_DATE,
)
from research_taste_evals.tastybench.tastybench import tastybench, tastybench_round
from research_taste_evals.tastybench.tastybench_extract import tastybench_extract

SERIES_MONTHS = 14  # month starts within pub_date + 60 weeks, as in upstream's series
# The ten papers (paperId, title, pub_date, citations_per_month, idea), written for the demo.
DEMO_PAPERS_FILE = Path(__file__).with_name("demo_papers.json")
DEMO_PAPERS: list[tuple[str, str, str, float, str]] = [
    (row["paperId"], row["title"], row["pub_date"], row["citations_per_month"], row["idea"])
    for row in json.loads(DEMO_PAPERS_FILE.read_text(encoding="utf-8"))
]


def month_starts(pub_date: str, count: int = SERIES_MONTHS) -> list[dt.date]:
    """The ``count`` month starts after ``pub_date`` (upstream's ``freq="MS"`` range)."""
    day = dt.date.fromisoformat(pub_date)
    year, month = (day.year, day.month + 1) if day.month < 12 else (day.year + 1, 1)
    starts = []
    for _ in range(count):
        starts.append(dt.date(year, month, 1))
        year, month = (year, month + 1) if month < 12 else (year + 1, 1)
    return starts


def citation_series(pub_date: str, per_month: float) -> tuple[list[str], list[int]]:
    """Cumulative counts growing by ``per_month``, flat after the fetch date (as upstream)."""
    dates = month_starts(pub_date)
    counts: list[int] = []
    for index, start in enumerate(dates):
        observed = start <= UPSTREAM_FETCH_DATE
        counts.append(round(per_month * (index + 1)) if observed or not counts else counts[-1])
    return [start.isoformat() for start in dates], counts


def write_demo_tastybench(directory: Path) -> Path:
    """Write the demo set in the upstream layout under ``directory``; returns ``directory``."""
    data_dir = directory / UPSTREAM_DATA_DIR
    data_dir.mkdir(parents=True, exist_ok=True)
    truth_rows, idea_rows = [], []
    for paper_id, title, pub_date, per_month, idea in DEMO_PAPERS:
        dates, counts = citation_series(pub_date, per_month)
        truth_rows.append(
            {
                "paperId": paper_id,
                "title": title,
                "pub_date": pub_date,
                "b": ols_slope(counts),
                "citation_dates": json.dumps(dates),
                "citation_counts": json.dumps(counts),
            }
        )
        abstract = f"{title}. We propose the following. {idea} Experiments are omitted here."
        idea_rows.append({"paper_id": paper_id, "abstract": abstract, "title": title, "idea": idea})
    ideas_file = IDEA_FILES["curated"]
    assert ideas_file is not None
    files = ((PAPER_FILES["curated"].filename, truth_rows), (ideas_file.filename, idea_rows))
    for name, rows in files:
        with (data_dir / name).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return directory


# The seed of the demo round's simulated reviews (the same reviews every time).
DEMO_ROUND_SEED = 20260105


def write_demo_round(directory: Path) -> Path:
    """Write a round of the ten demo papers (abstracts, label-blind pairs, no labels) on the
    simulated venue (``core/simulated_venue.py``) into ``directory`` unless one is there;
    returns ``directory``. It opens now, so the demo's judgment is prospective; its reviews are
    simulated from each paper's invented citation rate (its rank is the latent quality) and
    appear as the venue's clock moves (``research-taste round resolve <round> --advance-days
    28``)."""
    if is_round(directory):
        return directory
    opened = dt.datetime.now(dt.UTC).replace(microsecond=0)
    rng = random.Random(DEMO_ROUND_SEED)
    qualities = ranked_qualities([per_month for _, _, _, per_month, _ in DEMO_PAPERS])
    submissions = [
        Submission(
            RoundItem(paper_id, title, pub_date, f"{title}. {idea}", ""),
            [],
            future_of(quality, rng, opened),
        )
        for (paper_id, title, pub_date, _, idea), quality in zip(
            DEMO_PAPERS, qualities, strict=True
        )
    ]
    write_simulated_round(directory, submissions, opened, 7, {"demo": "tastybench"}, records=())
    return directory


# What ``research-taste demo`` runs for this family (found by core/families.py).
DEMO_RUNS: tuple[DemoRun, ...] = (
    # Ten invented papers, every pair in both orders, judged by a length prior.
    DemoRun(
        name="tastybench",
        build=lambda data_dir: tastybench(
            data_path=str(write_demo_tastybench(data_dir / "tastybench")),
            schedule="all_pairs",
            bootstrap_resamples=200,
        ),
        model="baseline/tastybench-longer",
        data_arg="data_path",
        write_data=write_demo_tastybench,
    ),
    # The extraction step on the same papers, with a lead-sentences extractor.
    DemoRun(
        name="tastybench_extract",
        build=lambda data_dir: tastybench_extract(
            data_path=str(write_demo_tastybench(data_dir / "tastybench_extract"))
        ),
        model="baseline/tastybench-lead",
        data_arg="data_path",
        write_data=write_demo_tastybench,
    ),
    # The demo papers as a round: its frozen pairs judged before any label exists.
    DemoRun(
        name="tastybench_round",
        build=lambda data_dir: tastybench_round(
            round=str(write_demo_round(data_dir / "tastybench_round"))
        ),
        model="baseline/tastybench-longer",
        data_arg="round",
        write_data=write_demo_round,
    ),
)
