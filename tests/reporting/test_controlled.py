"""Reports and leaderboards show the clean headline beside the raw one, with its n, the
recognition figures of every dated task, and rank by nothing a model may remember (issue 34)."""

from __future__ import annotations

import ast
import inspect
from dataclasses import replace
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, EvalMetric, list_eval_logs, read_eval_log, write_eval_log

import research_taste_evals._registry  # noqa: F401  (registers the baseline provider)
from research_taste.cli import main
from research_taste.reporting import controlled
from research_taste.reporting.cells import cell
from research_taste.reporting.controlled import ControlledHeadline, uncontrolled_reasons
from research_taste.reporting.controlled import controlled_specs as declared_specs
from research_taste.reporting.families import task_specs
from research_taste.reporting.leaderboard import leaderboards_markdown, table_rows
from research_taste.reporting.runs import Run, newest_per_row, read_runs
from research_taste_evals.core.families import task_specs as task_specs_declared
from research_taste_evals.ideapairs.demo import DEMO_PAIRS_FILE
from research_taste_evals.ideapairs.ideapairs import idea_pairs

NAN = float("nan")
MODELS = ("baseline/idea-oracle", "baseline/first")
# The shared metric-name contract (BRIEF / issue 34): <H>_clean with clean_items as its n.
TASTY = ControlledHeadline("tastybench", "bt_spearman", "bt_spearman_clean", "clean_items", 10)
PAIRS = ControlledHeadline("idea_pairs", "accuracy", "accuracy_clean", "clean_items", 100)


