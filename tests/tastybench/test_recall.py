"""TastyBench recall controls end to end: a held-out scripted model, the cutoff, the probe."""

from __future__ import annotations

import csv
import datetime as dt
import logging
import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage
from mock_models import scripted_outputs
from tastybench_held_out import FAST, Metrics, ScriptedModel, held_out_model, write_papers

from research_taste_evals.core.recognition import is_probe_prompt
from research_taste_evals.tastybench.dataset import (
    PAPER_FILES,
    UPSTREAM_DATA_DIR,
)
from research_taste_evals.tastybench.tastybench import tastybench

CUTOFF = dt.date(2024, 6, 30)

# --- the papers: 8 known, 8 unknown and one that names itself ----------------------------
KNOWN, UNKNOWN = 8, 8


def _papers() -> list[dict[str, object]]:
    """8 papers of 2023 and 8 of 2025, velocities shuffled against dates; one extra 2023
    paper whose idea names its method (identity leak)."""
    rows = []
    for i in range(KNOWN + UNKNOWN):
        year = 2023 if i < KNOWN else 2025
        velocity = float((i * 7) % 16 + 1)
        rows.append(
            {
                "id": f"p{i:02d}",
                "title": f"Title number {i} of a reinforcement learning study",
                "date": f"{year}-{i % 12 + 1:02d}-15",
                "velocity": velocity,
                "idea": f"Training a policy on task family {i} with objective {i * 3}.",
            }
        )
    rows.append(
        {
            "id": "leak",
            "title": "ZetaRL: Zero-Shot Policies",
            "date": "2023-05-02",
            "velocity": 9.5,
            "idea": "ZetaRL trains zero-shot policies.",
        }
    )
    return rows


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_held_out_model_recall_inflates_only_the_raw_headline(
    tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    papers = _papers()
    data = write_papers(tmp_path / "data", papers)
    calls: list[str] = []
    respond = held_out_model(papers, CUTOFF)

    def counted(messages: list[ChatMessage]) -> str:
        calls.append("probe" if is_probe_prompt(messages[-1].text) else "judge")
        return respond(messages)

    task = tastybench(
        data_path=str(data),
        schedule="all_pairs",
        knowledge_cutoff=CUTOFF.isoformat(),
        choice_method="parser",
        bootstrap_resamples=300,
    )
    log = inspect_eval(task, model=scripted_model(counted), log_dir=str(tmp_path / "logs"), **FAST)[
        0
    ]
    metrics = metrics_of(log)
    n = len(papers)
    assert calls.count("judge") == n * (n - 1)
    assert calls.count("probe") == n - 1  # once per paper; the leaking one is not asked
    # recognized_rate = the share it knows among papers whose text does not name them.
    assert metrics["recognized_rate"] == pytest.approx(KNOWN / (KNOWN + UNKNOWN))
    assert metrics["leaked_items"] == 1 and metrics["probed_items"] == KNOWN + UNKNOWN
    assert metrics["post_cutoff_papers"] == UNKNOWN
    assert metrics["post_cutoff_comparisons"] == UNKNOWN * (UNKNOWN - 1)
    # Recall inflates the raw headline; on what it cannot recall it is at chance.
    assert metrics["bt_spearman"] > 0.5 and metrics["bt_spearman_ci_low"] > 0
    for twin in ("bt_spearman_post_cutoff", "bt_spearman_unrecognized"):
        assert metrics[f"{twin}_ci_low"] < 0 < metrics[f"{twin}_ci_high"]
        assert abs(metrics[twin]) < 0.5
    assert metrics["bt_spearman_unrecognized"] == metrics["bt_spearman_post_cutoff"]
    sample = (log.samples or [])[0]
    score = sample.scores["tastybench_scorer"]  # type: ignore[index]
    assert score.metadata is not None
    assert score.metadata["knowledge_cutoff"] == CUTOFF.isoformat()
    assert score.metadata["cutoff_source"] == "task_arg"
    probe = sample.metadata["recall_probe"][sample.metadata["paper_1"]]
    assert probe["answer"] and "recognized" in probe


def test_unknown_model_without_cutoff_nan_twins_one_warning(
    tmp_path: Path,
    scripted_model: ScriptedModel,
    metrics_of: Metrics,
    caplog: pytest.LogCaptureFixture,
) -> None:
    papers = _papers()[:4]
    data = write_papers(tmp_path / "data", papers)
    task = tastybench(data_path=str(data), schedule="all_pairs", choice_method="parser")
    with caplog.at_level(logging.WARNING, logger="research_taste_evals.core.cutoff"):
        log = inspect_eval(
            task,
            model=scripted_model(lambda m: "PROJECT 1"),
            log_dir=str(tmp_path / "logs"),
            **FAST,
        )[0]
    metrics = metrics_of(log)
    assert math.isnan(metrics["bt_spearman_post_cutoff"]) and math.isnan(
        metrics["post_cutoff_papers"]
    )
    warnings = [r for r in caplog.records if "no knowledge cutoff" in r.getMessage()]
    assert len(warnings) == 1 and "-T knowledge_cutoff=YYYY-MM " in warnings[0].getMessage()
    assert metrics["recognized_rate"] == 0.0  # "PROJECT 1" names no paper


def test_probe_off_and_bad_cutoff(
    tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    from research_taste_evals.core.errors import ConfigError

    data = write_papers(tmp_path / "data", _papers()[:4])
    with pytest.raises(ConfigError, match="knowledge_cutoff"):
        tastybench(data_path=str(data), knowledge_cutoff="June 2024")
    calls: list[int] = []

    def respond(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return "PROJECT 2"

    task = tastybench(
        data_path=str(data), schedule="all_pairs", choice_method="parser", recall_probe=False
    )
    log = inspect_eval(task, model=scripted_model(respond), log_dir=str(tmp_path / "logs"), **FAST)[
        0
    ]
    assert len(calls) == 12
    assert math.isnan(metrics_of(log)["recognized_rate"])


@pytest.mark.upstream
def test_curated_ideas_that_name_their_paper(tastybench_upstream: Path) -> None:
    """The README's figure: 5 of the 37 upstream ideas name their method."""
    from research_taste_evals.tastybench.dataset import load_papers

    loaded = load_papers("curated", "idea", tastybench_upstream)
    leaks = loaded.metadata["identity_leak"]
    assert sorted(name for found in leaks.values() for name in found) == [
        "name 'DAPO'",
        "name 'ProRL'",
        "name 'ReMax'",
        "name 'ReST'",
        "name 'SWE-RL'",
    ]
    assert loaded.metadata["pub_date_range"] == ("2023-03-30", "2025-09-08")


def test_dry_run_estimate_counts_the_probe() -> None:
    """eval.yaml's calls per sample (read by `sweep --dry-run`): one judge call per comparison
    and one probe per paper and run, 37 papers over the default 720 comparisons."""
    import yaml

    import research_taste_evals.tastybench as family

    declared = yaml.safe_load((Path(family.__file__).parent / "eval.yaml").read_text())
    task = declared["metadata"]["extras"]["tasks"]["tastybench"]
    samples = next(t["dataset_samples"] for t in declared["tasks"] if t["name"] == "tastybench")
    assert task["model_calls_per_sample"]["model"] == pytest.approx(1 + 37 / samples, abs=0.005)


def test_a_bad_pub_date_is_one_sentence_naming_file_paper_field(tmp_path: Path) -> None:
    from research_taste_evals.core.data import DataError
    from research_taste_evals.tastybench.dataset import load_papers

    # Every other paper published when its citation series starts (2023-01), as a real set is.
    papers = [dict(paper, date="2023-01-15") for paper in _papers()[:3]]
    papers[1]["date"] = "Spring 2024"
    with pytest.raises(DataError, match=r"llm_rl_yix_curate.csv: paper p01: field 'pub_date'"):
        load_papers("curated", "idea", _write_raw(tmp_path / "data", papers))


def _write_raw(directory: Path, papers: list[dict[str, object]]) -> Path:
    """:func:`_write` for papers whose date is not parseable (series start from 2023-01)."""
    fixed = [dict(p, date="2023-01-15") for p in papers]
    folder = write_papers(directory, fixed)
    path = folder / UPSTREAM_DATA_DIR / PAPER_FILES["curated"].filename
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for row, paper in zip(rows, papers, strict=True):
        row["pub_date"] = str(paper["date"])
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return folder


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_epochs_ask_each_paper_once_and_keep_the_twins(
    tmp_path: Path,
    scripted_model: ScriptedModel,
    metrics_of: Metrics,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    papers = _papers()[:4] + _papers()[KNOWN : KNOWN + 4]
    data = write_papers(tmp_path / "data", papers)
    respond = held_out_model(papers, CUTOFF)
    probes: list[int] = []

    def counted(messages: list[ChatMessage]) -> str:
        probes.extend([1] if is_probe_prompt(messages[-1].text) else [])
        return respond(messages)

    results = {}
    for epochs in (1, 2, 2):
        probes.clear()
        if epochs == 1 or results.get(2) is None:  # a fresh cache: only the memo can save calls
            monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / f"cache{epochs}"))

        task = tastybench(
            data_path=str(data),
            schedule="all_pairs",
            knowledge_cutoff=CUTOFF.isoformat(),
            choice_method="parser",
            bootstrap_resamples=100,
        )
        log = inspect_eval(
            task,
            model="mockllm/model",  # named: Inspect makes it with the run's --cache
            model_args={"custom_outputs": scripted_outputs(counted)},
            epochs=epochs,
            log_dir=str(tmp_path / f"logs{epochs}"),
            cache=True,
            **FAST,
        )[0]
        # once per paper, whatever the epochs; a re-run (same cache) asks none
        assert len(probes) == (0 if epochs in results else len(papers))
        results[epochs] = metrics_of(log)
    for key in ("recognized_rate", "post_cutoff_papers", "bt_spearman_post_cutoff", "bt_spearman"):
        assert results[2][key] == pytest.approx(results[1][key], nan_ok=True)
    assert results[2]["recognized_rate"] == 0.5 and results[2]["post_cutoff_papers"] == 4


# --- done when: a held-out model with a later real cutoff than the one stated ------------
