"""Issue 43's "Done when", scored as issue 50 asks (both orders of every pair): the oracle on
the demo rows through the ``inspect`` command, a local JSONL with left-out rows, twin rows and
variations under a scripted model that knows the papers before a month, and the one sentence
without network."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessage
from log_metrics import every_figure_of
from mock_models import scripted_model
from scijudge_rows import hand_ci, paper, row, write_rows

from research_taste_evals.core.data import CACHE_DIR_ENV
from research_taste_evals.core.recognition import NOT_RECOGNISED, is_probe_prompt
from research_taste_evals.core.stats import DEFAULT_BOOTSTRAP_SEED
from research_taste_evals.scijudge import scijudge
from research_taste_evals.scijudge.dataset import DATASET_ID

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


def test_the_citation_oracle_scores_1_offline_through_the_inspect_command(tmp_path: Path) -> None:
    result = _inspect(
        ["--model", "baseline/scijudge-oracle", "-T", "data_path=demo"],
        tmp_path,
        HF_HUB_OFFLINE="1",
    )
    assert result.returncode == 0, result.stderr
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info.name)
    metrics = every_figure_of(log)
    assert metrics["accuracy"] == 1.0
    assert (metrics["pairs"], metrics["answers"]) == (6.0, 12.0)
    assert log.eval.metadata is not None
    assert log.eval.metadata["left_out"] == 1
    assert log.eval.metadata["left_out_by_reason"]["equal_citations"] == 1


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


# (paper A, paper B, extra words) of each row, in file order.
ROWS = [
    ("o1", "o2", ""), ("o2", "o1", ""),  # an old pair, both orders: one couple of twin rows
    ("o3", "o4", ""),  # one order: its swap is built
    ("o4", "n1", ""), ("n1", "o4", ""),  # one known paper: never clean
    ("n1", "n2", ""), ("n2", "n1", ""),
    ("n1", "n2", " Think about the field first."),  # a second variation, its swap built
    ("n3", "n4", ""), ("n4", "n3", ""),
    ("n5", "n6", ""),
    ("n7", "n8", ""),  # equal citations: left out (answer A given)
    ("n9", "n10", ""),  # missing abstract: left out
]  # fmt: skip
COUPLES = [ROWS[i] for i in (0, 2, 3, 5, 7, 8, 10)]  # each row with its twin, by hand


def _record(p: dict[str, dict[str, Any]], spec: tuple[str, str, str]) -> dict[str, Any]:
    a, b, words = spec
    return row(p[a], p[b], answer="A" if a == "n7" else None, words=words)


def _coin(text: str) -> str:
    """The scripted model's pick after the month: fixed by the prompt, unrelated to the answer."""
    return "AB"[hashlib.sha256(text.encode()).digest()[0] % 2]


def test_local_rows_counts_pair_ci_and_clean_twin_under_a_model_knowing_old_papers(
    tmp_path: Path,
) -> None:
    papers = _papers()
    data = write_rows(tmp_path / "rows.jsonl", [_record(papers, spec) for spec in ROWS])

    def known(p: dict[str, Any]) -> bool:
        return str(p["date"])[:7] < KNOWN_BEFORE

    def pick(a: dict[str, Any], b: dict[str, Any], text: str) -> str:
        if known(a) and known(b):
            return "A" if a["citations"] > b["citations"] else "B"
        return _coin(text)  # picks at random after the month

    def respond(messages: list[ChatMessage]) -> str:
        text = messages[-1].text
        if is_probe_prompt(text):
            shown = next(p for p in papers.values() if p["abstract"] and p["abstract"] in text)
            return f"Title: {shown['title']}\nYear: 2022" if known(shown) else NOT_RECOGNISED
        a, b = sorted(
            (p for p in papers.values() if p["title"] in text), key=lambda p: text.index(p["title"])
        )
        return f"<answer>{pick(a, b, text)}</answer>"

    couples: dict[str, list[float]] = {}
    for a, b, words in COUPLES:
        right = 1.0
        for first, second in ((a, b), (b, a)):
            shown = _record(papers, (first, second, words))
            text = shown["messages"][1]["content"]
            right *= pick(papers[first], papers[second], text) == shown["correct_answer"]
        couples.setdefault("|".join(sorted((a, b))), []).append(right)
    means = {pair: sum(v) / len(v) for pair, v in sorted(couples.items())}
    clean = {k: v for k, v in means.items() if not any(o in k.split("|") for o in OLD)}
    assert len(means) == 6 and len(clean) == 3

    task = scijudge(data_path=str(data), knowledge_cutoff="2023-01", bootstrap_resamples=RESAMPLES)
    (log,) = inspect_eval(task, model=scripted_model(respond), log_dir=str(tmp_path / "logs"))
    metrics = every_figure_of(log)
    assert log.eval.metadata is not None
    header = log.eval.metadata
    assert (header["rows"], header["kept_rows"], header["left_out"]) == (13, 11, 2)
    assert header["left_out_by_reason"] == {
        "unknown_answer": 0,
        "missing_abstract": 1,
        "equal_citations": 1,
        "equal_ratings": 0,
        "answer_not_higher": 0,
        "unswappable_prompt": 0,
        "same_paper": 0,
        "duplicate_row": 0,
    }
    assert (header["couples"], header["twin_rows"], header["built_swaps"]) == (7, 4, 3)
    assert (metrics["pairs"], metrics["answers"], metrics["incomplete_pairs"]) == (6.0, 14.0, 0.0)
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
    # Inspect's display of a task that cannot be built: its traceback, the sentence last
    # (no process-wide hook of ours reshapes it: CONTRIBUTING.md, "The runtime layer")
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    last = lines[-1]
    assert "-T data_path=demo" in last and DATASET_ID in last, result.stderr[-3000:]
    assert last.split(": ", 1)[-1].count(". ") == 0, "one sentence"
    assert not list((tmp_path).glob("logs/*.eval")), "stopped before any model call"
    assert json.dumps(last)  # printable as one line
