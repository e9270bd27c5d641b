"""Every stored upstream run with a correlation.json, recomputed from its rankings.csv."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from research_taste_evals.tastybench.dataset import load_papers
from research_taste_evals.tastybench.pairwise import elo_ratings
from research_taste_evals.tastybench.ratings import upstream_rank_pearson

pytestmark = pytest.mark.slow  # whole tasks, sweeps or fresh interpreters: -m 'not slow' skips it

DATA = Path("model-elicitation") / "data"


@pytest.mark.upstream
def test_all_stored_curated_runs_reproduce(tastybench_upstream: Path) -> None:
    velocity = {
        paper.paper_id: paper.velocity("upstream")
        for paper in load_papers("curated", "idea", tastybench_upstream).papers
    }
    runs = sorted((tastybench_upstream / DATA).glob("*curated/*/*-epochs/correlation.json"))
    assert len(runs) == 18
    for correlation_file in runs:
        folder = correlation_file.parent
        with (folder / "rankings.csv").open(encoding="utf-8") as handle:
            comparisons = [
                (r["better_paper_id"], r["worse_paper_id"]) for r in csv.DictReader(handle)
            ]
        with (folder / "elo.csv").open(encoding="utf-8") as handle:
            expected = {r["paper_id"]: float(r["elo_rating"]) for r in csv.DictReader(handle)}
        elo = elo_ratings(comparisons)
        assert elo == pytest.approx(expected, abs=1e-9), folder
        rho = json.loads(correlation_file.read_text(encoding="utf-8"))["correlation"]
        assert upstream_rank_pearson(elo, velocity) == pytest.approx(rho, abs=1e-12), folder
