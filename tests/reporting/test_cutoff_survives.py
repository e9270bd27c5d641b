"""A cutoff given on the command line survives the log: an interrupted run resumes with
``inspect eval-retry``, and the report's command for it reruns it (issue 34, item 6).

Before: ``-T knowledge_cutoff=2024-01-01`` reached the log as the string ``date`` (Inspect's
YAML parse makes it a ``datetime.date``, which it records by type name), so eval-retry refused
the log and the report's command read ``-T knowledge_cutoff=date``. The model is Inspect's
``openai-api`` provider against a local scripted server (tests/support/fault_server.py) that
answers 500 to most calls in the first run (the run ends in error) and to none afterwards.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fault_server import Faults, FaultServer, Message
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from research_taste.reporting.eval_report import task_arg_token
from research_taste.reporting.report import write_report
from research_taste_evals.ideapairs.demo import write_demo_pairs

MODEL = "openai-api/fault/evaluated"
TIMEOUT = 300.0  # seconds any one subprocess may take before the test gives up
INSPECT = str(Path(sys.executable).with_name("inspect"))


def _answer(model: str, messages: list[Message]) -> str:
    return "Idea A fits the goal better.\nAnswer: A\nConfidence: 0.7"


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer(_answer, lifetime=900.0, max_requests=5_000) as running:
        yield running


def _inspect(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [INSPECT, *args], env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def _env(server: FaultServer, tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        **server.env(),
        "INSPECT_CACHE_DIR": str(tmp_path / "cache"),
        "XDG_DATA_HOME": str(tmp_path / "data-home"),
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }


def _logs(folder: Path) -> list[EvalLog]:
    return [read_eval_log(info, header_only=True) for info in list_eval_logs(str(folder))]


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_a_month_cutoff_run_resumes_and_the_report_command_reruns_it(
    server: FaultServer, tmp_path: Path
) -> None:
    env, pairs, logs = (
        _env(server, tmp_path),
        write_demo_pairs(tmp_path / "data"),
        tmp_path / "logs",
    )
    command = ["eval", "research_taste_evals/idea_pairs", "--model", MODEL, "--limit", "6"]
    command += ["-T", f"pairs_file={pairs}", "-T", "split=all", "-T", "bootstrap_resamples=20"]
    command += ["-T", "knowledge_cutoff=2014-12", "--max-retries", "0", "--max-connections", "1"]
    server.set_faults(Faults(http_500=0.8), seed=0)
    first = _inspect([*command, "--log-dir", str(logs), "--display", "none"], env)
    (interrupted,) = _logs(logs)
    assert interrupted.status == "error", first.stdout + first.stderr
    assert interrupted.eval.task_args["knowledge_cutoff"] == "2014-12"  # the string, not 'date'

    server.set_faults(Faults())
    retry = _inspect(["eval-retry", interrupted.location, "--log-dir", str(logs)], env)
    assert retry.returncode == 0, retry.stdout + retry.stderr
    (done,) = [log for log in _logs(logs) if log.status == "success"]
    assert done.eval.task_args["knowledge_cutoff"] == "2014-12"

    out = tmp_path / "site"
    write_report(str(logs), out, eval_report=True, bundle=False)
    report = (out / "evaluation_report.md").read_text(encoding="utf-8")
    (line,) = [ln for ln in report.splitlines() if ln.startswith("inspect eval ")]
    assert "-T knowledge_cutoff=2014-12 " in line and "=date" not in line
    # Rerun it as written (the data folder is published as <local>; put the real one back).
    rerun = shlex.split(line.replace("<local>/", f"{pairs.parent}/"))[1:]
    again = tmp_path / "again"
    result = _inspect([*rerun, "--log-dir", str(again), "--display", "none"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    (rerun_log,) = _logs(again)
    assert rerun_log.status == "success"
    assert rerun_log.eval.task_args["knowledge_cutoff"] == "2014-12"


@pytest.mark.slow  # a whole task or a fresh interpreter: out of the inner loop
def test_a_day_cutoff_never_reaches_a_log_as_date(server: FaultServer, tmp_path: Path) -> None:
    env, pairs, logs = (
        _env(server, tmp_path),
        write_demo_pairs(tmp_path / "data"),
        tmp_path / "logs",
    )
    base = ["eval", "research_taste_evals/idea_pairs", "--model", MODEL, "--limit", "2"]
    base += ["-T", f"pairs_file={pairs}", "-T", "split=all", "-T", "bootstrap_resamples=20"]
    base += ["--log-dir", str(logs), "--display", "none"]
    unquoted = _inspect([*base, "-T", "knowledge_cutoff=2015-01-31"], env)
    assert unquoted.returncode != 0
    assert "argument 'knowledge_cutoff' got the date 2015-01-31" in unquoted.stderr
    assert "-T knowledge_cutoff=2024-12" in unquoted.stderr
    assert all(log.eval.task_args.get("knowledge_cutoff") != "date" for log in _logs(logs))

    token = task_arg_token("knowledge_cutoff", "2015-01-31")  # how the report writes the day
    assert token == "knowledge_cutoff='2015-01-31'"
    assert yaml.safe_load(token.split("=", 1)[1]) == "2015-01-31"  # Inspect's -T parse
    quoted = _inspect([*base, "-T", token], env)
    assert quoted.returncode == 0, quoted.stdout + quoted.stderr
    (log,) = [log for log in _logs(logs) if log.status == "success"]
    assert log.eval.task_args["knowledge_cutoff"] == "2015-01-31"
    out = tmp_path / "site"
    write_report(str(logs), out, eval_report=True, bundle=False)
    report = (out / "evaluation_report.md").read_text(encoding="utf-8")
    assert "-T \"knowledge_cutoff='2015-01-31'\"" in report
