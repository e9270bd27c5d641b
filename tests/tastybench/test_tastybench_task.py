"""End-to-end TastyBench runs with scripted judges (offline)."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, Model, ModelOutput
from inspect_ai.tool import ToolDef
from mock_models import answering_probes, model_output

from research_taste.tastybench.log_ratings import ratings_from_log
from research_taste_evals.tastybench.baselines import project_texts
from research_taste_evals.tastybench.dataset import load_papers
from research_taste_evals.tastybench.solvers import CITATION_COUNT_DOMAINS, guarded_web_search
from research_taste_evals.tastybench.tastybench import tastybench

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
Metrics = Callable[[EvalLog], dict[str, float]]
REPLAY = Path("model-elicitation/data/curated/gpt-oss-120b/20-epochs")
FAST = {"display": "none", "max_connections": 1000, "max_samples": 1000, "log_realtime": False}


def _run(task: object, model: object, tmp_path: Path, **kwargs: object) -> EvalLog:
    return inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), **FAST, **kwargs)[0]  # type: ignore[arg-type]


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
@pytest.mark.upstream
def test_replaying_upstream_rankings_reproduces_elo_and_rho(
    tastybench_upstream: Path, tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    """upstream rankings.csv holds (better, worse) per comparison; replayed with -T
    schedule=file the upstream winner is shown as Project 1, and a judge that always picks
    it must give upstream's elo.csv to 1e-9 and its correlation.json rho."""
    folder = tastybench_upstream / REPLAY
    task = tastybench(
        data_path=str(tastybench_upstream),
        schedule="file",
        pairs_file=str(folder / "rankings.csv"),
        velocity="upstream",
        prompt="normal",
        bootstrap_resamples=100,
    )
    judge = scripted_model(lambda messages: "After weighing both, I recommend Project 1.")
    log = _run(task, judge, tmp_path)
    metrics = metrics_of(log)
    with (folder / "elo.csv").open(encoding="utf-8") as handle:
        expected = {row["paper_id"]: float(row["elo_rating"]) for row in csv.DictReader(handle)}
    elo = ratings_from_log(log)["elo"]
    assert set(elo) == set(expected)
    assert max(abs(elo[paper] - expected[paper]) for paper in expected) < 1e-9
    upstream_rho = json.loads((folder / "correlation.json").read_text())["correlation"]
    assert upstream_rho == -0.06993835941204363
    assert metrics["elo_spearman"] == pytest.approx(upstream_rho, abs=1e-12)
    assert metrics["elo_upstream_rank_pearson"] == pytest.approx(upstream_rho, abs=1e-12)
    assert metrics["comparisons_used"] == metrics["comparisons_total"] == 622
    assert metrics["unclear_rate"] == 0.0
    assert log.eval.metadata is not None
    assert log.eval.metadata["velocity"] == "upstream"
    assert log.eval.metadata["pairs_file_sha256"]
    faithful = log.eval.metadata["provenance"]["paper_faithful"]
    assert faithful["velocity"] and faithful["schedule"] and not faithful["choice_method"]


def test_always_project_1_has_no_taste(demo_dir: Path, tmp_path: Path, metrics_of: Metrics) -> None:
    log = _run(
        tastybench(data_path=str(demo_dir), schedule="all_pairs", bootstrap_resamples=100),
        "baseline/tastybench-first",
        tmp_path,
    )
    metrics = metrics_of(log)
    assert metrics["position_bias"] == 1.0
    assert metrics["order_consistency"] == 0.0
    # Every paper wins and loses equally often: Bradley-Terry sees no ranking at all ...
    bt = ratings_from_log(log)["bt"]
    assert max(bt.values()) - min(bt.values()) < 1e-6
    assert math.isnan(metrics["bt_spearman"])
    # ... and sequential Elo only order noise, not a strong positive correlation.
    assert abs(metrics["elo_spearman"]) < 0.5
    assert metrics["pairwise_agreement"] == pytest.approx(0.5)


