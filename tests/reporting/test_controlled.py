"""Reports and leaderboards show the controlled headline beside the raw one, with its n."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste.cli import main
from research_taste.reporting import controlled
from research_taste.reporting.controlled import ControlledHeadline, controlled_specs
from research_taste.reporting.leaderboard import leaderboards_markdown, table_rows
from research_taste.reporting.runs import Run, newest_per_row, read_runs
from research_taste_evals.ideapairs.demo import DEMO_PAIRS_FILE
from research_taste_evals.ideapairs.ideapairs import idea_pairs

DEMO_PAIRS = 17  # the packaged demo file, split=all
MODELS = ("baseline/idea-oracle", "baseline/first")


def _run(model: str, metrics: dict[str, float]) -> Run:
    return Run(
        task="idea_pairs",
        model=model,
        roles={},
        config={},
        metrics=metrics,
        total_samples=200,
        completed_samples=200,
        tokens=0,
        cost=None,
        created="2026-01-01T00:00:00",
        started="2026-01-01T00:00:00",
        completed="2026-01-01T00:01:00",
        version="4-A",
        log=f"{model}.eval",
    )


# Raw order: A (0.9) before B (0.6); on post-cutoff pairs B (0.5) beats A (0.3).
ROW_A = _run("model-a", {"accuracy": 0.9, "accuracy_post_cutoff": 0.3, "post_cutoff_pairs": 150})
ROW_B = _run("model-b", {"accuracy": 0.6, "accuracy_post_cutoff": 0.5, "post_cutoff_pairs": 120})
METRICS = ["accuracy", "consistency"]


def test_declared_floors() -> None:
    specs = controlled_specs()
    assert specs["idea_pairs"] == ControlledHeadline(
        "idea_pairs", "accuracy", "accuracy_post_cutoff", "post_cutoff_pairs", 100
    )
    assert (specs["expdesign"].metric, specs["expdesign"].floor) == ("en_f1_post_cutoff", 10)
    assert (specs["paper_weakness"].raw, specs["paper_weakness"].floor) == ("s_f1", 10)
    assert (specs["tastybench"].count, specs["tastybench"].floor) == ("post_cutoff_papers", 10)
    assert specs["tastybench"].raw == "bt_spearman"


def test_ranks_by_controlled_only_when_every_row_is_above_the_floor() -> None:
    lines = table_rows("idea_pairs", [ROW_A, ROW_B], METRICS)
    assert lines[0][4:6] == ["accuracy", "accuracy_post_cutoff (n)"]
    assert [line[1] for line in lines[1:]] == ["model-b", "model-a"]
    assert lines[1][5] == "0.500 (n=120)" and lines[2][5] == "0.300 (n=150)"
    text = leaderboards_markdown([ROW_A, ROW_B], None)
    assert "Ranked by accuracy_post_cutoff (higher first)" in text

    # One row below the floor (99 < 100 pairs): ranked by the raw accuracy, the row marked.
    low = replace(ROW_B, metrics=ROW_B.metrics | {"post_cutoff_pairs": 99.0})
    lines = table_rows("idea_pairs", [ROW_A, low], METRICS)
    assert [line[1] for line in lines[1:]] == ["model-a", "model-b"]
    assert lines[2][5] == "0.500 (n=99) †" and not lines[1][5].endswith("†")
    text = leaderboards_markdown([ROW_A, low], None)
    assert "Ranked by the raw accuracy (higher first), not by accuracy_post_cutoff" in text

    # No cutoff known for a model: its n is NaN, shown as unknown and below the floor.
    nan = float("nan")
    unknown = replace(
        ROW_B, metrics=ROW_B.metrics | {"accuracy_post_cutoff": nan, "post_cutoff_pairs": nan}
    )
    unknown.metrics.update(
        {"accuracy_post_cutoff/ci_low": nan, "accuracy_post_cutoff/ci_high": nan}
    )
    lines = table_rows("idea_pairs", [ROW_A, unknown], METRICS)
    assert lines[2][5] == "nan (n=?) †" and lines[1][1] == "model-a"
    # Another first column (--metric consistency): no controlled column, ranked by it.
    assert "accuracy_post_cutoff (n)" not in table_rows("idea_pairs", [ROW_A], ["consistency"])[0]


@pytest.fixture(scope="module")
def cutoff_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """idea_pairs on the demo pairs with two baselines, cutoff before every paper."""
    logs = tmp_path_factory.mktemp("controlled") / "logs"
    task = idea_pairs(
        pairs_file=str(DEMO_PAIRS_FILE),
        split="all",
        knowledge_cutoff="2015-01-01",
        bootstrap_resamples=50,
    )
    for model in MODELS:
        log = inspect_eval(task, model=model, log_dir=str(logs), display="none")[0]
        assert log.status == "success", log.error
    return logs


def test_leaderboard_cli_shows_both_numbers_with_n(
    cutoff_logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", "--log-dir", str(cutoff_logs)]) == 0
    out = capsys.readouterr().out
    assert "| accuracy | accuracy_post_cutoff (n) |" in out
    # 17 pairs, all after a 2015 cutoff: below the 100-pair floor, so ranked by the raw figure.
    assert f"1.00 [1.00, 1.00] (n={DEMO_PAIRS}) †" in out
    assert f"0.00 [0.00, 0.00] (n={DEMO_PAIRS}) †" in out
    assert "Ranked by the raw accuracy" in out


def test_report_shows_both_numbers_with_n(
    cutoff_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    assert main(["report", str(cutoff_logs), "--out", str(out), "--no-viewer"]) == 0
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "accuracy_post_cutoff (n)" in report and f"(n={DEMO_PAIRS}) †" in report
    assert "Ranked by the raw accuracy" in report
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "accuracy_<wbr>post_<wbr>cutoff (n)" in page and f"(n={DEMO_PAIRS}) †" in page
    assert "pairs with both papers after the knowledge cutoff" in page  # n's meaning
    # With a floor the demo reaches, the same rows rank by the controlled headline.
    spec = replace(controlled_specs()["idea_pairs"], floor=DEMO_PAIRS)
    monkeypatch.setattr(controlled, "controlled_specs", lambda: {"idea_pairs": spec})
    rows = newest_per_row(read_runs(str(cutoff_logs))[0])
    assert "Ranked by accuracy_post_cutoff" in leaderboards_markdown(rows)