@pytest.fixture(autouse=True)
def contract(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read the contract's names, whatever the installed eval.yaml files declare."""
    specs = {"tastybench": TASTY, "idea_pairs": PAIRS}
    monkeypatch.setattr(controlled, "controlled_specs", lambda: specs)
    monkeypatch.setattr(
        controlled, "uncontrolled_reasons", lambda: {"eqinfer": "its equations carry no dates"}
    )


def _run(model: str, metrics: dict[str, float], task: str = "tastybench") -> Run:
    return Run(
        task=task,
        model=model,
        roles={},
        config={},
        metrics=metrics,
        total_samples=720,
        completed_samples=720,
        tokens=0,
        cost=None,
        created="2026-01-01T00:00:00",
        started="2026-01-01T00:00:00",
        completed="2026-01-01T00:01:00",
        version=task_specs()[task].version,
        log=f"{model}.eval",
    )


# Raw order: A (0.81) before B (0.6); on clean papers B (0.5) beats A (0.3).
CLEAN_A = {"bt_spearman_clean": 0.3, "clean_items": 15, "recognized_rate": 0.4}
ROW_A = _run("model-a", {"bt_spearman": 0.81, **CLEAN_A, "post_cutoff_recognized": 0})
CLEAN_B = {"bt_spearman_clean": 0.5, "clean_items": 12, "recognized_rate": 0.1}
ROW_B = _run("model-b", {"bt_spearman": 0.6, **CLEAN_B, "post_cutoff_recognized": 0})
# The measured frontier answers of issue 34: every paper recognised, all 16 post-cutoff ones too.
KNOWS_ALL = {
    "bt_spearman": 0.81,
    "bt_spearman_clean": NAN,
    "bt_spearman_clean_ci_low": NAN,
    "bt_spearman_clean_ci_high": NAN,
    "clean_items": 0,
    "recognized_rate": 1.0,
    "recognized_items": 32,
    "probed_items": 32,
    "post_cutoff_recognized": 16,
    "estimated_cutoff": NAN,
    "clean_cutoff": 202506,
}
COLUMNS = ["bt_spearman_clean (n)", "recognized_rate", "post_cutoff_recognized"]


def test_the_controlled_module_does_not_import_the_leaderboard() -> None:
    """The import cycle controlled <-> leaderboard is gone (issue 38)."""
    tree = ast.parse(inspect.getsource(controlled))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert imported and "research_taste.reporting.leaderboard" not in imported


def test_every_declared_controlled_headline_sits_beside_its_raw_headline() -> None:
    declared = declared_specs()
    assert {"tastybench", "idea_pairs", "expdesign", "paper_weakness"} <= set(declared)
    for task, spec in declared.items():
        assert spec.raw == task_specs()[task].headline_metrics[0] and spec.floor >= 1


def test_ranks_by_clean_only_when_every_row_reaches_the_floor() -> None:
    lines = table_rows("tastybench", [ROW_A, ROW_B], ["bt_spearman"])
    assert lines[0][4:8] == ["bt_spearman", *COLUMNS]
    assert [line[1] for line in lines[1:]] == ["model-b", "model-a"]
    assert lines[1][5:8] == ["0.500 (n=12)", "0.100", "0"]
    text = leaderboards_markdown([ROW_A, ROW_B], None)
    assert "Ranked by bt_spearman_clean (higher first)" in text and "‡" not in text

    low = replace(ROW_B, metrics=ROW_B.metrics | {"clean_items": 9.0})
    lines = table_rows("tastybench", [ROW_A, low], ["bt_spearman"])
    assert [line[1] for line in lines[1:]] == ["model-a", "model-b"]
    assert lines[2][5] == "0.500 (n=9) †" and not lines[1][5].endswith("†")
    text = leaderboards_markdown([ROW_A, low], None)
    assert "Ranked by the raw bt_spearman (higher first), not by bt_spearman_clean" in text


def test_a_model_that_recognises_everything_ranks_nothing_by_a_contaminated_figure() -> None:
    """Issue 34's done-when: ranked by raw, said so, the row flagged, no controlled figure."""
    knows = _run("knows-all", KNOWS_ALL)
    lines = table_rows("tastybench", [knows, ROW_B], ["bt_spearman"])
    row = next(line for line in lines[1:] if line[1] == "knows-all")
    assert row[5] == "– (the model recognises every item)"  # no number for it
    assert row[6:8] == ["1.00", "16 ‡"]
    assert [line[1] for line in lines[1:]] == ["knows-all", "model-b"]  # raw order
    text = leaderboards_markdown([knows, ROW_B], None)
    assert "Ranked by the raw bt_spearman (higher first), not by bt_spearman_clean" in text
    assert "‡ Stated knowledge cutoff contradicted" in text and "knows-all (16 items)" in text
    assert "nan (n=0)" not in text


@pytest.mark.parametrize(
    ("metrics", "reason"),
    [
        ({"bt_spearman": 0.5, "bt_spearman_post_cutoff": 0.4}, "log predates clean items"),
        (
            {"bt_spearman_clean": NAN, "clean_items": NAN, "clean_cutoff": NAN},
            "no cutoff known (none stated, none estimable)",
        ),
        (
            {"bt_spearman_clean": 0.9, "clean_items": 2, "recognized_rate": 0.5},
            "too few clean items (2, fewer than 3)",
        ),
        (
            {"bt_spearman_clean": NAN, "clean_items": 0, "clean_cutoff": 202401},
            "too few clean items (0, fewer than 3)",
        ),
        (
            {"bt_spearman_clean": NAN, "probed_items": 8, "estimated_cutoff_items": 0},
            "no dates: the items carry none",
        ),
    ],
)
def test_a_missing_clean_figure_gives_its_real_reason(
    metrics: dict[str, float], reason: str
) -> None:
    run = _run("m", {"bt_spearman": 0.5, **metrics})
    assert table_rows("tastybench", [run], ["bt_spearman"])[1][5] == f"– ({reason})"


def test_old_ci_keys_and_old_logs_keep_reading() -> None:
    figures = {"accuracy": 0.5, "accuracy/ci_low": 0.4, "accuracy/ci_high": 0.6}
    old = _run("m", figures, "idea_pairs")
    assert cell(old, "accuracy").text() == "0.500 [0.400, 0.600]"
    lines = table_rows("idea_pairs", [old], ["accuracy", "consistency"])
    assert lines[1][5:8] == ["– (log predates clean items)", "–", "–"]


def test_an_undated_task_says_recall_is_not_controlled() -> None:
    run = _run("m", {"decision_f1": 0.5}, "eqinfer")
    text = leaderboards_markdown([run], None)
    assert "Recall is not controlled for this task: its equations carry no dates." in text
    assert "recognized_rate" not in text


def test_every_undated_task_says_why_from_its_spec() -> None:
    found = uncontrolled_reasons.__wrapped__()  # the cached reader, uncached
    undated = {task for task, spec in task_specs_declared().items() if not spec.dated}
    assert set(found) == undated and {"eqinfer", "lft", "review_critique"} <= undated
    assert all(reason.strip() for reason in found.values())
    assert "Recall is not controlled for this task: " in controlled.recall_note("eqinfer")


def _with_metrics(log: EvalLog, values: dict[str, float], out: Path) -> None:
    """A log fixture: ``log`` with ``values`` as its first scorer's metrics, written to ``out``;
    without its samples, so that no other figure is derived from them."""
    assert log.results is not None
    scores = log.results.scores[0]
    scores.metrics = {name: EvalMetric(name=name, value=v) for name, v in values.items()}
    log.results.scores = [scores]
    log = log.model_copy(update={"samples": None, "reductions": None})
    write_eval_log(log, str(out))


@pytest.fixture(scope="module")
def pairs_logs(tmp_path_factory: pytest.TempPathFactory) -> list[EvalLog]:
    """Two real idea_pairs logs on the demo pairs (their metrics rewritten per test)."""
    logs = tmp_path_factory.mktemp("controlled") / "logs"
    task = idea_pairs(pairs_file=str(DEMO_PAIRS_FILE), split="all", bootstrap_resamples=20)
    for model in MODELS:
        assert inspect_eval(task, model=model, log_dir=str(logs), display="none")[0].status == (
            "success"
        )
    return [read_eval_log(info) for info in list_eval_logs(str(logs))]


def test_report_over_a_model_that_recognises_everything(
    pairs_logs: list[EvalLog], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A report over two runs: ranked by raw and saying so, the contradicted row flagged."""
    knows_all = {**KNOWS_ALL, "accuracy": 0.9, "accuracy_clean": NAN}
    honest = {
        "accuracy": 0.6,
        "accuracy_clean": 0.7,
        "accuracy_clean_ci_low": 0.6,
        "accuracy_clean_ci_high": 0.8,
        "clean_items": 150,
        "recognized_rate": 0.2,
        "post_cutoff_recognized": 0,
    }
    logs = tmp_path / "logs"
    by_model = {log.eval.model: log for log in pairs_logs}
    _with_metrics(by_model[MODELS[0]], knows_all, logs / "a.eval")
    _with_metrics(by_model[MODELS[1]], honest, logs / "b.eval")
    out = tmp_path / "site"
    assert main(["report", str(logs), "--out", str(out), "--no-viewer", "--eval-report"]) == 0
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "Ranked by the raw accuracy (higher first), not by accuracy_clean" in report
    oracle = next(line for line in report.splitlines() if f"| {MODELS[0]} |" in line)
    assert "– (the model recognises every item)" in oracle and "16 ‡" in oracle
    assert oracle.startswith("| 1 |")  # ranked first by its raw accuracy, and flagged
    assert f"{MODELS[0]} (16 items)" in report
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "– (the model recognises every item)" in page and "16 ‡" in page
    evaluation = (out / "evaluation_report.md").read_text(encoding="utf-8")
    assert "16 ‡" in evaluation and "0.700 [0.600, 0.800] (n=150)" in evaluation
    assert main(["leaderboard", "--log-dir", str(logs)]) == 0
    assert "Ranked by the raw accuracy" in capsys.readouterr().out


def test_runs_on_different_files_are_two_rows(tmp_path: Path) -> None:
    """Two runs of one model whose location arguments name different files: two rows."""
    logs = tmp_path / "logs"
    text = DEMO_PAIRS_FILE.read_text(encoding="utf-8")
    files = [tmp_path / "a" / "pairs_one.jsonl", tmp_path / "b" / "pairs_two.jsonl"]
    files.append(tmp_path / "c" / "pairs_one.jsonl")  # the first file's data in another folder
    for path in files:
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        task = idea_pairs(pairs_file=str(path), split="all", bootstrap_resamples=20)
        assert inspect_eval(task, model=MODELS[1], log_dir=str(logs), display="none")[0].results
    rows = newest_per_row(read_runs(str(logs))[0])
    assert len(rows) == 2
    lines = table_rows("idea_pairs", rows, ["accuracy"])
    shown = {line[2] for line in lines[1:]}
    assert shown == {"pairs_file=pairs_one.jsonl", "pairs_file=pairs_two.jsonl"}
