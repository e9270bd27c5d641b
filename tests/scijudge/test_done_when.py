"""Issue 43's "Done when": the oracle and position baselines on the demo rows (through the
``inspect`` command), a local JSONL with left-out rows and variations under a scripted model
that knows the papers before a month, and the one sentence without network."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessage
from log_metrics import metrics_of
from mock_models import scripted_model
from scijudge_rows import hand_ci, paper, row, write_rows

from research_taste_evals.core.data import CACHE_DIR_ENV
from research_taste_evals.core.recognition import NOT_RECOGNISED, is_probe_prompt
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.scijudge import scijudge
from research_taste_evals.scijudge.dataset import DATASET_ID
from research_taste_evals.scijudge.demo import demo_rows

pytestmark = pytest.mark.slow
RESAMPLES = 400


def _inspect(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("inspect", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip(f"inspect is not installed beside {sys.executable}")
    return subprocess.run(
        [executable, "eval", "research_taste_evals/scijudge", *args]
        + ["--display", "none", "--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, CACHE_DIR_ENV: str(tmp_path / "cache"), **env},
    )


def _pair(record: dict[str, Any]) -> str:
    return "|".join(sorted((record["paper_a_arxiv_id"], record["paper_b_arxiv_id"])))


def _pair_means(records: list[dict[str, Any]], correct: list[bool]) -> dict[str, float]:
    rows: dict[str, list[bool]] = {}
    for record, right in zip(records, correct, strict=True):
        rows.setdefault(_pair(record), []).append(right)
    return {pair: sum(v) / len(v) for pair, v in sorted(rows.items())}


def test_the_citation_oracle_scores_1_offline_through_the_inspect_command(tmp_path: Path) -> None:
    result = _inspect(
        ["--model", "baseline/scijudge-oracle", "-T", "data_path=demo"],
        tmp_path,
        HF_HUB_OFFLINE="1",
    )
    assert result.returncode == 0, result.stderr
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info.name)
    metrics = metrics_of(log)
    assert metrics["accuracy"] == 1.0
    assert (metrics["pairs"], metrics["rows"]) == (6.0, 14.0)
    assert log.eval.metadata is not None
    assert log.eval.metadata["left_out"] == 1
    assert log.eval.metadata["left_out_by_reason"]["equal_citations"] == 1


def test_always_a_scores_half_with_the_pair_ci_computed_by_hand(tmp_path: Path) -> None:
    kept = [r for r in demo_rows() if r["paper_a_citations"] != r["paper_b_citations"]]
    means = _pair_means(kept, [r["correct_answer"] == "A" for r in kept])
    # Four pairs asked in both orders (0.5 each), one A,B,A (2/3) and one B,A,B (1/3).
    assert sorted(means.values()) == pytest.approx([1 / 3, 0.5, 0.5, 0.5, 0.5, 2 / 3])
    low, high = hand_ci(list(means.values()), RESAMPLES, DEFAULT_BOOTSTRAP_SEED)
    assert low < 0.5 < high
    task = scijudge(data_path="demo", bootstrap_resamples=RESAMPLES)
    (log,) = inspect_eval(task, model="baseline/scijudge-always-a", log_dir=str(tmp_path))
    metrics = metrics_of(log)
    assert metrics["accuracy"] == pytest.approx(0.5)
    assert metrics["accuracy_ci_low"] == pytest.approx(low)
    assert metrics["accuracy_ci_high"] == pytest.approx(high)
    assert metrics["position_a_share"] == 1.0
    assert metrics["unparsed_rate"] == 0.0


OLD = {"o1": ("2022-01-10", 100), "o2": ("2022-02-01", 10), "o3": ("2022-11-05", 50),
       "o4": ("2023-03-02", 5)}  # fmt: skip
NEW = {"n1": ("2023-09-01", 80), "n2": ("2023-10-01", 8), "n3": ("2024-02-01", 30),
       "n4": ("2024-03-15", 3), "n5": ("2024-06-01", 60), "n6": ("2024-07-01", 6),
       "n7": ("2024-08-01", 12), "n8": ("2024-08-10", 12), "n9": ("2024-09-01", 9),
       "n10": ("2024-09-02", 1)}  # fmt: skip
KNOWN_BEFORE = "2023-06"  # the scripted model knows every paper dated before this month


def _papers() -> dict[str, dict[str, Any]]:
    papers = {key: paper(key, date, cites) for key, (date, cites) in (OLD | NEW).items()}
    papers["n9"] = paper("n9", *NEW["n9"], abstract="")
    return papers


def _rows(p: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        row(p["o1"], p["o2"]), row(p["o2"], p["o1"]),  # an old pair, both orders
        row(p["o3"], p["o4"]),
        row(p["o4"], p["n1"]), row(p["n1"], p["o4"]),  # one known paper: never clean
        row(p["n1"], p["n2"]), row(p["n2"], p["n1"]),
        row(p["n1"], p["n2"], words=" Think about the field first."),  # a third variation
        row(p["n3"], p["n4"]), row(p["n4"], p["n3"]),
        row(p["n5"], p["n6"]),
        row(p["n7"], p["n8"], answer="A"),  # equal citations: left out
        row(p["n9"], p["n10"]),  # missing abstract: left out
    ]  # fmt: skip


def test_local_rows_counts_pair_ci_and_clean_twin_under_a_model_knowing_old_papers(
    tmp_path: Path,
) -> None:
    papers = _papers()
    records = _rows(papers)
    data = write_rows(tmp_path / "rows.jsonl", records)
    kept = records[:11]
    coin = random.Random(11)
    coins = {r["messages"][1]["content"]: coin.choice("AB") for r in kept}

    def known(p: dict[str, Any]) -> bool:
        return str(p["date"])[:7] < KNOWN_BEFORE

    def respond(messages: list[ChatMessage]) -> str:
        text = messages[-1].text
        if is_probe_prompt(text):
            shown = next(p for p in papers.values() if p["abstract"] and p["abstract"] in text)
            return f"Title: {shown['title']}\nYear: 2022" if known(shown) else NOT_RECOGNISED
        a, b = sorted(
            (p for p in papers.values() if p["title"] in text), key=lambda p: text.index(p["title"])
        )
        if known(a) and known(b):
            return f"<answer>{'A' if a['citations'] > b['citations'] else 'B'}</answer>"
        return f"<answer>{coins[text]}</answer>"  # picks at random after the month

    picks = [
        ("A" if r["paper_a_citations"] > r["paper_b_citations"] else "B")
        if known(papers[r["paper_a_arxiv_id"]]) and known(papers[r["paper_b_arxiv_id"]])
        else coins[r["messages"][1]["content"]]
        for r in kept
    ]
    means = _pair_means(
        kept, [pick == r["correct_answer"] for pick, r in zip(picks, kept, strict=True)]
    )
    clean = {k: v for k, v in means.items() if not any(o in k.split("|") for o in OLD)}
    assert len(means) == 6 and len(clean) == 3

    task = scijudge(data_path=str(data), knowledge_cutoff="2023-01", bootstrap_resamples=RESAMPLES)
    (log,) = inspect_eval(task, model=scripted_model(respond), log_dir=str(tmp_path / "logs"))
    metrics = metrics_of(log)
    assert log.eval.metadata is not None
    header = log.eval.metadata
    assert (header["rows"], header["kept_rows"], header["left_out"]) == (13, 11, 2)
    assert header["left_out_by_reason"] == {
        "unknown_answer": 0,
        "missing_abstract": 1,
        "equal_citations": 1,
    }
    assert (metrics["pairs"], metrics["rows"]) == (6.0, 11.0)
    assert metrics["accuracy"] == pytest.approx(sum(means.values()) / 6)
    low, high = hand_ci(list(means.values()), RESAMPLES, DEFAULT_BOOTSTRAP_SEED)
    assert (metrics["accuracy_ci_low"], metrics["accuracy_ci_high"]) == pytest.approx((low, high))
    # Clean: both papers after the run's clean cutoff (the estimated one, 2023-08, is later than
    # the stated 2023-01) and not recognised: the three pairs of new papers only.
    assert metrics["recognized_rate"] == pytest.approx(0.4)
    assert metrics["estimated_cutoff"] == 202308
    assert (metrics["clean_pairs"], metrics["clean_items"]) == (3.0, 6.0)
    assert metrics["accuracy_clean"] == pytest.approx(sum(clean.values()) / 3)
    low, high = hand_ci(list(clean.values()), RESAMPLES, DEFAULT_BOOTSTRAP_SEED)
    assert (metrics["accuracy_clean_ci_low"], metrics["accuracy_clean_ci_high"]) == pytest.approx(
        (low, high)
    )
    assert metrics["post_cutoff_recognized"] == 1.0  # o4 (2023-03): the stated cutoff is wrong


def test_without_network_or_data_path_one_sentence_names_the_demo_and_the_dataset(
    tmp_path: Path,
) -> None:
    result = _inspect(["--model", "baseline/scijudge-always-a"], tmp_path, HF_HUB_OFFLINE="1")
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "-T data_path=demo" in lines[0] and DATASET_ID in lines[0]
    assert lines[0].count(". ") == 0, "one sentence"
    assert not list((tmp_path).glob("logs/*.eval")), "stopped before any model call"
    assert json.dumps(lines[0])  # printable as one line
