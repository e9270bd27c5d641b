"""TastyBench recall controls end to end: a held-out scripted model, the cutoff, the probe."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
import logging
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, Model

from research_taste_evals.core.recognition import is_probe_prompt
from research_taste_evals.tastybench.baselines import project_texts
from research_taste_evals.tastybench.dataset import (
    IDEA_FILES,
    PAPER_FILES,
    UPSTREAM_DATA_DIR,
    ols_slope,
)
from research_taste_evals.tastybench.tastybench import tastybench

ScriptedModel = Callable[[Callable[[list[ChatMessage]], str]], Model]
Metrics = Callable[[EvalLog], dict[str, float]]
FAST = {"display": "none", "max_connections": 1000, "max_samples": 1000, "log_realtime": False}
CUTOFF = dt.date(2024, 6, 30)

# --- the held-out scripted model ---------------------------------------------------------
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


def _write(directory: Path, papers: list[dict[str, object]]) -> Path:
    data = directory / UPSTREAM_DATA_DIR
    data.mkdir(parents=True)
    truth, ideas = [], []
    for paper in papers:
        counts = [round(float(paper["velocity"]) * (k + 1)) for k in range(12)]  # type: ignore[arg-type]
        start = dt.date.fromisoformat(str(paper["date"])).replace(day=1)
        dates = [
            dt.date(start.year + (start.month - 1 + k) // 12, (start.month - 1 + k) % 12 + 1, 1)
            for k in range(12)
        ]
        truth.append(
            {
                "paperId": paper["id"],
                "title": paper["title"],
                "pub_date": paper["date"],
                "b": ols_slope(counts),
                "citation_dates": json.dumps([d.isoformat() for d in dates]),
                "citation_counts": json.dumps(counts),
            }
        )
        ideas.append(
            {
                "paper_id": paper["id"],
                "abstract": "",
                "title": paper["title"],
                "idea": paper["idea"],
            }
        )
    ideas_file = IDEA_FILES["curated"]
    assert ideas_file is not None
    for name, rows in ((PAPER_FILES["curated"].filename, truth), (ideas_file.filename, ideas)):
        with (data / name).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return directory


def held_out_model(
    papers: list[dict[str, object]], cutoff: dt.date
) -> Callable[[list[ChatMessage]], str]:
    """Knows exactly the papers published before ``cutoff``: names them when probed, and picks
    the faster-cited of two known papers; otherwise says it does not recognise the paper and
    picks by a coin that ignores the papers' merit."""
    by_text = {str(p["idea"]): p for p in papers}
    known = {str(p["idea"]) for p in papers if dt.date.fromisoformat(str(p["date"])) <= cutoff}

    def respond(messages: list[ChatMessage]) -> str:
        prompt = messages[-1].text
        if is_probe_prompt(prompt):
            text = next(t for t in by_text if t in prompt)
            if text in known:
                return f"Title: {by_text[text]['title']}\nYear: {str(by_text[text]['date'])[:4]}"
            return "I do not recognise this paper."
        texts = project_texts(prompt)
        assert texts is not None
        first, second = (t.strip() for t in texts)
        if first in known and second in known:
            faster = float(by_text[first]["velocity"]) > float(by_text[second]["velocity"])  # type: ignore[arg-type]
            return f"PROJECT {1 if faster else 2}"
        coin = hashlib.sha256(f"{first}|{second}".encode()).digest()[0] % 2
        return f"PROJECT {coin + 1}"

    return respond


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_held_out_model_recall_inflates_only_the_raw_headline(
    tmp_path: Path, scripted_model: ScriptedModel, metrics_of: Metrics
) -> None:
    papers = _papers()
    data = _write(tmp_path / "data", papers)
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
    data = _write(tmp_path / "data", papers)
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

    data = _write(tmp_path / "data", _papers()[:4])
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
    folder = _write(directory, fixed)
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
    data = _write(tmp_path / "data", papers)
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
            model=scripted_model(counted),
            epochs=epochs,
            log_dir=str(tmp_path / f"logs{epochs}"),
            **FAST,
        )[0]
        # once per paper, whatever the epochs; a re-run (same cache) asks none
        assert len(probes) == (0 if epochs in results else len(papers))
        results[epochs] = metrics_of(log)
    for key in ("recognized_rate", "post_cutoff_papers", "bt_spearman_post_cutoff", "bt_spearman"):
        assert results[2][key] == pytest.approx(results[1][key], nan_ok=True)
    assert results[2]["recognized_rate"] == 0.5 and results[2]["post_cutoff_papers"] == 4


# --- done when: a held-out model with a later real cutoff than the one stated ------------
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
    data = _write(tmp_path / "data", papers)
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
    data = _write(tmp_path / "data", papers)
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
    data = _write(tmp_path / "data", papers)
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
