"""TastyBench recall controls with a later real cutoff: clean items, the clean twin fitted on them
alone, and the matched schedule's twins."""

from __future__ import annotations

import datetime as dt
import logging
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from tastybench_held_out import FAST, Metrics, ScriptedModel, held_out_model, write_papers

from research_taste_evals.tastybench.tastybench import tastybench

REAL_CUTOFF = dt.date(2024, 9, 30)
STATED = "2024-03-31"


def _dated_papers() -> list[dict[str, object]]:
    """20 papers: every other month from 2023-06 to 2024-08, then monthly from 2024-10 to
    2025-09 (velocities shuffled against dates), and one of 2025-01 whose idea names its
    method (identity leak)."""
    rows = []
    for i in range(20):
        month = 5 + 2 * i if i < 8 else 21 + (i - 8)  # months since 2023-01, 0-based
        rows.append(
            {
                "id": f"d{i:02d}",
                "title": f"Study {i} of a policy optimisation variant",
                "date": f"{2023 + month // 12}-{month % 12 + 1:02d}-15",
                "velocity": float((i * 7) % 20 + 1),
                "idea": f"Optimising a policy for family {i} with regulariser {i * 3}.",
            }
        )
    rows.append(
        {
            "id": "leak",
            "title": "OmegaPO: Policy Optimisation",
            "date": "2025-01-20",
            "velocity": 10.5,
            "idea": "OmegaPO optimises policies.",
        }
    )
    return rows


def _bt_spearman_by_hand(log: EvalLog, papers: set[str]) -> float:
    """Bradley-Terry on the model's own picks between two of ``papers``, Spearman vs velocity."""
    from scipy.stats import spearmanr

    from research_taste_evals.tastybench.pairwise import bradley_terry

    wins, velocity = [], {}
    for sample in log.samples or []:
        first, second = sample.metadata["paper_1"], sample.metadata["paper_2"]
        if {first, second} <= papers:
            picked = first if sample.output.completion.strip() == "PROJECT 1" else second
            wins.append((picked, second if picked == first else first))
            velocity |= {
                first: sample.metadata["velocity_1"],
                second: sample.metadata["velocity_2"],
            }
    ids = sorted(velocity)
    ratings = bradley_terry(wins, paper_ids=ids)
    return float(spearmanr([ratings[p] for p in ids], [velocity[p] for p in ids]).statistic)


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_held_out_model_with_a_later_real_cutoff_gets_clean_items(
    tmp_path: Path,
    scripted_model: ScriptedModel,
    metrics_of: Metrics,
    caplog: pytest.LogCaptureFixture,
) -> None:
    papers = _dated_papers()
    data = write_papers(tmp_path / "data", papers)
    task = tastybench(
        data_path=str(data),
        schedule="all_pairs",
        knowledge_cutoff=STATED,
        choice_method="parser",
        bootstrap_resamples=200,
    )
    model = scripted_model(held_out_model(papers, REAL_CUTOFF))
    with caplog.at_level(logging.INFO, logger="research_taste_evals.core.recall_metrics"):
        log = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), **FAST)[0]
    metrics = metrics_of(log)
    dates = {str(p["id"]): dt.date.fromisoformat(str(p["date"])) for p in papers}
    stated = dt.date.fromisoformat(STATED)
    between = [p for p, d in dates.items() if stated < d <= REAL_CUTOFF]
    clean = {p for p, d in dates.items() if d > REAL_CUTOFF and p != "leak"}
    assert len(between) == 3 and len(clean) == 12
    assert metrics["post_cutoff_recognized"] == len(between)
    # Known through 2024-08, unknown from 2024-10: the step fit's latest best month, 2024-09.
    assert metrics["estimated_cutoff"] == 202409 and metrics["estimated_cutoff_agreement"] == 1
    assert metrics["clean_cutoff"] == 202409
    assert metrics["clean_items"] == len(clean)  # the unnamed papers after the real cutoff
    assert metrics["clean_comparisons"] == len(clean) * (len(clean) - 1)
    assert metrics["bt_spearman_clean"] == pytest.approx(_bt_spearman_by_hand(log, clean))
    assert abs(metrics["bt_spearman_clean"]) < 0.5  # chance: the coin ignores merit
    assert metrics["bt_spearman"] > metrics["bt_spearman_clean"] + 0.2  # recall inflates it
    # The post-cutoff twin trusts the stated cutoff: it includes the three recalled papers.
    assert metrics["post_cutoff_papers"] == len(clean) + len(between) + 1
    warnings = [r.getMessage() for r in caplog.records if "contradicted" in r.getMessage()]
    assert len(warnings) == 1
    assert "stated knowledge cutoff 2024-03-31 is contradicted" in warnings[0]
    assert "post_cutoff_recognized counts the run's" in warnings[0]


