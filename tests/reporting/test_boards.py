"""A run is ranked by the headline of the schedule it used, never with another schedule's
figures (issue 42: the leaderboard ranked matched and all-pairs runs together by bt_spearman
and hid pairwise_accuracy); the evaluation report names each row's configuration."""

from __future__ import annotations

from report_rows import run_of

from research_taste.reporting.boards import boards
from research_taste.reporting.controlled import controlled_for, variant_controlled_specs
from research_taste.reporting.eval_report import eval_report_markdown
from research_taste.reporting.families import task_specs
from research_taste.reporting.leaderboard import leaderboards_markdown
from research_taste.reporting.runs import Run

MATCHED = {"pairwise_accuracy": 0.75, "bt_spearman": 0.9, "unparsed_rate": 0.0}


def _schedule(model: str, schedule: str, metrics: dict[str, float]) -> Run:
    return run_of(metrics, model=model, config={"schedule": schedule})


def _runs() -> list[Run]:
    return [
        _schedule("a", "adjacent", {"bt_spearman": 0.2, "unparsed_rate": 0.1}),
        _schedule("a", "all_pairs", {"bt_spearman": 0.5, "unparsed_rate": 0.2}),
        _schedule("m", "matched", MATCHED),
        _schedule("n", "matched", MATCHED | {"pairwise_accuracy": 0.6}),
    ]


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n### ", start + 1)
    return text[start : end if end > 0 else None]


def test_each_schedule_is_ranked_by_its_own_headline_in_its_own_table() -> None:
    found = boards(_runs())
    assert [(b.name, b.headline[0]) for b in found] == [
        ("tastybench", "bt_spearman"),
        ("tastybench (schedule=matched)", "pairwise_accuracy"),
    ]
    text = leaderboards_markdown(_runs())
    matched = _section(text, "### tastybench (schedule=matched) (")
    assert "Ranked by the raw pairwise_accuracy (higher first)" in matched
    header = next(line for line in matched.splitlines() if line.startswith("| rank"))
    assert header.split(" | ")[4] == "pairwise_accuracy"
    ranks = [line.split(" | ")[:2] for line in matched.splitlines() if line.startswith("| 1")]
    assert ranks == [["| 1", "m"]]
    others = _section(text, "### tastybench (TastyBench")
    # The matched runs' bt_spearman (0.9, the highest) is never ranked with the others'.
    assert "| m |" not in others and "| n |" not in others
    assert "Ranked by the raw bt_spearman (higher first)" in others


def test_unparsed_rates_name_model_and_configuration() -> None:
    """evaluation_report.md listed them by model name only, once per configuration."""
    text = eval_report_markdown(_runs()[:2])
    line = next(line for line in text.splitlines() if line.startswith("Unparsed / unscored"))
    assert "a (schedule=adjacent): unparsed_rate=0.100" in line
    assert "a (schedule=all_pairs): unparsed_rate=0.200" in line


def test_the_matched_headline_and_its_clean_twin_are_declared() -> None:
    """TastyBench's eval.yaml declares the matched variant; its clean twin sits beside it."""
    [variant] = task_specs()["tastybench"].variants
    assert variant.label == "schedule=matched"
    assert variant.headline_metrics[0] == "pairwise_accuracy"
    twin = variant_controlled_specs()[("tastybench", "pairwise_accuracy")]
    assert (twin.metric, twin.count) == ("pairwise_accuracy_clean", "clean_pairs")
    assert controlled_for("tastybench", ["pairwise_accuracy"]) == twin
    spec = task_specs()["tastybench"]  # every figure the board shows has its meaning
    assert all(spec.meaning(name) for name in (*variant.headline_metrics, twin.metric, twin.count))
