"""The report's Rounds section: one row per task, model and round (the most prospective
complete judgment, the earliest among equals; the others and partial ones set aside and
counted), PaperWeakness in its own table, the pooled figure from the shown TastyBench judgments
only; round logs stay out of the task leaderboards, and a folder of round logs alone still makes
a report."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import pytest
from fake_openreview import serving
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, write_eval_log
from openreview_round import JUDGE_DAYS, T0, T1, venue_with_pdfs
from round_pooling import pooled

from research_taste.reporting.report import write_report
from research_taste.reporting.rounds import round_rows, rounds_markdown
from research_taste.reporting.runs import read_runs
from research_taste.rounds.openreview import open_openreview, resolve_openreview
from research_taste.rounds.score import score_round
from research_taste_evals.aaar.paper_weakness_round import paper_weakness_round
from research_taste_evals.core.embeddings import OFFLINE_MODEL
from research_taste_evals.tastybench.tastybench import tastybench_round

pytestmark = pytest.mark.slow

ROUND_REASON = "a round's judgment: reported in the Rounds section (docs/rounds.md)"


def _judged(task: object, model: str, log_dir: Path) -> EvalLog:
    [log] = inspect_eval(task, model=model, log_dir=str(log_dir), display="none")
    return log


def _partial_copy(log: EvalLog, log_dir: Path) -> None:
    """An earlier judgment of the same model that errored part-way (a partial run)."""
    copy = log.model_copy(deep=True)
    copy.status = "error"
    copy.eval.created = "2000-01-01T00:00:00+00:00"
    write_eval_log(copy, str(log_dir / "2000-01-01T00-00-00+00-00_tastybench_partial.eval"))


def test_rounds_section_shows_one_judgment_per_model_and_round(tmp_path: Path) -> None:
    now = [T0]
    venue = venue_with_pdfs(lambda: now[0])
    folder, logs = tmp_path / "rounds" / "r1", tmp_path / "logs"
    with serving(venue):
        open_openreview(
            venue.venue, folder, base_url=venue.base_url, now=lambda: now[0], judge_days=JUDGE_DAYS
        )
        data = str(folder)
        older = _judged(tastybench_round(round=data), "baseline/random", logs)
        newer = _judged(tastybench_round(round=data), "baseline/random", logs)
        _partial_copy(newer, logs)
        weakness = paper_weakness_round(
            round=data, embedding_model=OFFLINE_MODEL, itf_idf_model=OFFLINE_MODEL
        )
        _judged(weakness, "baseline/generic-weaknesses", logs)
        now[0] = T1 + dt.timedelta(days=1)
        resolve_openreview(folder, now=lambda: now[0])
    assert len(score_round(folder, logs)) == 3  # the partial judgment (errored) is not scored

    rows = round_rows(str(logs))
    assert [(r.task, r.model, r.partial, r.set_aside) for r in rows] == [
        ("paper_weakness_round", "baseline/generic-weaknesses", False, 0),
        (
            "tastybench_round",
            "baseline/random",
            False,
            1,
        ),  # the other set aside (partial: no score)
    ]
    assert rows[1].judged_at == older.eval.created[:16]  # (both may share one second)
    assert math.isfinite(rows[0].metrics["s_f1"])
    assert pooled(rows[1:])["baseline/random"]["pairs"] == 4  # the shown judgment's 4 pairs, once

    table = rounds_markdown(str(logs))
    assert "TastyBench on rounds" in table and "PaperWeakness on rounds" in table
    assert "| baseline/random | r1 |" in table
    assert "| baseline/generic-weaknesses | r1 |" in table
    assert "Set aside: 1 judgment log(s)" in table
    assert "| baseline/generic-weaknesses | 0 |" not in table  # not in the pooled ranking

    runs, excluded = read_runs(str(logs))
    assert runs == [] and len(excluded) == 7  # 4 judgments and 3 scored logs (not the partial)
    assert {entry.reason for entry in excluded} == {ROUND_REASON}
    files = write_report(str(logs), tmp_path / "site", bundle=False)
    assert files.tasks == ["rounds"]
    assert "## Rounds" in (tmp_path / "site" / "report.md").read_text(encoding="utf-8")
    assert "PaperWeakness on rounds" in (tmp_path / "site" / "index.html").read_text("utf-8")