def test_a_velocity_oracle_ranks_perfectly(
    demo_dir: Path, tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    velocity = {
        p.text: p.velocity_windowed for p in load_papers("curated", "idea", demo_dir).papers
    }

    def oracle(messages: list[ChatMessage]) -> str:
        projects = project_texts(messages[-1].text)
        assert projects is not None
        return f"Project {1 if velocity[projects[0]] > velocity[projects[1]] else 2} is better."

    task = tastybench(data_path=str(demo_dir), schedule="all_pairs", bootstrap_resamples=100)
    metrics = metrics_of(_run(task, scripted_model(answering_probes(oracle)), tmp_path))
    assert metrics["bt_spearman"] == pytest.approx(1.0)
    assert metrics["bt_kendall"] == pytest.approx(1.0)
    assert metrics["pairwise_agreement"] == 1.0 and metrics["order_consistency"] == 1.0
    assert metrics["position_bias"] == pytest.approx(0.5)
    assert metrics["bt_spearman_brown"] > 0.9


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_citation_oracle_baseline_reaches_the_ceiling(
    demo_dir: Path, tmp_path: Path, metrics_of: Metrics
) -> None:
    """The oracle reads each sample's own ground truth (default adjacent
    schedule): Bradley-Terry rho >= 0.95; the seeded coin stays near chance."""
    task = tastybench(data_path=str(demo_dir), bootstrap_resamples=50)
    oracle = metrics_of(_run(task, "baseline/citation-oracle", tmp_path))
    assert oracle["bt_spearman"] >= 0.95
    assert oracle["pairwise_agreement"] == 1.0 and oracle["unclear_rate"] == 0.0
    coin = metrics_of(_run(task, "baseline/random", tmp_path))
    assert coin["pairwise_agreement"] < 0.75 and coin["unclear_rate"] == 0.0


def test_oracle_reads_the_running_tasks_truth_after_another_task_is_built(
    demo_dir: Path, tmp_path: Path, metrics_of: Metrics
) -> None:
    """No module state: building a second task (another velocity mode, another ground truth)
    before running the first leaves the oracle answering from the first task's samples."""
    first = tastybench(data_path=str(demo_dir), schedule="all_pairs", velocity="windowed")
    second = tastybench(data_path=str(demo_dir), schedule="all_pairs", velocity="upstream")
    truths = [{s.input: s.target for s in task.dataset} for task in (first, second)]
    assert truths[0] != truths[1], "the two modes must disagree for this test to mean anything"
    log = _run(first, "baseline/citation-oracle", tmp_path)
    metrics = metrics_of(log)
    assert metrics["pairwise_agreement"] == 1.0 and metrics["unclear_rate"] == 0.0


def test_both_neither_and_empty_answers_are_unclear(
    demo_dir: Path, tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(
        "paper_1,paper_2\ndemo0001,demo0002\ndemo0003,demo0004\n"
        "demo0005,demo0006\ndemo0007,demo0008\n",
        encoding="utf-8",
    )
    answers = {
        "demo0001": "",  # empty: no extractor call
        "demo0003": "Both have merit.",  # extractor names both
        "demo0005": "Hard to say.",  # extractor names neither
        "demo0007": "I recommend Project 2.",  # parsed: a clear pick
    }
    text_to_id = {p.text: p.paper_id for p in load_papers("curated", "idea", demo_dir).papers}

    def judge(messages: list[ChatMessage]) -> str:
        projects = project_texts(messages[-1].text)
        assert projects is not None
        return answers[text_to_id[projects[0]]]

    def extractor(messages: list[ChatMessage]) -> str:
        return "PROJECT 1 and PROJECT 2 both" if "Both have merit" in messages[-1].text else "?"

    task = tastybench(
        data_path=str(demo_dir), schedule="file", pairs_file=str(pairs), bootstrap_resamples=10
    )
    log = _run(
        task,
        scripted_model(answering_probes(judge)),
        tmp_path,
        model_roles={"extractor": scripted_model(extractor)},
    )
    metrics = metrics_of(log)
    assert metrics["unclear_rate"] == 0.75
    assert (metrics["comparisons_used"], metrics["comparisons_total"]) == (1.0, 4.0)
    assert metrics["position_bias"] == 0.0
    reasons = {
        sample.metadata["paper_1"]: sample.scores["tastybench_scorer"].metadata["unclear_reason"]
        for sample in log.samples or []
        if sample.scores and sample.metadata
    }
    assert reasons == {
        "demo0001": "empty",
        "demo0003": "both_named",
        "demo0005": "neither_named",
        "demo0007": None,
    }
    assert math.isnan(metrics["order_consistency"])


def test_a_refusing_extractor_is_counted_not_a_failed_sample(
    demo_dir: Path, tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    def refuses(messages: list[ChatMessage]) -> ModelOutput:
        return model_output("I can't help with that.", stop_reason="content_filter")

    task = tastybench(data_path=str(demo_dir), rounds=1, bootstrap_resamples=10)
    judge = scripted_model(answering_probes(lambda messages: "Both have merit."))  # ambiguous
    log = _run(task, judge, tmp_path, model_roles={"extractor": scripted_model(refuses)})
    assert log.status == "success"
    metrics = metrics_of(log)
    assert metrics["extractor_failure_rate"] == 1.0 and metrics["unclear_rate"] == 1.0
    score = (log.samples or [])[0].scores["tastybench_scorer"]  # type: ignore[index]
    assert score.metadata is not None and score.metadata["unclear_reason"] == "extractor_refused"
    assert score.reason == "grader_failed"


def test_a_failing_extractor_fails_its_samples(
    demo_dir: Path, tmp_path: Path, scripted_model: ScriptedModel
) -> None:
    """An extractor call that still fails after Inspect's retries fails the sample (to be
    retried with ``--retry-on-error``), never an unclear answer charged to the judge."""

    def broken(messages: list[ChatMessage]) -> str:
        raise RuntimeError("provider down")

    task = tastybench(data_path=str(demo_dir), rounds=1, bootstrap_resamples=10)
    judge = scripted_model(answering_probes(lambda messages: "Both have merit."))
    log = _run(task, judge, tmp_path, model_roles={"extractor": scripted_model(broken)})
    assert log.status == "error" and log.error is not None
    assert "provider down" in log.error.message


def test_metadata_records_the_variant(demo_dir: Path) -> None:
    task = tastybench(data_path=str(demo_dir), rounds=2, web_search=True)
    assert len(task.dataset) == 2 * (len(load_papers("curated", "idea", demo_dir).papers) - 1)
    assert task.metadata is not None
    assert task.metadata["velocity"] == "windowed" and task.metadata["prompt"] == "goodhart"
    assert task.metadata["velocity_fetch_date"] == "2025-11-08"
    assert task.metadata["schedule"] == "adjacent" and task.metadata["rounds"] == 2
    assert "semanticscholar.org" in task.metadata["web_search_blocked_domains"]
    block = task.metadata["provenance"]
    assert block["data_revision"] == "be72f06afd1e75ffd2f3067c87a616e4de6e4633"
    assert block["prompt_variant"] == "goodhart"
    assert block["paper_faithful"] == {"velocity": False, "choice_method": False, "schedule": True}
    assert task.metadata["headline_metric"] == "bt_spearman"
    assert task.version == "4-A"
    assert task.metadata["recall_probe"] is True and task.metadata["knowledge_cutoff_arg"] is None


def test_common_window_leaves_out_and_counts_papers_without_it(demo_dir: Path) -> None:
    papers = load_papers("curated", "idea", demo_dir, window_months=12).papers
    lacking = sorted(p.paper_id for p in papers if p.months_observed < 12)
    assert lacking  # the demo set has recent papers
    task = tastybench(data_path=str(demo_dir), velocity="common_window", window_months=12, rounds=1)
    assert task.metadata is not None
    assert sorted(task.metadata["papers_without_common_window"]) == lacking
    assert task.metadata["papers_judged"] == len(papers) - len(lacking)
    shown = {s.metadata["paper_1"] for s in task.dataset} | {
        s.metadata["paper_2"] for s in task.dataset
    }
    assert not shown & set(lacking)
    assert all(s.metadata["velocity_1"] is not None for s in task.dataset)
    with pytest.raises(ValueError, match="window_months"):
        tastybench(data_path=str(demo_dir), velocity="common_window", window_months=15)


def test_invalid_arguments_fail_fast(demo_dir: Path) -> None:
    with pytest.raises(ValueError, match="prompt"):
        tastybench(data_path=str(demo_dir), prompt="fancy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rounds"):
        tastybench(data_path=str(demo_dir), rounds=0)
    with pytest.raises(ValueError, match="pairs_file"):
        tastybench(data_path=str(demo_dir), schedule="file")


def test_only_providers_that_can_block_domains_are_enabled() -> None:
    tool = ToolDef(guarded_web_search())
    assert tool.name == "web_search" and tool.options is not None
    providers = {key for key in tool.options if not key.startswith("__")}
    assert providers == {"anthropic", "tavily"}
    assert tool.options["anthropic"]["blocked_domains"] == sorted(CITATION_COUNT_DOMAINS)
    assert tool.options["tavily"]["exclude_domains"] == sorted(CITATION_COUNT_DOMAINS)
    assert {"scholar.google.com", "semanticscholar.org"} <= set(CITATION_COUNT_DOMAINS)
