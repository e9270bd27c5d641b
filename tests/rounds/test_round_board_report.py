"""The adjusted rounds ranking end to end through logs: a round judged by two baselines in full
and by the naive length baseline under ``--limit``, resolved, scored, reported: the limited
judgment is held against every pair of the round (its missing pairs at 0.5), listed and not
ranked; rounds.csv and rounds_leaderboard.csv hold the figures beside the report."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from fake_openreview import serving
from inspect_ai import eval as inspect_eval
from openreview_round import JUDGE_DAYS, T0, T1, venue_with_pdfs

from research_taste.cli import main
from research_taste.reporting.report import write_report
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_a_limited_judgment_is_listed_unranked_in_the_report_csvs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import datetime as dt

    now = [T0]
    venue = venue_with_pdfs(lambda: now[0])
    folder, logs = tmp_path / "rounds" / "r1", tmp_path / "logs"
    with serving(venue):
        open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        for model, limit in (
            ("baseline/random", None),
            ("baseline/tastybench-first", None),
            ("baseline/tastybench-longer", 2),  # one pair of the round, both orders
        ):
            inspect_eval(
                tastybench_round(round=str(folder)),
                model=model,
                log_dir=str(logs),
                limit=limit,
                display="none",
            )
        now[0] = T1 + dt.timedelta(days=1)
        resolve_openreview(folder, now=lambda: now[0])
    score_round(folder, logs)
    write_report(str(logs), tmp_path / "site", bundle=False, min_pairs=1)

    per_round = {row["model"]: row for row in _read(tmp_path / "site" / "rounds.csv")}
    limited = per_round["baseline/tastybench-longer"]
    pairs = int(limited["resolved_untied_pairs"])  # the round's frame, not the log's pairs
    assert pairs > 1 and limited["complete"] == "no"
    assert float(limited["coverage"]) <= 1 / pairs  # one pair of many answered
    assert per_round["baseline/random"]["complete"] == "yes"
    board = {row["model"]: row for row in _read(tmp_path / "site" / "rounds_leaderboard.csv")}
    assert board["baseline/tastybench-longer"]["ranked"] == "no"
    assert "coverage under 95%" in board["baseline/tastybench-longer"]["reason"]
    assert board["baseline/random"]["ranked"] == "yes"
    report = (tmp_path / "site" / "report.md").read_text(encoding="utf-8")
    assert "difficulty-adjusted" in report and "Paired comparisons" in report

    capsys.readouterr()
    assert main(["leaderboard", "--log-dir", str(logs), "--min-pairs", "1"]) == 0
    printed = capsys.readouterr().out
    assert "difficulty-adjusted" in printed and "| no | coverage under 95%" in printed
    # the default --min-pairs (50) is more than this round's pairs: listed, not used
    assert main(["leaderboard", "--log-dir", str(logs)]) == 0
    assert "fewer than --min-pairs 50" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["leaderboard", "--log-dir", str(logs), "--min-pairs", "0"])