def test_a_model_that_recognises_everything_has_no_clean_items(
    tmp_path: Path,
    scripted_model: ScriptedModel,
    metrics_of: Metrics,
    caplog: pytest.LogCaptureFixture,
) -> None:
    papers = _dated_papers()[12:18]  # 2025-02 .. 2025-07, all after the stated cutoff
    data = write_papers(tmp_path / "data", papers)
    task = tastybench(
        data_path=str(data), schedule="all_pairs", knowledge_cutoff=STATED, choice_method="parser"
    )
    model = scripted_model(held_out_model(papers, dt.date(2030, 1, 1)))
    with caplog.at_level(logging.INFO, logger="research_taste_evals.core.recall_metrics"):
        log = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), **FAST)[0]
    metrics = metrics_of(log)
    assert metrics["recognized_rate"] == 1 and metrics["post_cutoff_recognized"] == 6
    assert math.isnan(metrics["estimated_cutoff"]) and metrics["clean_cutoff"] == 202507
    assert metrics["clean_items"] == 0 and math.isnan(metrics["bt_spearman_clean"])
    messages = [r.getMessage() for r in caplog.records]
    assert any("recognises every item, through 2025-07" in m for m in messages)
    warnings = [r.getMessage() for r in caplog.records if "contradicted" in r.getMessage()]
    assert len(warnings) == 1 and "recognised" in warnings[0]


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
@pytest.mark.upstream
def test_held_out_model_on_the_curated_set(
    tastybench_upstream: Path, tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    """The same held-out model on the curated 37 papers (2023-03 to 2025-09)."""
    from research_taste_evals.tastybench.dataset import load_papers

    loaded = load_papers("curated", "idea", tastybench_upstream)
    papers = [
        {
            "id": p.paper_id,
            "title": p.title,
            "date": str(p.pub_date)[:10],
            "velocity": p.velocity("windowed"),
            "idea": p.text,
        }
        for p in loaded.papers
    ]
    task = tastybench(
        data_path=str(tastybench_upstream),
        schedule="all_pairs",
        knowledge_cutoff=STATED,
        choice_method="parser",
        bootstrap_resamples=200,
    )
    model = scripted_model(held_out_model(papers, REAL_CUTOFF))
    log = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), **FAST)[0]
    metrics = metrics_of(log)
    leaks = set(loaded.metadata["identity_leak"])
    dates = {str(p["id"]): dt.date.fromisoformat(str(p["date"])) for p in papers}
    stated = dt.date.fromisoformat(STATED)
    between = {p for p, d in dates.items() if stated < d <= REAL_CUTOFF and p not in leaks}
    clean = {p for p, d in dates.items() if d > REAL_CUTOFF and p not in leaks}
    assert metrics["post_cutoff_recognized"] == len(between)
    assert metrics["estimated_cutoff"] in (202408, 202409, 202410)  # within one month
    assert metrics["clean_items"] == len(clean)
    assert metrics["bt_spearman_clean"] == pytest.approx(_bt_spearman_by_hand(log, clean))
    assert metrics["bt_spearman"] > metrics["bt_spearman_clean"]


def test_matched_schedule_gets_pairwise_accuracy_twins(
    tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    """schedule=matched: pairwise_accuracy_clean over the matched pairs of two clean papers,
    recomputed here from the model's own picks."""
    papers = _dated_papers()
    data = write_papers(tmp_path / "data", papers)
    task = tastybench(
        data_path=str(data),
        schedule="matched",
        knowledge_cutoff=STATED,
        choice_method="parser",
        bootstrap_resamples=100,
    )
    model = scripted_model(held_out_model(papers, REAL_CUTOFF))
    log = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), **FAST)[0]
    metrics = metrics_of(log)
    dates = {str(p["id"]): dt.date.fromisoformat(str(p["date"])) for p in papers}
    clean = {p for p, d in dates.items() if d > REAL_CUTOFF and p != "leak"}
    right, total, pairs = 0, 0, set()
    for sample in log.samples or []:
        first, second = sample.metadata["paper_1"], sample.metadata["paper_2"]
        if {first, second} <= clean:
            picked_first = sample.output.completion.strip() == "PROJECT 1"
            faster_first = sample.metadata["velocity_1"] > sample.metadata["velocity_2"]
            right += picked_first == faster_first
            total += 1
            pairs.add(sample.metadata["pair_id"])
    assert pairs and metrics["clean_pairs"] == len(pairs)
    assert metrics["pairwise_accuracy_clean"] == pytest.approx(right / total)
    assert metrics["clean_items"] >= 0  # bt_spearman's own clean twin is still logged
